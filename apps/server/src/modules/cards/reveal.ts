import { REVEAL_WINDOW_SECONDS, REVEALS_PER_HOUR, type RevealAnswer, type RevealBody } from '@portal/contract/cards';
import { CardErrorCode } from '@portal/contract/card-errors';
import { AppError } from '../../http/errors.ts';
import type { Authenticated } from '../sessions/service.ts';
import type { CardContext } from './context.ts';
import { notAllowed } from './lifecycle.ts';
import { findOwnCard, findRevealGrant, insertReveal, lockRevealGrant, revealsSince, saveRevealGrant } from './store.ts';

const HOUR_MS = 3_600_000;

/** Who asked, for the audit of reveals. */
export interface RevealCaller {
  ip: string;
  userAgent: string;
}

/**
 * Showing a card's full number, CVV and expiry: only within five minutes of an access code checked for
 * it (send/code-auto, MARK_TYPE_ACCESS), at most 30 times an hour per account, and every time written
 * to the audit table (account, card, time, IP, agent). The numbers are opened from their seal only here.
 */
export function revealPart({ db, clock, sealer, useAccessCode }: CardContext) {
  /** Refused when the last hour's reveals (oldest first) are at the limit; says the seconds until one drops out. */
  function checkLimit(recent: Array<{ at: Date }>, now: Date) {
    if (recent.length < REVEALS_PER_HOUR) return;
    const oldest = recent[recent.length - REVEALS_PER_HOUR]?.at ?? now;
    const seconds = Math.max(1, Math.ceil((oldest.getTime() + HOUR_MS - now.getTime()) / 1000));
    throw new AppError(CardErrorCode.REVEAL_LIMIT, { params: { seconds }, data: { seconds } });
  }
  const hourBefore = (now: Date) => new Date(now.getTime() - HOUR_MS);

  return {
    async reveal(merchantId: string, auth: Authenticated, id: string, body: RevealBody, caller: RevealCaller): Promise<RevealAnswer> {
      const accountId = auth.account.id;
      const card = await findOwnCard(db, merchantId, accountId, id);
      if (!card) throw new AppError(CardErrorCode.CARD_NOT_FOUND);
      if (!card.secretSealed || card.status === 'DELETE') throw notAllowed(card, '查看卡号');
      const asked = clock.now();
      // looked at before the code is used, so a refused reveal does not spend it
      checkLimit(await revealsSince(db, accountId, hourBefore(asked)), asked);

      if (body.captcha !== undefined) {
        await useAccessCode(merchantId, auth.account, body.send_type ?? 'SEND_TYPE_PHONE', body.captcha);
        await saveRevealGrant(db, merchantId, accountId, clock.now());
      } else {
        const grant = await findRevealGrant(db, merchantId, accountId);
        if (!grant || clock.now().getTime() - grant.grantedAt.getTime() > REVEAL_WINDOW_SECONDS * 1000) {
          throw new AppError(CardErrorCode.REVEAL_CODE_REQUIRED);
        }
      }

      await db.transaction(async (tx) => {
        // one account's reveals are counted one at a time, so two at once cannot both pass the limit
        await lockRevealGrant(tx, accountId);
        const now = clock.now();
        checkLimit(await revealsSince(tx, accountId, hourBefore(now)), now);
        await insertReveal(tx, { merchantId, accountId, cardId: card.id, ip: caller.ip, userAgent: caller.userAgent.slice(0, 300), revealedAt: now });
      });
      const secret = JSON.parse(sealer.open(card.secretSealed)) as RevealAnswer;
      return { pan: secret.pan, cvv: secret.cvv, exp_month: secret.exp_month, exp_year: secret.exp_year };
    },
  };
}
