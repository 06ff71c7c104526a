import { chinaDayStart } from '@portal/contract/card-spending';
import { CardErrorCode } from '@portal/contract/card-errors';
import { REVEAL_WINDOW_SECONDS, REVEALS_PER_HOUR, type RevealAnswer, type RevealBody, SENSITIVE_EXPORTS_PER_DAY } from '@portal/contract/cards';
import type { SendType } from '@portal/contract/enums';
import { cardCalls } from '@portal/contract/api/cards';
import type { Db, Tx } from '../../db/engine.ts';
import { traceWithin } from '../../http/call-trace.ts';
import { AppError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Sealer } from '../../lib/sealed.ts';
import { type CardService, cardScopeOf, notAllowed } from '../cards/service.ts';
import type { Authenticated } from '../sessions/service.ts';
import { findRevealGrant, insertReveal, lockRevealGrant, revealsSince, saveRevealGrant, sensitiveExportsSince } from './store.ts';

/** Checks and uses an access code sent to the account's own phone or e-mail (send/code-auto). */
export type AccessCodeCheck = (merchantId: string, member: Authenticated['member'], channel: SendType, captcha: string) => Promise<void>;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Who asked, for the audit of reveals. */
export interface RevealCaller {
  ip: string;
  userAgent: string;
}

/**
 * What full card numbers leave through, a reveal or an export with full numbers: an access code checked in
 * this very session within the last five minutes (a code checked in one session unlocks nothing in another,
 * so a stolen or forgotten session cannot ride on the owner's code), and at most REVEALS_PER_HOUR of them an
 * hour per account, an export counting as one reveal, and at most SENSITIVE_EXPORTS_PER_DAY such exports a
 * day (China time, as the spending limits' days).
 */
export function revealGate({ db, clock, useAccessCode }: { db: Db; clock: Clock; useAccessCode: AccessCodeCheck }) {
  return {
    /**
     * Refused when the last hour's reveals and exports with full numbers are at the limit (data.seconds until
     * the oldest drops out), and for an export also when today's exports with full numbers are.
     */
    async checkLimits(tx: Tx, accountId: string, now: Date, what: 'reveal' | 'export') {
      const since = new Date(now.getTime() - HOUR_MS);
      const [reveals, exports] = await Promise.all([revealsSince(tx, accountId, since), sensitiveExportsSince(tx, accountId, chinaDayStart(since))]);
      const recent = [...reveals, ...exports.filter((row) => row.at >= since)].sort((a, b) => a.at.getTime() - b.at.getTime());
      if (recent.length >= REVEALS_PER_HOUR) {
        const oldest = recent[recent.length - REVEALS_PER_HOUR]?.at ?? now;
        const seconds = Math.max(1, Math.ceil((oldest.getTime() + HOUR_MS - now.getTime()) / 1000));
        throw new AppError(CardErrorCode.REVEAL_LIMIT, { ...(what === 'export' ? { variant: 'export' } : {}), params: { seconds }, data: { seconds } });
      }
      if (what !== 'export') return;
      const dayStart = chinaDayStart(now);
      if (exports.filter((row) => row.at >= dayStart).length >= SENSITIVE_EXPORTS_PER_DAY) {
        const retryAt = new Date(dayStart.getTime() + DAY_MS).toISOString();
        throw new AppError(CardErrorCode.SENSITIVE_EXPORT_DAILY_LIMIT, {
          params: { limit: SENSITIVE_EXPORTS_PER_DAY },
          data: { limit: SENSITIVE_EXPORTS_PER_DAY, retry_at: retryAt },
        });
      }
    },

    /**
     * Uses the code given, which opens the window for this session, or finds the window this session opened;
     * else refused with `codeRequired`.
     */
    async unlock(merchantId: string, auth: Authenticated, asked: { captcha?: string | undefined; send_type?: SendType | undefined }, codeRequired: number) {
      const accountId = auth.account.id;
      if (asked.captcha !== undefined) {
        await useAccessCode(merchantId, auth.member, asked.send_type ?? 'SEND_TYPE_PHONE', asked.captcha);
        await saveRevealGrant(db, { merchantId, accountId, memberId: auth.member.id, sessionId: auth.session.id, at: clock.now() });
        return;
      }
      const grant = await findRevealGrant(db, merchantId, accountId, auth.member.id);
      const open = grant && grant.sessionId === auth.session.id && clock.now().getTime() - grant.grantedAt.getTime() <= REVEAL_WINDOW_SECONDS * 1000;
      if (!open) throw new AppError(codeRequired);
    },

    /** One account's reveals and exports are counted one at a time, so two at once cannot both pass a limit. */
    serialise: (tx: Tx, accountId: string) => lockRevealGrant(tx, accountId),
  };
}

export type RevealGate = ReturnType<typeof revealGate>;

/**
 * Showing a card's full number, CVV and expiry: only through the gate above, and every time written to the
 * audit table (account, card, time, IP, agent). The numbers are opened from their seal only here.
 */
export function revealPart({ db, clock, sealer, cards }: { db: Db; clock: Clock; sealer: Sealer; cards: Pick<CardService, 'ownCard'> }, gate: RevealGate) {
  return {
    async reveal(merchantId: string, auth: Authenticated, id: string, body: RevealBody, caller: RevealCaller): Promise<RevealAnswer> {
      const accountId = auth.account.id;
      const card = await cards.ownCard(merchantId, cardScopeOf(auth), id);
      if (!card.secretSealed || card.status === 'DELETE') throw notAllowed(card, '查看卡号');
      // looked at before the code is used, so a refused reveal does not spend it
      await gate.checkLimits(db, accountId, clock.now(), 'reveal');
      await gate.unlock(merchantId, auth, body, CardErrorCode.REVEAL_CODE_REQUIRED);

      await db.transaction(async (tx) => {
        await gate.serialise(tx, accountId);
        const now = clock.now();
        await gate.checkLimits(tx, accountId, now, 'reveal');
        await insertReveal(tx, { merchantId, accountId, cardId: card.id, ip: caller.ip, userAgent: caller.userAgent.slice(0, 300), revealedAt: now });
        await traceWithin(tx, cardCalls.reveal, null);
      });
      const secret = JSON.parse(sealer.open(card.secretSealed)) as RevealAnswer;
      return { pan: secret.pan, cvv: secret.cvv, exp_month: secret.exp_month, exp_year: secret.exp_year };
    },
  };
}
