import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Db } from '../../src/db/engine.ts';
import { insertAccountWithOwner } from '../../src/modules/accounts/store.ts';
import type { Clock } from '../../src/lib/clock.ts';
import { auditLedger } from '../../src/modules/books/audit.ts';
import { createBooksService } from '../../src/modules/books/service.ts';
import { createEventPublisher } from '../../src/modules/events/publisher.ts';
import { createLedgerService, LEDGER_OPERATIONS, type LedgerOperations } from '../../src/modules/ledger/service.ts';
import { createMessageService } from '../../src/modules/messages/service.ts';
import { createWalletService } from '../../src/modules/wallet/service.ts';
import { findMerchantByHost } from '../../src/modules/merchants/store.ts';
import { freshPhone } from './accounts.ts';

/** The merchant that owns a demo host. */
export async function merchantOf(db: Db, host = 'localhost') {
  const merchant = await findMerchantByHost(db, host);
  if (!merchant) throw new Error(`no merchant has the host ${host}`);
  return merchant;
}

/** A customer account written straight into the database (no sign-up round trips), for ledger tests. */
export async function newCustomer(db: Db, merchantId: string) {
  const account = await db.transaction((tx) => insertAccountWithOwner(tx, { merchantId, phonePrefix: '86', phone: freshPhone(), passwordHash: 'not-used', email: null }));
  // the owner's member id is the account's
  if (!account) throw new Error('customer not created');
  return account.id;
}

/** Every byte of the books that an operation could change, as one string. */
export async function booksSnapshot(db: Db) {
  const read = async (query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: unknown[] }).rows;
  const [accounts, counts, holds, wallets, keys] = await Promise.all([
    read(sql`select id, merchant_id, currency, kind, owner_id, holder_id, balance::text, held::text from ledger_accounts order by id`),
    read(sql`select (select count(*) from ledger_transactions)::int as transactions, (select count(*) from ledger_postings)::int as postings`),
    read(sql`select id, status, amount::text, settled_at, settled_transaction_id from ledger_holds order by id`),
    read(sql`select account_id, status, status_reason, status_changed_at from wallets order by account_id`),
    read(sql`select merchant_id, key, request_hash, answer from ledger_idempotency_keys order by merchant_id, key`),
  ]);
  return JSON.stringify({ accounts, counts, holds, wallets, keys });
}

/** Asserts that every invariant of the books holds (src/modules/books/audit-store.ts lists them). */
export async function expectSoundBooks(db: Db) {
  const { violations } = await auditLedger(db);
  expect(violations).toEqual([]);
}

/** The code of a refusal thrown by a ledger call (undefined when it did not fail). */
export async function refusalOf(work: Promise<unknown>) {
  try {
    await work;
    return undefined;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code !== 'number') throw error;
    return code;
  }
}

type Keyless<F> = F extends (request: infer R) => infer O ? (request: Omit<R, 'key'> & { key?: string }) => O : never;
export type TestLedger = { [K in keyof LedgerOperations]: Keyless<LedgerOperations[K]> };

/**
 * The ledger with a fresh idempotency key on every call that brings none: for tests about other
 * things than keys (the key tests give theirs).
 */
export function autoKeyed(books: LedgerOperations): TestLedger {
  return Object.fromEntries(
    LEDGER_OPERATIONS.map((name) => [
      name,
      (request: { key?: string }) => (books[name] as (r: unknown) => unknown)({ ...request, key: request.key ?? `test-${randomUUID()}` }),
    ]),
  ) as unknown as TestLedger;
}

/** The ledger service on a database (or a connection of one), wired as composition.ts wires it. */
export const ledgerOn = (db: Db, clock: Clock) => createLedgerService({ db, clock, events: createEventPublisher() });

/** The books' service on a database (or a connection of one), wired as composition.ts wires it. */
export const booksOn = (db: Db, clock: Clock) => createBooksService({ db, clock });

/** The wallet service on a database, over its books, wired as composition.ts wires it. */
export const walletOn = (db: Db, clock: Clock, options: { exportRowLimit?: number } = {}) =>
  createWalletService({ db, books: booksOn(db, clock), messages: createMessageService({ db, clock, events: createEventPublisher() }), ...options });
