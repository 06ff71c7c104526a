import {
  BULK_ACTION_ROLE,
  BULK_MAX_CARDS,
  type BulkActionRequest,
  type BulkReview,
  bulkRechargeAmount,
  bulkRechargeCost,
} from '@portal/contract/card-bulk';
import { CardBatchErrorCode } from '@portal/contract/card-batches';
import type { Currency } from '@portal/contract/enums';
import { fromMinorUnits, toMinorUnits } from '@portal/contract/money';
import { can, holdsOwnCardsOnly, type Role } from '@portal/contract/team';
import { TeamErrorCode } from '@portal/contract/team-errors';
import type { Tx } from '../../db/engine.ts';
import { AppError } from '../../http/errors.ts';
import { permissionDenied } from '../../http/principal.ts';
import { checkBudget } from '../budgets/service.ts';
import { type CardRow, type CardScope, cardFeesOf, cardListWhere, isUuid } from '../cards/service.ts';
import type { BulkDeps } from './deps.ts';
import { accountCards, activeMemberOf, chosenCards, countCards, promisedTopUps } from './store.ts';

/** Who starts a bulk action: the member, their role, and so the cards they may act on. */
export interface BulkCaller {
  accountId: string;
  memberId: string;
  role: Role;
}

export const scopeOf = (caller: BulkCaller): CardScope =>
  holdsOwnCardsOnly(caller.role) ? { accountId: caller.accountId, heldBy: caller.memberId } : { accountId: caller.accountId };

/** One card as the review plans it: for RECHARGE its top-up and fee (minor units; 0 when it needs none). */
export interface PlannedCard {
  card: CardRow;
  amount: bigint;
  fee: bigint;
}

export interface Reviewed {
  cards: PlannedCard[];
  total: number;
  /** per currency: the cards money moves for, the amounts and fees; `back` when it comes back to the wallet */
  sums: Array<{ currency: Currency; cards: number; amount: bigint; fee: bigint; back: boolean }>;
}

const refused = (count: number, reason: string, cardIds: string[]) =>
  new AppError(CardBatchErrorCode.BULK_CARDS_REFUSED, { params: { count, reason }, data: { count, reason, card_ids: cardIds.slice(0, 100) } });

/**
 * The review of a bulk action, the same for its preview and its acceptance (inside `tx`): the role may
 * take the action; the cards are the caller's to act on (a refusal names how many are not, and why, and
 * nothing starts); at most 1,000; and for money the whole cost per currency against the wallet, with a
 * MEMBER's budget. Nothing is written.
 */
export async function reviewBulk(deps: Pick<BulkDeps, 'books' | 'clock'>, tx: Tx, merchantId: string, caller: BulkCaller, body: BulkActionRequest): Promise<Reviewed> {
  const needed = BULK_ACTION_ROLE[body.action];
  if (!can(caller.role, needed)) throw permissionDenied(needed);
  const scope = scopeOf(caller);
  let chosen: CardRow[];
  if (body.card_ids) {
    const ids = [...new Set(body.card_ids)];
    const found = await accountCards(tx, merchantId, caller.accountId, ids.filter(isUuid));
    const foundIds = new Set(found.map((card) => card.id));
    const missing = ids.filter((id) => !foundIds.has(id));
    if (missing.length > 0) throw refused(missing.length, '不存在或不属于本账户', missing);
    const others = scope.heldBy ? found.filter((card) => card.holderMemberId !== scope.heldBy) : [];
    if (others.length > 0) throw refused(others.length, '由其他成员持有，您只能操作自己持有的卡片', others.map((card) => card.id));
    const order = new Map(ids.map((id, index) => [id, index]));
    chosen = found.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  } else {
    const where = body.filter ? cardListWhere(merchantId, scope, body.filter) : undefined;
    const matched = where ? await countCards(tx, where) : 0;
    if (matched > BULK_MAX_CARDS) {
      throw new AppError(CardBatchErrorCode.BULK_TOO_MANY_CARDS, { params: { count: matched, max: BULK_MAX_CARDS }, data: { count: matched, max: BULK_MAX_CARDS } });
    }
    chosen = where ? await chosenCards(tx, where, BULK_MAX_CARDS) : [];
  }
  if (chosen.length === 0) throw new AppError(CardBatchErrorCode.BULK_NO_CARDS);
  if (body.action === 'SET_HOLDER' && !(await activeMemberOf(tx, caller.accountId, body.params.holder_member_id))) {
    throw new AppError(TeamErrorCode.HOLDER_INVALID);
  }

  const planned: PlannedCard[] = chosen.map((card) => ({ card, amount: 0n, fee: 0n }));
  const money = new Map<Currency, { cards: number; amount: bigint; fee: bigint; back: boolean }>();
  if (body.action === 'RECHARGE' || body.action === 'WITHDRAW' || body.action === 'CANCEL') {
    const balances = await deps.books.cardBalances(
      merchantId,
      chosen.map((card) => card.id),
      tx,
    );
    const available = (card: CardRow) => {
      const held = balances.get(card.id);
      return held ? held.balance - held.held : 0n;
    };
    if (body.action === 'RECHARGE') {
      const params = body.params;
      // each card's top-up at the fee terms it was opened under, as its own top-up will charge
      const cost = bulkRechargeCost(
        chosen.map((card) => ({
          currency: card.currency as Currency,
          product: cardFeesOf(card),
          amount: bulkRechargeAmount(params, available(card)),
        })),
      );
      for (const [index, each] of cost.each.entries()) Object.assign(planned[index] as PlannedCard, each);
      for (const [currency, sum] of cost.byCurrency) money.set(currency, { ...sum, back: false });
      if (holdsOwnCardsOnly(caller.role)) {
        for (const [currency, sum] of cost.byCurrency) {
          const promised = await promisedTopUps(tx, caller.accountId, caller.memberId, currency);
          await checkBudget(tx, caller.memberId, sum.amount + sum.fee, currency, deps.clock.now(), promised);
        }
      }
    } else {
      for (const card of chosen) {
        const on = available(card);
        const out = body.action === 'WITHDRAW' && 'amount' in body.params ? (on >= toMinorUnits(body.params.amount) ? toMinorUnits(body.params.amount) : 0n) : on;
        if (out <= 0n) continue;
        const currency = card.currency as Currency;
        const sum = money.get(currency) ?? { cards: 0, amount: 0n, fee: 0n, back: true };
        money.set(currency, { ...sum, cards: sum.cards + 1, amount: sum.amount + out });
      }
    }
  }
  const sums = [...money].map(([currency, sum]) => ({ currency, ...sum }));
  return { cards: planned, total: chosen.length, sums };
}

/**
 * The review as answered: the whole cost per currency and the wallet after it (read after the review's
 * transaction: the wallet's figures are the books' own read).
 */
export async function reviewAnswer(deps: Pick<BulkDeps, 'books'>, merchantId: string, caller: BulkCaller, action: BulkActionRequest['action'], reviewed: Reviewed): Promise<BulkReview> {
  const wallet = reviewed.sums.length > 0 ? (await deps.books.customerBalances(merchantId, caller.accountId)).balances : [];
  return {
    action,
    total: reviewed.total,
    money: reviewed.sums.map((sum) => {
      const availableNow = toMinorUnits(wallet.find((one) => one.currency === sum.currency)?.available ?? '0');
      const total = sum.amount + sum.fee;
      return {
        currency: sum.currency,
        cards: sum.cards,
        amount: fromMinorUnits(sum.amount),
        fee: fromMinorUnits(sum.fee),
        total: fromMinorUnits(total),
        wallet_available: fromMinorUnits(availableNow),
        wallet_after: fromMinorUnits(sum.back ? availableNow + total : availableNow - total),
      };
    }),
  };
}
