import { randomUUID } from 'node:crypto';
import { cardBulkCalls } from '@portal/contract/api/card-bulk';
import { CardBatchErrorCode } from '@portal/contract/card-batches';
import {
  BULK_ACTION_LABELS,
  BULK_SETTINGS_ACTIONS,
  bulkSettingsClosed,
  type BulkAction,
  type BulkActionAnswer,
  type BulkActionRequest,
  type BulkItemState,
  type BulkProgressEvent,
  type BulkStatus,
  bulkItemStatusOf,
  bulkRechargeAmount,
} from '@portal/contract/card-bulk';
import { cardTagRules } from '@portal/contract/cards';
import type { CardStatus, Currency } from '@portal/contract/enums';
import { ErrorCode } from '@portal/contract/errors';
import { EVENT_TYPES } from '@portal/contract/events';
import { fromMinorUnits } from '@portal/contract/money';
import { CardErrorCode } from '@portal/contract/card-errors';
import type { Tx } from '../../db/engine.ts';
import { traceWithin } from '../../http/call-trace.ts';
import { AppError } from '../../http/errors.ts';
import { fingerprintOf, onceUnderKey } from '../../lib/keyed-call.ts';
import { findOwnCard, isUuid } from '../cards/service.ts';
import type { BulkDeps, BulkOptions } from './deps.ts';
import { type BulkCaller, reviewAnswer, reviewBulk, scopeOf } from './review.ts';
import {
  activeItemHolds,
  type BulkRow,
  type ClaimedItem,
  claimItem,
  countEnded,
  endItem,
  putBack,
  findBulk,
  findBulkByKey,
  findOwnBulk,
  holdActive,
  insertBulk,
  insertItems,
  itemsOf,
  lockBulk,
  openItems,
  setTags,
  updateBulk,
} from './store.ts';

export type { BulkCaller } from './review.ts';
export type { BulkDeps, BulkOptions } from './deps.ts';

/** The queue whose jobs act on the cards of one bulk action each (several jobs per action share its cards). */
export const BULK_QUEUE = 'card-bulk-action';

/** The ledger's key of a bulk top-up's hold (per currency), each card's move and a hold given back. */
const holdKey = (bulkId: string, currency: string) => `bulk:${bulkId}:hold:${currency}`;
export const bulkItemKey = (bulkId: string, cardId: string) => `bulk:${bulkId}:${cardId}`;
const releaseKey = (bulkId: string, cardId: string) => `bulk:${bulkId}:${cardId}:release`;

/** The statuses a card is in once a status action reached it (asked of the issuer, or answered). */
const reached: Partial<Record<BulkAction, readonly CardStatus[]>> = {
  FREEZE: ['FREEZING', 'FREEZE'],
  UNFREEZE: ['UNFREEZING', 'NORMAL'],
  CANCEL: ['DELETING', 'DELETE'],
};

/** What ended a card that failed for a reason no rule gives (after as many tries). */
const UNEXPECTED_REASON = '操作未能完成，请稍后单独处理此卡';
const MAX_ATTEMPTS = 3;

type Outcome = { state: 'SUCCEEDED'; reason: null } | { state: 'FAILED'; reason: string } | { state: 'AGAIN'; error: unknown };
const succeeded: Outcome = { state: 'SUCCEEDED', reason: null };
const failedWith = (error: AppError): Outcome => ({ state: 'FAILED', reason: error.message });

/**
 * Bulk actions (POST /card/bulk-actions): up to 1,000 cards at once, chosen by id or by the card list's
 * filter. Accepting one is one transaction: the review (review.ts: the role, the cards, the cost), for a
 * top-up the whole cost held on the wallet (one hold per card, as a batch opening's), the action and an
 * item per card, and the jobs that act on them. Each job's worker claims one item at a time with a lease
 * (SKIP LOCKED: two processes share the cards, never one card), acts on the card through the one-card
 * service, and ends the item with its result; an item whose worker died is claimed again once its lease
 * runs out, and what was done already (its ledger key answered, the card already where the action takes
 * it) counts as done rather than being done twice. The last card ends the action: any hold still
 * unused goes back to the wallet, and the member who started it gets one message with the counts.
 */
export function createBulkService(deps: BulkDeps, options: BulkOptions) {
  const { db, clock, ledger, cards, jobs, events } = deps;

  const conflict = () => new AppError(ErrorCode.IDEMPOTENCY_CONFLICT);

  const announce = (tx: Tx, bulk: BulkRow) => {
    const payload: BulkProgressEvent = {
      bulk_id: bulk.id,
      action: bulk.action as BulkAction,
      status: bulk.status as BulkStatus,
      total: bulk.total,
      succeeded: bulk.succeeded,
      failed: bulk.failed,
    };
    return events.toAccount(tx, bulk.merchantId, bulk.accountId, EVENT_TYPES.bulkProgress, { ...payload }, { audience: { card: bulk.heldBy ?? bulk.accountId } });
  };

  /** Acts on one card; a refusal by the card's rules is the card's failure, with the catalogue's words. */
  async function actOn(bulk: BulkRow, item: ClaimedItem): Promise<Outcome> {
    const scope = { accountId: bulk.accountId, heldBy: bulk.heldBy ?? undefined };
    const action = bulk.action as BulkAction;
    const params = bulk.params as Record<string, unknown>;
    const key = bulkItemKey(bulk.id, item.cardId);
    const again = item.attempts > 1;
    const current = async () => {
      const card = await findOwnCard(db, bulk.merchantId, scope, item.cardId);
      if (!card) throw new AppError(CardErrorCode.CARD_NOT_FOUND);
      return card;
    };
    try {
      if (BULK_SETTINGS_ACTIONS.includes(action) && bulkSettingsClosed((await current()).status as CardStatus)) {
        throw new AppError(CardBatchErrorCode.BULK_CARD_ENDED);
      }
      switch (action) {
        case 'FREEZE':
        case 'UNFREEZE':
        case 'CANCEL': {
          if (again && reached[action]?.includes((await current()).status as CardStatus)) return succeeded;
          if (action === 'CANCEL') await cards.remove(bulk.merchantId, scope, item.cardId, async () => {});
          else await cards.changeStatus(bulk.merchantId, scope, item.cardId, action);
          return succeeded;
        }
        case 'RECHARGE': {
          if (again && (await cards.answeredUnderKey(bulk.merchantId, bulk.accountId, 'recharge', key))) return succeeded;
          const card = await current();
          const held = (await deps.books.cardBalances(bulk.merchantId, [card.id])).get(card.id);
          const wanted = bulkRechargeAmount(params as { amount: string } | { target_balance: string }, held ? held.balance - held.held : 0n);
          const planned = item.amount ?? 0n;
          const amount = wanted < planned ? wanted : planned;
          if (amount <= 0n || !item.holdId) throw new AppError(CardBatchErrorCode.BULK_TARGET_REACHED);
          await cards.recharge(bulk.merchantId, scope, item.cardId, fromMinorUnits(amount), key, { holdId: item.holdId });
          return succeeded;
        }
        case 'WITHDRAW': {
          if (again && (await cards.answeredUnderKey(bulk.merchantId, bulk.accountId, 'withdraw', key))) return succeeded;
          let amount = typeof params.amount === 'string' ? params.amount : undefined;
          if (amount === undefined) {
            const held = (await deps.books.cardBalances(bulk.merchantId, [item.cardId])).get(item.cardId);
            const available = held ? held.balance - held.held : 0n;
            if (available <= 0n) {
              await current();
              throw new AppError(CardBatchErrorCode.BULK_NOTHING_TO_WITHDRAW);
            }
            amount = fromMinorUnits(available);
          }
          await cards.withdraw(bulk.merchantId, scope, item.cardId, amount, key);
          return succeeded;
        }
        case 'SET_CONTROLS':
          await deps.spending.saveControls(bulk.merchantId, scope, item.cardId, params as never);
          return succeeded;
        case 'SET_HOLDER':
          await deps.team.giveCard(bulk.merchantId, bulk.accountId, item.cardId, String(params.holder_member_id));
          return succeeded;
        case 'SET_AUTO_RECHARGE': {
          const rule = params as { enabled: false } | { enabled: boolean; threshold: string; target: string; daily_max: string };
          if ('threshold' in rule) await deps.rules.setRule(bulk.merchantId, scope, item.cardId, rule);
          else await deps.rules.switchOff(bulk.merchantId, scope, item.cardId);
          return succeeded;
        }
        case 'ADD_TAGS':
        case 'REMOVE_TAGS': {
          const asked = (params.tags as string[]).map((tag) => tag.trim());
          await db.transaction(async (tx) => {
            const card = await findOwnCard(tx, bulk.merchantId, scope, item.cardId, { lock: true });
            if (!card) throw new AppError(CardErrorCode.CARD_NOT_FOUND);
            const tags = action === 'ADD_TAGS' ? [...new Set([...card.tags, ...asked])] : card.tags.filter((tag) => !asked.includes(tag));
            if (tags.length > cardTagRules.perCard) {
              throw new AppError(CardBatchErrorCode.BULK_TAGS_FULL, { params: { max: cardTagRules.perCard }, data: { max: cardTagRules.perCard } });
            }
            await deps.rules.tagsChanged(tx, await setTags(tx, card.id, tags, clock.now()));
          });
          return succeeded;
        }
      }
    } catch (error) {
      if (error instanceof AppError) return failedWith(error);
      if (item.attempts >= MAX_ATTEMPTS) return { state: 'FAILED', reason: UNEXPECTED_REASON };
      // the card is tried again (by whichever worker claims it next), never the whole job failed for it:
      // a job that failed card after card would run out of retries and leave the action, and its holds, open
      return { state: 'AGAIN', error };
    }
  }

  /**
   * The card's result, once, and the action's counts; a failed top-up's hold goes back to the wallet with
   * it. Only the worker whose claim is the item's latest ends it: one whose lease ran out while it acted
   * finds the item claimed again and changes nothing.
   */
  async function settle(bulk: BulkRow, item: ClaimedItem, outcome: Outcome) {
    if (outcome.state === 'AGAIN') {
      await putBack(db, bulk.id, item.cardId, item.attempts);
      return;
    }
    await db.transaction(async (tx) => {
      if (!(await endItem(tx, bulk.id, item.cardId, item.attempts, outcome.state, outcome.reason, clock.now()))) return;
      if (outcome.state === 'FAILED' && item.holdId && (await holdActive(tx, item.holdId))) {
        await ledger.within(tx).releaseHold({ merchantId: bulk.merchantId, holdId: item.holdId, key: releaseKey(bulk.id, item.cardId) });
      }
      await announce(tx, await countEnded(tx, bulk.id, outcome.state));
    });
  }

  /** Ends the action once no card is left: unused holds released, the starter told. */
  async function finish(bulkId: string) {
    await db.transaction(async (tx) => {
      const bulk = await lockBulk(tx, bulkId);
      if (!bulk || bulk.status === 'DONE') return;
      if ((await openItems(tx, bulkId)).open > 0) return;
      for (const hold of await activeItemHolds(tx, bulkId)) {
        await ledger.within(tx).releaseHold({ merchantId: bulk.merchantId, holdId: hold.holdId, key: releaseKey(bulkId, hold.cardId) });
      }
      const done = await updateBulk(tx, bulkId, { status: 'DONE', finishedAt: clock.now() });
      if (!done) return;
      const label = BULK_ACTION_LABELS[done.action as BulkAction];
      await deps.messages.post(tx, {
        merchantId: done.merchantId,
        accountId: done.accountId,
        memberId: done.memberId,
        type: 'BULK_ACTION_RESULT',
        status: done.failed > 0 ? 'fail' : 'success',
        title: `批量${label}完成：成功 ${done.succeeded} 张，失败 ${done.failed} 张`,
        content:
          `<p>您提交的批量${label}（共 ${done.total} 张卡片）已处理完毕：成功 ${done.succeeded} 张，失败 ${done.failed} 张。</p>` +
          (done.failed > 0 ? '<p>失败的卡片及原因可在卡片列表的批量操作结果中查看。</p>' : ''),
      });
      await announce(tx, done);
      await deps.webhooks?.emit(tx, {
        merchantId: done.merchantId,
        accountId: done.accountId,
        type: 'bulk_action.finished',
        data: { bulk_action_id: done.id, action: done.action, total: done.total, succeeded: done.succeeded, failed: done.failed },
      });
    });
  }

  /** One worker of a bulk action: claims cards until none is left, waiting out cards another worker holds. */
  async function work(data: { bulk_id: string }) {
    const first = await findBulk(db, data.bulk_id);
    if (!first || first.status === 'DONE') return;
    if (first.status === 'PENDING') {
      await db.transaction(async (tx) => {
        const running = await updateBulk(tx, first.id, { status: 'RUNNING' }, { status: 'PENDING' });
        if (running) await announce(tx, running);
      });
    }
    const bulk = { ...first, status: 'RUNNING' };
    for (;;) {
      const now = clock.now();
      const item = await claimItem(db, bulk.id, now, new Date(now.getTime() + options.leaseSeconds * 1000));
      if (item) {
        const outcome = await actOn(bulk, item);
        if (outcome.state === 'AGAIN') deps.log.warn({ err: outcome.error, bulk_id: bulk.id, card_id: item.cardId, attempt: item.attempts }, 'a bulk action could not act on a card; it is tried again');
        await settle(bulk, item, outcome);
        continue;
      }
      const { open, soonest } = await openItems(db, bulk.id);
      if (open === 0) break;
      // cards another worker holds: it ends them, or its lease runs out and this one takes them
      const wait = soonest ? Math.min(Math.max(soonest.getTime() - clock.now().getTime(), 50), 1000) : 200;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
    await finish(bulk.id);
  }

  // a process given no workers serves the calls only: another process works the actions it accepts
  jobs.work<{ bulk_id: string }>(BULK_QUEUE, work, { concurrency: options.workers, retryLimit: 10, retryDelay: 2, expireInSeconds: 3600 });

  const underKey = async (tx: Tx, accountId: string, key: string) => {
    const bulk = await findBulkByKey(tx, accountId, key);
    return bulk && { fingerprint: bulk.fingerprint, answer: { id: bulk.id } };
  };

  async function accept(merchantId: string, caller: BulkCaller, body: BulkActionRequest, key: string, fingerprint: string) {
    return db.transaction(async (tx) => {
      const { cards: planned } = await reviewBulk(deps, tx, merchantId, caller, body);
      const id = randomUUID();
      const now = clock.now();
      const scope = scopeOf(caller);
      // the key first: a second request under it waits here for the first to commit, then is answered its
      // id, rather than meeting the wallet the first one just held and being refused for funds
      const bulk = await insertBulk(tx, {
        id,
        merchantId,
        accountId: caller.accountId,
        memberId: caller.memberId,
        heldBy: scope.heldBy ?? null,
        action: body.action,
        params: (body.params ?? {}) as Record<string, unknown>,
        status: 'PENDING',
        total: planned.length,
        requestKey: key,
        fingerprint,
        createdAt: now,
      });
      const holdIds = new Map<string, string>();
      if (body.action === 'RECHARGE') {
        const byCurrency = new Map<Currency, typeof planned>();
        for (const one of planned) {
          if (one.amount <= 0n) continue;
          const currency = one.card.currency as Currency;
          byCurrency.set(currency, [...(byCurrency.get(currency) ?? []), one]);
        }
        for (const [currency, group] of byCurrency) {
          const parts = group.map((one) => one.amount + one.fee);
          // the whole cost at once, a hold per card: a refusal (too little, a frozen wallet) holds nothing and starts nothing
          const held = await ledger.within(tx).holdFunds({
            merchantId,
            accountId: caller.accountId,
            currency,
            amount: parts.reduce((sum, part) => sum + part, 0n),
            parts,
            key: holdKey(id, currency),
            reference: `bulk:${id}`,
            memo: `批量充值 ${group.length} 张`,
          });
          const ids = held.answer.holdIds ?? [];
          for (const [index, one] of group.entries()) holdIds.set(one.card.id, ids[index] as string);
        }
      }
      await insertItems(
        tx,
        planned.map((one, position) => ({
          bulkId: id,
          cardId: one.card.id,
          position,
          state: 'PENDING' satisfies BulkItemState,
          amount: body.action === 'RECHARGE' ? one.amount : null,
          holdId: holdIds.get(one.card.id) ?? null,
        })),
      );
      const workers = Math.max(1, Math.min(Math.max(options.workers, 1), Math.ceil(planned.length / 25)));
      await jobs.sendMany(
        BULK_QUEUE,
        Array.from({ length: workers }, () => ({ data: { bulk_id: id } })),
        { tx },
      );
      await announce(tx, bulk);
      await traceWithin(tx, cardBulkCalls.create, { id, action: body.action, total: planned.length });
      return { id };
    });
  }

  return {
    /** POST /card/bulk-actions/review: what the action would do and cost; nothing moves. */
    async review(merchantId: string, caller: BulkCaller, body: BulkActionRequest) {
      const reviewed = await db.transaction((tx) => reviewBulk(deps, tx, merchantId, caller, body));
      return reviewAnswer(deps, merchantId, caller, body.action, reviewed);
    },

    /** Whether the account's bulk action under its Idempotency-Key was accepted (a refused one left nothing). */
    async answeredUnderKey(accountId: string, key: string) {
      return (await findBulkByKey(db, accountId, key)) !== undefined;
    },

    /** POST /card/bulk-actions: accepted whole, or refused whole; the same key answers the same id and starts nothing. */
    async create(merchantId: string, caller: BulkCaller, body: BulkActionRequest, key: string) {
      const { trx_password: _password, ...asked } = body;
      const fingerprint = fingerprintOf(['bulk', asked]);
      return onceUnderKey({
        fingerprint,
        earlier: () => underKey(db, caller.accountId, key),
        conflict,
        work: () => accept(merchantId, caller, body, key, fingerprint),
      });
    },

    /** GET /card/bulk-actions/{id}: the account's (a MEMBER: their own) bulk action and each card's result. */
    async status(merchantId: string, caller: BulkCaller, id: string): Promise<BulkActionAnswer> {
      const scope = scopeOf(caller);
      const bulk = isUuid(id) ? await findOwnBulk(db, merchantId, caller.accountId, id, scope.heldBy ? caller.memberId : undefined) : undefined;
      if (!bulk) throw new AppError(CardBatchErrorCode.BULK_NOT_FOUND);
      const items = await itemsOf(db, bulk.id);
      return {
        id: bulk.id,
        action: bulk.action as BulkAction,
        status: bulk.status as BulkStatus,
        total: bulk.total,
        succeeded: bulk.succeeded,
        failed: bulk.failed,
        items: items.map((item) => ({ card_id: item.cardId, status: bulkItemStatusOf(item.state as BulkItemState), reason: item.reason })),
      };
    },
  };
}

export type BulkService = ReturnType<typeof createBulkService>;
