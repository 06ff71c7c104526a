import { EVENT_TYPES } from '@portal/contract/events';
import { fromMinorUnits } from '@portal/contract/money';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/engine.ts';
import type { Clock } from '../../lib/clock.ts';
import type { EventPublisher } from '../events/publisher.ts';
import { holdWithin, postHoldWithin, releaseHoldWithin } from './holds.ts';
import type { WebhookService } from '../webhooks/service.ts';
import { type Announce, type BalanceWatcher, runOperation, type StepOperation } from './movement.ts';
import type {
  CardTransferRequest,
  FeeRequest,
  HoldRequest,
  KeyedRequest,
  OperationResult,
  PostHoldRequest,
  ReleaseHoldRequest,
  ReverseRequest,
  TransferRequest,
  WalletAmountRequest,
} from './requests.ts';
import { reverseWithin } from './reversals.ts';
import { type BatchOutcome, transferBatch } from './batch.ts';
import { insertCardAccount, putWatch } from './account-store.ts';
import { readIdempotencyKey } from './idempotency-store.ts';
import { transferWithin } from './transfers.ts';
import { adjustOutRequest, deductRequest, feeRequest, fromCardRequest, rechargeRequest, toCardRequest } from './wallet-operations.ts';

/**
 * The ledger: every movement of money is one balanced set of postings in one database transaction
 * (README "Money"). Amounts are bigint minor units here, decimal strings in answers.
 *
 * `createLedgerService({ db, clock, events })` answers every operation, each in a transaction of its own,
 * and `within(tx)`, the same operations inside the caller's transaction (as a savepoint, so a
 * refusal undoes only that operation), for callers that change their own rows with it, such as
 * opening a card. A refusal throws an AppError and changes nothing. Every operation runs step by
 * step: claim the key, lock the customer's accounts in id order, check, write (movement.ts).
 */

/** The finisher that builds a BALANCE_CHANGED event per stream: the books' (registered with the hub by the app). */
export const BALANCE_FINISHER = 'ledger:balances';

/** The name of an operation's savepoint in a caller's transaction (the latest of that name is the one rolled back to). */
const SAVEPOINT = 'ledger_operation';

type Runner = <Q extends KeyedRequest>(operation: StepOperation<Q>) => (request: Q) => Promise<OperationResult>;

/** The operations, each run by `run`. */
function operations(run: Runner) {
  const transfer = run(transferWithin);
  return {
    /** any balanced set of lines, e.g. a card's spending to CARD_NETWORK */
    transfer,
    recharge: async (request: WalletAmountRequest) => transfer(rechargeRequest(request)),
    deduct: async (request: WalletAmountRequest) => transfer(deductRequest(request)),
    adjustOut: async (request: WalletAmountRequest) => transfer(adjustOutRequest(request)),
    /** OPEN_CARD or DECLINED_FEE, from the wallet to the merchant's fee income */
    chargeFee: async (request: FeeRequest) => transfer(feeRequest(request)),
    /** the amount to the card, plus its fee to fee income */
    transferToCard: async (request: CardTransferRequest) => transfer(toCardRequest(request)),
    transferFromCard: async (request: CardTransferRequest) => transfer(fromCardRequest(request)),
    holdFunds: run<HoldRequest>(holdWithin),
    /** the hold's money to where `to` names (card, fee income); the rest goes back to available */
    postHold: run<PostHoldRequest>(postHoldWithin),
    releaseHold: run<ReleaseHoldRequest>(releaseHoldWithin),
    reverse: run<ReverseRequest>(reverseWithin),
  };
}

export type LedgerOperations = ReturnType<typeof operations>;

/** The names of the operations, e.g. for wrapping each of them. */
export const LEDGER_OPERATIONS = [
  'transfer',
  'recharge',
  'deduct',
  'adjustOut',
  'chargeFee',
  'transferToCard',
  'transferFromCard',
  'holdFunds',
  'postHold',
  'releaseHold',
  'reverse',
] as const satisfies ReadonlyArray<keyof LedgerOperations>;

export function createLedgerService({ db, clock, events, webhooks }: { db: Db; clock: Clock; events: EventPublisher; webhooks?: Pick<WebhookService, 'emit'> }) {
  /**
   * The open portal tabs of an operation's customers hear what they hold now: the operation's write
   * statement sends the signal, so it goes out when the money has moved (for `within`, when the
   * caller's transaction commits) and never for a refusal or a replay, and costs no round trip of its own.
   */
  const announce: Announce = (merchantId, holderIds) =>
    holderIds.length > 0 ? events.accountsNotification(merchantId, holderIds, EVENT_TYPES.balance, {}, { finish: BALANCE_FINISHER }) : null;
  // who hears of watched balances (set once the services are built: the watcher reaches the cards)
  let watcher: BalanceWatcher | undefined;
  const watch: BalanceWatcher = async (tx, merchantId, changes) => {
    const inWatch = changes.filter((change) => !change.unwatched);
    if (watcher && inWatch.length > 0) await watcher(tx, merchantId, inWatch);
    // every wallet's change is an event for the account's webhooks, written with the movement
    for (const change of webhooks ? changes : []) {
      if (change.kind !== 'WALLET' || !webhooks) continue;
      await webhooks.emit(tx, {
        merchantId,
        accountId: change.holderId,
        type: 'wallet.balance_changed',
        data: { currency: change.currency, available_before: fromMinorUnits(change.before), available: fromMinorUnits(change.after) },
      });
    }
  };
  const inOwnTransaction: Runner = (operation) => (request) =>
    runOperation((work) => db.transaction(async (tx) => work(tx)), clock, operation, request, announce, true, watch);
  // a savepoint the operation rolls back to when it is refused or retried; one that succeeded is not
  // released: it ends with the caller's transaction, and that is a round trip less per operation
  const inSavepoint =
    (tx: Tx): Runner =>
    (operation) =>
    (request) =>
      runOperation(
        async (work) => {
          await tx.execute(sql.raw(`savepoint ${SAVEPOINT}`));
          try {
            return await work(tx);
          } catch (error) {
            await tx.execute(sql.raw(`rollback to savepoint ${SAVEPOINT}`));
            throw error;
          }
        },
        clock,
        operation,
        request,
        announce,
        true,
        watch,
      );

  // without a savepoint: nothing of a refused operation stays (the key it claimed is taken back), and
  // any other failure fails the caller's transaction (PostgreSQL takes no statement after one failed)
  const inCallersTransaction =
    (tx: Tx): Runner =>
    (operation) =>
    (request) =>
      runOperation((work) => work(tx), clock, operation, request, announce, false, watch);

  return {
    ...operations(inOwnTransaction),

    /**
     * The same operations inside the caller's transaction `tx`, each as a savepoint of it. With
     * `{ savepoint: false }`, without one (a round trip less): a refusal still changes nothing and the
     * caller's transaction goes on, but a database error (a deadlock among them) fails the caller's
     * whole transaction, which is then for its caller to run again: for work that is asked again when
     * it fails, as the issuer asks an authorisation again.
     */
    within: (tx: Tx, options: { savepoint?: boolean } = {}): LedgerOperations =>
      operations(options.savepoint === false ? inCallersTransaction(tx) : inSavepoint(tx)),

    /**
     * Many transfers of one merchant and currency inside the caller's transaction, in a few statements
     * whatever their count (batch.ts), each under its own key and with the rules of one; answers each
     * one's result or refusal, in the order given. No savepoint: a database error (a deadlock) fails the
     * caller's transaction, which is then for its caller to run again.
     */
    transferMany: (tx: Tx, requests: TransferRequest[]): Promise<BatchOutcome[]> => transferBatch(tx, clock, requests, { announce, watch }),

    /** ADMIN_RECHARGE_IN for each request, as `transferMany`. */
    rechargeMany: (tx: Tx, requests: WalletAmountRequest[]): Promise<BatchOutcome[]> => transferBatch(tx, clock, requests.map(rechargeRequest), { announce, watch }),

    /** Whether an operation under the key was done and kept its answer (a refused one kept none). */
    answered: async (merchantId: string, key: string) => (await readIdempotencyKey(db, merchantId, key)) !== undefined,

    /** Names who hears of watched balances (one watcher: the balance-rules module's). */
    watchBalances: (heard: BalanceWatcher) => {
      watcher = heard;
    },

    /**
     * Sets (or with `below` null drops) a watch of a holder's balances inside the caller's transaction:
     * `ownerId` null watches every account of the kind, `currency` null in any currency.
     */
    setWatch: putWatch,

    /** Opens the ledger account of a new card of customer `accountId`, inside the caller's transaction (that makes the card). */
    openCardAccount: (tx: Tx, card: { merchantId: string; accountId: string; cardId: string; currency: 'USD' | 'CNY' }) =>
      insertCardAccount(tx, card.merchantId, card.currency, card.cardId, card.accountId),
  };
}

export type LedgerService = ReturnType<typeof createLedgerService>;

export { CARD_NETWORK, cardAccountOf, MERCHANT_FEE_INCOME, MERCHANT_FUNDING, walletOf } from './accounts.ts';
export type { AccountRef } from './accounts.ts';
export type { BalanceWatcher, WatchedChange } from './movement.ts';
export type { BatchOutcome } from './batch.ts';
export type {
  AccountAfter,
  CardTransferRequest,
  FeeRequest,
  HoldRequest,
  Line,
  OperationAnswer,
  OperationResult,
  PostHoldRequest,
  ReleaseHoldRequest,
  ReverseRequest,
  TransferRequest,
  WalletAmountRequest,
} from './requests.ts';
export { MAX_AMOUNT } from './requests.ts';
