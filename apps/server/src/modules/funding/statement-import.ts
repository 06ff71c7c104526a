import { randomUUID } from 'node:crypto';
import type { Currency } from '@portal/contract/enums';
import { FundingErrorCode } from '@portal/contract/funding-errors';
import { fromMinorUnits } from '@portal/contract/money';
import type { Tx } from '../../db/engine.ts';
import { AppError } from '../../http/errors.ts';
import { houseShardFor } from '../ledger/accounts.ts';
import { type CreditDeps, depositCredited } from './credit.ts';
import { depositNotices } from './notices.ts';
import { readStatement, type StatementLine } from './statement.ts';
import {
  accountsByReference,
  bankNoticesFor,
  type DepositRow,
  insertCreditedDeposits,
  insertStatementLines,
  lineForUpdate,
  settleLines,
  settleNotices,
  statementLinesOf,
} from './store.ts';

/** An unmatched line to credit to the account an operator names (by its reference). */
export interface CreditLineRequest {
  merchantId: string;
  bankTxnId: string;
  account: { accountId: string; reference: string };
  currency?: Currency;
  by: string;
}

/** One statement line's outcome of an import. */
export type LineOutcome =
  | { outcome: 'credited'; line: StatementLine; depositId: string; accountId: string; reference: string; collected: bigint }
  | { outcome: 'already'; line: StatementLine; status: string }
  | { outcome: 'claimed'; line: StatementLine; depositId: string; reference: string }
  | { outcome: 'unmatched'; line: StatementLine; why: string }
  | { outcome: 'failed'; line: StatementLine; problem: string; refusal?: AppError };

/** Lines imported in one database transaction: a crash undoes at most this many, which a new import then does. */
const IMPORT_CHUNK = 500;

/** A Chinese day's start, for a statement line that gives the day only. */
const chinaDay = (date: string) => new Date(`${date}T00:00:00+08:00`);

/** A deadlock or a serialisation failure ended the chunk's transaction: it is run again whole. */
const isRetryable = (error: unknown) => {
  for (let at = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; at && depth < 5; depth++) {
    if (at.code === '40P01' || at.code === '40001') return true;
    at = at.cause as typeof at;
  }
  return false;
};

/** A recorded line to credit to an account: the line as read, its row, and the account with its reference. */
interface ToCredit {
  line: StatementLine;
  row: { id: string };
  owner: { accountId: string; reference: string };
  /** an operator's credit of an unmatched line: who */
  by?: string;
}

/**
 * Bank statements (growing-customers.md §3): each line recorded once per bank id, and each line that
 * names one account's reference credited once under the key `bank:<bank_txn_id>`. A chunk of lines is
 * one transaction written set-wise: the lines recorded in one statement (those seen before go no
 * further), the notices they answer locked in one, every credit one transfer of the ledger's batch
 * (ledger.rechargeMany), what the accounts owe collected by spending's batch, and the deposits, the
 * lines' fate and the station messages written in a few multi-row statements.
 */
export function statementPart(deps: CreditDeps & { importWorkers?: number }) {
  const { db, clock, ledger, spending, messages } = deps;

  /** Credits recorded lines inside `tx`: each the oldest pending notice of its account and amount, or claims one credited by hand, or a new top-up. */
  async function creditLines(tx: Tx, merchantId: string, currency: Currency, items: ToCredit[]): Promise<LineOutcome[]> {
    const notices = await bankNoticesFor(tx, merchantId, currency, items.map((item) => ({ accountId: item.owner.accountId, amount: item.line.amount })));
    const queue = (status: string) => {
      const byPair = new Map<string, DepositRow[]>();
      for (const row of notices.filter((notice) => notice.status === status)) byPair.set(`${row.accountId}:${row.amount}`, [...(byPair.get(`${row.accountId}:${row.amount}`) ?? []), row]);
      return byPair;
    };
    const [pending, handCredited] = [queue('PENDING'), queue('CREDITED')];
    const now = clock.now();
    const plans = items.map((item) => {
      const pair = `${item.owner.accountId}:${item.line.amount}`;
      const notice = pending.get(pair)?.shift();
      if (notice) return { item, deposit: notice, isNew: false, claim: false };
      // the same transfer credited by hand from its notice before the statement came: the line claims that notice, and nothing moves again
      const done = handCredited.get(pair)?.shift();
      if (done) return { item, deposit: done, isNew: false, claim: true };
      const deposit = { id: randomUUID(), merchantId, accountId: item.owner.accountId, payerName: item.line.payer } as DepositRow;
      return { item, deposit, isNew: true, claim: false };
    });
    const credits = plans.filter((plan) => !plan.claim);
    const moved = await ledger.rechargeMany(
      tx,
      credits.map(({ item, deposit }) => ({
        merchantId,
        accountId: item.owner.accountId,
        currency,
        amount: item.line.amount,
        key: `bank:${item.line.bankTxnId}`,
        reference: `deposit:${deposit.id}`,
        memo: `银行转账充值（付款人：${deposit.payerName}）`,
      })),
    );
    const fresh = credits.flatMap((plan, n) => (moved[n]?.result && !moved[n].result.replayed ? [{ plan, n }] : []));
    const collected = await spending.collectOwedMany(
      tx,
      fresh.map(({ plan }) => ({ merchantId, accountId: plan.item.owner.accountId, currency, cameIn: plan.item.line.amount })),
    );
    const collectedOf = new Map(fresh.map(({ n }, at) => [n, collected[at] ?? 0n]));
    const outcomes = new Map<ToCredit, LineOutcome>();
    const done = credits.flatMap((plan, n) => {
      const outcome = moved[n];
      if (outcome?.refused) {
        // a refusal (the ledger's) leaves the line recorded, unmatched, for a person
        outcomes.set(plan.item, { outcome: 'failed', line: plan.item.line, problem: outcome.refused.message, refusal: outcome.refused });
        return [];
      }
      const transactionId = outcome?.result?.answer.transactionId ?? null;
      outcomes.set(plan.item, { outcome: 'credited', line: plan.item.line, depositId: plan.deposit.id, accountId: plan.item.owner.accountId, reference: plan.item.owner.reference, collected: collectedOf.get(n) ?? 0n });
      return [{ ...plan, transactionId }];
    });
    await insertCreditedDeposits(
      tx,
      done
        .filter((plan) => plan.isNew)
        .map(({ item, deposit, transactionId }) => ({
          id: deposit.id,
          merchantId,
          accountId: item.owner.accountId,
          currency,
          amount: item.line.amount,
          payerName: item.line.payer,
          transferredAt: chinaDay(item.line.date),
          ledgerTransactionId: transactionId,
          bankTxnId: item.line.bankTxnId,
          decidedAt: now,
        })),
    );
    const claims = plans.filter((plan) => plan.claim);
    for (const plan of claims) outcomes.set(plan.item, { outcome: 'claimed', line: plan.item.line, depositId: plan.deposit.id, reference: plan.item.owner.reference });
    await settleNotices(tx, [
      ...done.filter((plan) => !plan.isNew).map(({ item, deposit, transactionId }) => ({ id: deposit.id, bankTxnId: item.line.bankTxnId, credit: { amount: item.line.amount, ledgerTransactionId: transactionId, at: now } })),
      ...claims.map(({ item, deposit }) => ({ id: deposit.id, bankTxnId: item.line.bankTxnId, credit: null })),
    ]);
    await settleLines(
      tx,
      plans.map(({ item, deposit }) => {
        const credited = outcomes.get(item)?.outcome !== 'failed';
        return { id: item.row.id, depositId: credited ? deposit.id : null, status: credited ? 'MATCHED' : 'UNMATCHED', ...(item.by && credited ? { creditedBy: item.by, creditedAt: now } : {}) };
      }),
    );
    await messages.postMany(
      tx,
      done.map(({ item, deposit }) => ({
        merchantId,
        accountId: item.owner.accountId,
        type: 'DEPOSIT_CREDITED',
        status: 'success',
        ...depositNotices.credited({ amount: fromMinorUnits(item.line.amount), currency, payer: deposit.payerName }),
      })),
    );
    for (const { item, deposit } of done) {
      await depositCredited(deps, tx, { id: deposit.id, merchantId, accountId: item.owner.accountId, currency, amount: item.line.amount, creditedAmount: item.line.amount, payerName: deposit.payerName });
    }
    return items.map((item) => outcomes.get(item) as LineOutcome);
  }

  /** Runs a chunk's transaction, again (whole) after a deadlock with another import or a concurrent movement. */
  async function inTransaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await db.transaction(work);
      } catch (error) {
        if (attempt >= 4 || !isRetryable(error)) throw error;
      }
    }
  }

  /** One chunk of a statement in one transaction: its lines recorded at once (a bank id seen before is 已导入 and goes no further), the new ones that name one account credited together. */
  function importChunk(merchantId: string, currency: Currency, chunk: StatementLine[], ownerOf: (line: StatementLine) => { accountId: string; reference: string } | undefined, named: (line: StatementLine) => number) {
    return inTransaction(async (tx) => {
      const stored = await insertStatementLines(
        tx,
        merchantId,
        chunk.map((line) => ({
          bankTxnId: line.bankTxnId,
          bookedOn: line.date,
          currency: line.currency,
          amount: line.amount,
          payer: line.payer,
          memo: line.memo,
          status: ownerOf(line) ? 'MATCHED' : 'UNMATCHED',
        })),
      );
      const fresh = new Map(stored.map((row) => [row.bankTxnId, row]));
      const seen = new Map((await statementLinesOf(tx, merchantId, chunk.filter((line) => !fresh.has(line.bankTxnId)).map((line) => line.bankTxnId))).map((row) => [row.bankTxnId, row]));
      const toCredit: ToCredit[] = [];
      const outcomes = new Map<StatementLine, LineOutcome>();
      for (const line of chunk) {
        const row = fresh.get(line.bankTxnId);
        const owner = ownerOf(line);
        if (!row) outcomes.set(line, { outcome: 'already', line, status: seen.get(line.bankTxnId)?.status ?? 'MATCHED' });
        else if (!owner) outcomes.set(line, { outcome: 'unmatched', line, why: named(line) > 1 ? 'the memo holds references of several accounts' : 'no reference of an account in the memo' });
        else toCredit.push({ line, row, owner });
      }
      const credited = await creditLines(tx, merchantId, currency, toCredit);
      for (const [n, item] of toCredit.entries()) outcomes.set(item.line, credited[n] as LineOutcome);
      return chunk.map((line) => outcomes.get(line) as LineOutcome);
    });
  }

  /** An unmatched line credited by an operator to the account they name, inside the caller's transaction. */
  async function creditLineIn(tx: Tx, request: CreditLineRequest) {
    const row = await lineForUpdate(tx, request.merchantId, request.bankTxnId);
    if (!row) throw new AppError(FundingErrorCode.STATEMENT_LINE_NOT_FOUND);
    if (row.status !== 'UNMATCHED' || row.depositId) throw new AppError(FundingErrorCode.STATEMENT_LINE_CREDITED);
    if (request.currency && request.currency !== row.currency) throw new AppError(FundingErrorCode.STATEMENT_LINE_CURRENCY, { params: { currency: row.currency }, data: { currency: row.currency } });
    const line: StatementLine = { line: 0, bankTxnId: row.bankTxnId, date: row.bookedOn, amount: row.amount, currency: row.currency as Currency, payer: row.payer, memo: row.memo, references: [] };
    const [outcome] = await creditLines(tx, request.merchantId, row.currency as Currency, [{ line, row, owner: request.account, by: request.by }]);
    if (outcome?.outcome === 'failed') throw outcome.refusal ?? new Error(outcome.problem);
    return outcome as Extract<LineOutcome, { outcome: 'credited' | 'claimed' }>;
  }

  return {
    /**
     * deposit:import: every good line once (its bank id recorded in the same transaction as its credit);
     * a line whose memo names one account's reference credits that wallet; the rest are kept UNMATCHED
     * for a person. Bad lines are reported and credit nothing.
     */
    async importStatement(merchantId: string, currency: Currency, text: string) {
      const { missing, good, bad } = readStatement(text, currency);
      const outcomes: LineOutcome[] = [];
      if (missing.length > 0) return { missing, bad, outcomes };
      const names = [...new Set(good.flatMap((line) => line.references))];
      const owners = new Map<string, { accountId: string; reference: string }>();
      for (let start = 0; start < names.length; start += 1_000) {
        for (const row of await accountsByReference(db, merchantId, names.slice(start, start + 1_000))) owners.set(row.reference, row);
      }
      const namedBy = (line: StatementLine) => line.references.flatMap((reference) => owners.get(reference) ?? []);
      const ownerOf = (line: StatementLine) => {
        const found = namedBy(line);
        return found.length === 1 ? found[0] : undefined;
      };
      // each worker takes the accounts of its own house shards: no two hold the same rows and wait on each other
      const workers = Math.max(1, deps.importWorkers ?? 1);
      const shareOf = (line: StatementLine) => {
        const owner = namedBy(line)[0];
        return owner ? houseShardFor(owner.accountId) % workers : 0;
      };
      const shares = Array.from({ length: workers }, (_, share) => good.filter((line) => shareOf(line) === share));
      const done = await Promise.all(
        shares.map(async (lines) => {
          const part: LineOutcome[] = [];
          for (let start = 0; start < lines.length; start += IMPORT_CHUNK) {
            part.push(...(await importChunk(merchantId, currency, lines.slice(start, start + IMPORT_CHUNK), ownerOf, (line) => namedBy(line).length)));
          }
          return part;
        }),
      );
      outcomes.push(...done.flat().sort((a, b) => a.line.line - b.line.line));
      return { missing, bad, outcomes };
    },

    /**
     * deposit:credit-line: an unmatched line credited by an operator to the account they name, once,
     * under the line's key: the line is then MATCHED, with who credited it and when. A line credited
     * already, an unknown line or one of another currency is refused and changes nothing.
     */
    creditLine(request: CreditLineRequest) {
      return inTransaction((tx) => creditLineIn(tx, request));
    },

    creditLineIn,
  };
}
