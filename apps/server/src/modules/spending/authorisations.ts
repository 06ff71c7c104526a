import {
  categoriesOfMcc,
  chinaDayStart,
  chinaMonthStart,
  type DeclineCode,
  declineReasons,
} from '@portal/contract/card-spending';
import type { Currency } from '@portal/contract/enums';
import { ErrorCode } from '@portal/contract/errors';
import { fromMinorUnits, toMinorUnits } from '@portal/contract/money';
import type { Tx } from '../../db/engine.ts';
import { authorizationRequestData } from '../../providers/issuer/protocol.ts';
import type { EventRecord, IssuerEvent, IssuerReply } from '../issuer/service.ts';
import { type CardRow, cardName, cardNotices, isUuid } from '../cards/service.ts';
import { cardAccountOf } from '../ledger/service.ts';
import type { SpendingDeps } from './deps.ts';
import { isRefusal, parse, spendingKeys } from './keys.ts';
import type { moneyTakenPart } from './money-taken.ts';
import { signalOf, tellWebhooks } from './row-signal.ts';
import { type CardTransactionRow, type ControlsRow, findAuthorization, insertSpending, lockCardForAuthorization, spentSince } from './store.ts';

/** The answer for a card that is not ours. */
const notOurs: IssuerReply = { reply: { approved: false, decline_code: 'ISSUER_DECLINED' satisfies DeclineCode } };

const replyOf = (row: Pick<CardTransactionRow, 'declineCode'>): IssuerReply => ({
  reply: row.declineCode ? { approved: false, decline_code: row.declineCode } : { approved: true },
});

/**
 * Authorisations (shared/design/cards.md "Spending"): decided on our books and answered in the webhook's
 * response, in the webhook's transaction with the card's row locked, so a card's authorisations are
 * decided one at a time and never spend the same money twice.
 */
export function authorisationsPart(deps: Pick<SpendingDeps, 'clock' | 'ledger' | 'events' | 'webhooks' | 'messages'>, taken: Pick<ReturnType<typeof moneyTakenPart>, 'chargeDeclineFee'>) {
  const { clock, ledger, messages } = deps;
  const { chargeDeclineFee } = taken;

  /** Why the card may not pay this now, from its status, currency and controls; null: it may (if it holds enough). */
  async function declineOf(
    tx: Tx,
    card: CardRow,
    controls: ControlsRow | null,
    request: { amount: bigint; currency: string; mcc: string; country: string },
  ): Promise<DeclineCode | null> {
    if (card.status === 'DELETE' || card.status === 'DELETING') return 'CARD_CLOSED';
    if (card.status === 'FREEZE' || card.status === 'FREEZING' || card.status === 'UNFREEZING') return 'CARD_FROZEN';
    if (card.status !== 'NORMAL') return 'ISSUER_DECLINED';
    if (request.currency !== card.currency) return 'CURRENCY_MISMATCH';
    if (!controls) return null;
    if (controls.singleLimit !== null && request.amount > controls.singleLimit) return 'OVER_SINGLE_LIMIT';
    const blocked = new Set(controls.blockedCategories);
    if (categoriesOfMcc(request.mcc).some((category) => blocked.has(category))) return 'CATEGORY_BLOCKED';
    if (controls.allowedCountries.length > 0 && !controls.allowedCountries.includes(request.country)) return 'COUNTRY_BLOCKED';
    const now = clock.now();
    if (controls.dailyLimit !== null && (await spentSince(tx, card.id, chinaDayStart(now))) + request.amount > controls.dailyLimit) return 'OVER_DAILY_LIMIT';
    if (controls.monthlyLimit !== null && (await spentSince(tx, card.id, chinaMonthStart(now))) + request.amount > controls.monthlyLimit) return 'OVER_MONTHLY_LIMIT';
    return null;
  }

  /**
   * authorization.request: approve (the amount held on the card, PENDING) or decline (FAIL, with its
   * reason, a message and the fee); its event id recorded in the statement that locks the card.
   */
  async function authorize(tx: Tx, event: IssuerEvent, record: EventRecord): Promise<IssuerReply | null> {
    const request = parse(authorizationRequestData, event);
    // not a card id of ours: declined, whether the event id is new or not
    if (!isUuid(request.card_id)) return (await record.alone(tx)) ? notOurs : null;
    const locked = await lockCardForAuthorization(tx, request.card_id, request.id, record);
    if (!locked) return notOurs;
    const { card, controls, earlier, first } = locked;
    // the event id again: answered as it was the first time (repeatAuthorization)
    if (!first) return null;
    // the same authorisation again under another event id: the decision made then
    if (earlier) return replyOf(earlier);

    const amount = toMinorUnits(request.amount);
    const now = clock.now();
    const base = {
      merchantId: card.merchantId,
      cardId: card.id,
      accountId: card.accountId,
      type: 'CONSUME',
      amount,
      authorizedAmount: amount,
      currency: card.currency,
      merchantName: request.merchant_name,
      mcc: request.mcc,
      country: request.country,
      authorizationId: request.id,
      createdAt: now,
    };
    let code = await declineOf(tx, card, controls, { amount, currency: request.currency, mcc: request.mcc, country: request.country });
    if (code === null) {
      try {
        // no savepoint: a refusal (not enough on the card) leaves nothing, and anything else fails the
        // whole authorisation, which the issuer then asks again
        const held = await ledger.within(tx, { savepoint: false }).holdFunds({
          merchantId: card.merchantId,
          accountId: card.accountId,
          account: cardAccountOf(card.id, card.accountId),
          currency: card.currency as Currency,
          amount,
          key: spendingKeys.hold(card.id, request.id),
          reference: `card:${card.id}`,
        });
        const row = await insertSpending(tx, { ...base, status: 'PENDING', holdId: held.answer.holdId }, signalOf(deps, card));
        await tellWebhooks(deps, tx, card, row, true);
        return replyOf(row);
      } catch (error) {
        if (!isRefusal(error, ErrorCode.CARD_BALANCE_INSUFFICIENT)) throw error;
        code = 'INSUFFICIENT_FUNDS';
      }
    }
    const { reason, fix } = declineReasons[code];
    const row = await insertSpending(tx, { ...base, status: 'FAIL', declineCode: code, declineReason: reason }, signalOf(deps, card));
    await tellWebhooks(deps, tx, card, row, true);
    const { fee, owed } = await chargeDeclineFee(tx, card, request.id);
    await messages.post(tx, {
      merchantId: card.merchantId,
      accountId: card.accountId,
      holderMemberId: card.holderMemberId,
      type: 'CARD_DECLINED',
      status: 'fail',
      ...cardNotices.declined({
        card: cardName(card),
        merchant: request.merchant_name,
        amount: fromMinorUnits(amount),
        currency: request.currency,
        reason,
        fix,
        fee: fee > 0n ? fromMinorUnits(fee) : null,
        owed: owed > 0n ? fromMinorUnits(owed) : null,
        feeCurrency: card.currency,
      }),
    });
    return replyOf(row);
  }

  /** The same authorization.request again (its event id repeated): the decision it was answered, from its row. */
  async function repeatAuthorization(tx: Tx, event: IssuerEvent): Promise<IssuerReply> {
    const request = parse(authorizationRequestData, event);
    const row = isUuid(request.card_id) ? await findAuthorization(tx, request.card_id, request.id) : undefined;
    // no row: the card was not ours, and that is declined again
    return row ? replyOf(row) : notOurs;
  }

  return { authorize, repeatAuthorization };
}
