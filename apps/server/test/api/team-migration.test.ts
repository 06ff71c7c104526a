import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { AccountInfo } from '@portal/contract/account';
import type { CardPage } from '@portal/contract/cards';
import type { AccountBalanceItem } from '@portal/contract/wallet';
import { sql } from 'drizzle-orm';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword, sha256 } from '../../src/lib/crypto.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { queryRows } from '../helpers/sql.ts';

// A database made by the migrations before teams, holding an account with what a customer has (a
// session, a trusted device, sign-in history, a trade password, a wallet balance, a card), then
// migrated as a deployment would: the account keeps everything and signs in as its owner.
const migrations = path.resolve(import.meta.dirname, '../../src/db/migrations');
const BEFORE_TEAMS = '0022_export_session';

const merchantId = '6d1f8a5e-0000-4000-8000-00000000000a';
const accountId = '6d1f8a5e-0000-4000-8000-0000000000a1';
const cardId = '6d1f8a5e-0000-4000-8000-0000000000c1';
const token = 'migrated-session-token';
const host = 'migrated.example';

let database: TestDatabase;
let t: TestApp;
let folder: string;

/** The migrations folder as it was before teams: the files, and a journal that ends at BEFORE_TEAMS. */
async function migrationsBeforeTeams() {
  folder = await mkdtemp(path.join(os.tmpdir(), 'migrations-'));
  await cp(migrations, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta/_journal.json');
  const journal = JSON.parse(await readFile(journalFile, 'utf8')) as { entries: Array<{ tag: string }> };
  const last = journal.entries.findIndex((entry) => entry.tag === BEFORE_TEAMS);
  expect(last).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, last + 1);
  await writeFile(journalFile, JSON.stringify(journal));
  return folder;
}

beforeAll(async () => {
  database = await createTestDatabase({ migrate: false });
  const migrationsFolder = await migrationsBeforeTeams();
  if (database.kind === 'pglite') await migratePglite(database.db as never, { migrationsFolder });
  else await migrateNodePg(database.db as never, { migrationsFolder });

  const run = (statement: ReturnType<typeof sql>) => database.db.execute(statement);
  const now = new Date().toISOString();
  await run(sql`insert into merchants (id, slug, name, website) values (${merchantId}, 'migrated', '迁移商户', 'https://migrated.example')`);
  await run(sql`insert into merchant_hosts (host, merchant_id) values (${host}, ${merchantId})`);
  await run(sql`insert into accounts (id, merchant_id, phone, email, password_hash, trx_password_hash)
    values (${accountId}, ${merchantId}, '13900139000', 'old@migrated.example', ${await hashPassword('Migrate123')}, ${await hashPassword('trade123')})`);
  await run(sql`insert into sessions (merchant_id, account_id, token_hash, stage, created_at, last_seen_at)
    values (${merchantId}, ${accountId}, ${sha256(token)}, 'FULL', ${now}, ${now})`);
  await run(sql`insert into trusted_devices (merchant_id, account_id, secret_hash, created_at, last_used_at, expires_at)
    values (${merchantId}, ${accountId}, 'device-secret-hash', ${now}, ${now}, ${new Date(Date.now() + 86_400_000).toISOString()})`);
  await run(sql`insert into login_attempts (merchant_id, account_id, at, method, result) values (${merchantId}, ${accountId}, ${now}, 'PASSWORD_PHONE', 'SUCCESS')`);
  await run(sql`insert into ledger_accounts (merchant_id, currency, kind, owner_id, holder_id, balance) values (${merchantId}, 'USD', 'WALLET', ${accountId}, ${accountId}, 12345)`);
  const [product] = await queryRows<{ id: string }>(
    database.db,
    sql`insert into card_products (merchant_id, name, brand, bin, currency, open_fee, topup_fee_rate, topup_fee_fixed, min_first_load, max_balance,
      decline_fee, per_account_limit, max_per_batch) values (${merchantId}, '订阅支付卡', 'VISA', '489607', 'USD', 500, '0.015', 0, 500, 1000000, 50, 100, 500)
      returning id`,
  );
  await run(sql`insert into cards (id, merchant_id, account_id, product_id, nickname, brand, currency, status, last4, open_key, open_fingerprint,
      first_load, open_fee, topup_fee) values (${cardId}, ${merchantId}, ${accountId}, ${String(product?.id)}, '老卡', 'VISA', 'USD', 'NORMAL', '4242',
      'old-key', 'old-fingerprint', 1000, 500, 15)`);
  await run(sql`insert into ledger_accounts (merchant_id, currency, kind, owner_id, holder_id, balance) values (${merchantId}, 'USD', 'CARD', ${cardId}, ${accountId}, 1000)`);

  await database.migrate();
  t = await createTestApp({ database, seed: false });
});

afterAll(async () => {
  await t?.close();
  await database?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('an account made before teams, after the migration', () => {
  it('has one member, its owner, whose id is the account id, holding its credentials', async () => {
    const members = await queryRows<{ id: string; account_id: string; role: string; status: string; phone: string; email: string }>(
      database.db,
      sql`select id, account_id, role, status, phone, email from members where merchant_id = ${merchantId}`,
    );
    expect(members).toEqual([{ id: accountId, account_id: accountId, role: 'OWNER', status: 'ACTIVE', phone: '13900139000', email: 'old@migrated.example' }]);
    const [owned] = await queryRows<{ sessions: number; devices: number; attempts: number; cards: number }>(
      database.db,
      sql`select (select count(*)::int from sessions where member_id = ${accountId}) as sessions,
        (select count(*)::int from trusted_devices where member_id = ${accountId}) as devices,
        (select count(*)::int from login_attempts where member_id = ${accountId}) as attempts,
        (select count(*)::int from cards where holder_member_id = ${accountId}) as cards`,
    );
    expect(owned).toEqual({ sessions: 1, devices: 1, attempts: 1, cards: 1 });
  });

  it('keeps its session: the same token answers the account, now as its owner, with its trade password', async () => {
    const info = await t.api(host, token).data<AccountInfo>('GET', '/account/info');
    expect(info).toMatchObject({
      id: accountId,
      member_id: accountId,
      role: 'OWNER',
      phone: '13900139000',
      email: 'old@migrated.example',
      trx_password_set: true,
      account_name: '139****9000 的团队',
    });
  });

  it('keeps its wallet balance and its card, which its owner holds', async () => {
    const api = t.api(host, token);
    const balances = await api.data<AccountBalanceItem[]>('GET', '/balance/account-balance');
    expect(balances.find((row) => row.currency === 'USD')?.available).toBe('123.45');
    const page = await api.data<CardPage>('GET', '/card');
    expect(page.items.map((card) => ({ id: card.id, status: card.status, last4: card.last4 }))).toEqual([{ id: cardId, status: 'NORMAL', last4: '4242' }]);
    // the card keeps its product's fee terms as they were when the fee terms came to cards
    expect(page.items[0]?.fees).toEqual({ topup_fee_rate: '0.015', topup_fee_fixed: '0.00', topup_fee_min: null, topup_fee_max: null, decline_fee: '0.50' });
  });

  it('signs in with its phone and password as before', async () => {
    const answer = await t.api(host).request('POST', '/account/login', { body: { phone_info: { phone: '13900139000', phone_prefix: '86' }, password: 'Migrate123' } });
    expect(answer.code).toBe(0);
  });
});
