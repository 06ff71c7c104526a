import { maskedCode, type ThreeDsOtp } from '@portal/contract/card-spending';
import { EVENT_TYPES } from '@portal/contract/events';
import { fromMinorUnits, toMinorUnits } from '@portal/contract/money';
import type { Tx } from '../../db/engine.ts';
import { threeDsData } from '../../providers/issuer/protocol.ts';
import type { IssuerEvent } from '../issuer/service.ts';
import { cardName, cardNotices, isUuid } from '../cards/service.ts';
import type { SpendingDeps } from './deps.ts';
import { parse } from './keys.ts';

/** 3-D Secure codes the issuer sends for a purchase online. */
export function threeDsPart({ events, webhooks, messages, cards }: Pick<SpendingDeps, 'events' | 'webhooks' | 'messages' | 'cards'>) {
  /** 3ds.otp: the code on every open tab of the holder, and as a station message that masks it once it expires. */
  async function threeDs(tx: Tx, event: IssuerEvent) {
    const data = parse(threeDsData, event);
    const card = isUuid(data.card_id) ? await cards.lockForEvent(tx, data.card_id) : undefined;
    if (!card) return;
    const expiresAt = new Date(data.expires_at);
    const amount = fromMinorUnits(toMinorUnits(data.amount));
    const notice = (code: string) => cardNotices.threeDs({ card: cardName(card), merchant: data.merchant_name, amount, currency: data.currency, code, expiresAt });
    await messages.post(tx, {
      merchantId: card.merchantId,
      accountId: card.accountId,
      holderMemberId: card.holderMemberId,
      type: 'CARD_3DS',
      status: 'success',
      ...notice(data.code),
      expiring: { expiresAt, expiredContent: notice(maskedCode(data.code)).content },
    });
    const otp: ThreeDsOtp = {
      card_id: card.id,
      last4: card.last4,
      nickname: card.nickname,
      code: data.code,
      merchant_name: data.merchant_name,
      amount,
      currency: data.currency,
      expires_at: expiresAt.toISOString(),
    };
    // the code: to its holder and the roles that receive every card's messages, as its station message
    await events.toAccount(tx, card.merchantId, card.accountId, EVENT_TYPES.threeDs, otp, { audience: { holder: card.holderMemberId } });
    // only to endpoints that chose three_ds.code by name (it is never among the defaults)
    await webhooks?.emit(tx, { merchantId: card.merchantId, accountId: card.accountId, type: 'three_ds.code', cardId: card.id, data: { ...otp } });
  }

  return { threeDs };
}
