import { bulkActionBody } from '@portal/contract/card-bulk';
import { type OpenedAvailableAnswer, rechargeCost } from '@portal/contract/cards';
import { fromMinorUnits, toMinorUnits } from '@portal/contract/money';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../../src/composition.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { bulkItemKey } from '../../src/modules/bulk/service.ts';
import { claimItem } from '../../src/modules/bulk/store.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { scriptedIssuer } from '../helpers/issuer.ts';
import { expectSoundBooks } from '../helpers/ledger.ts';
import { queryRows } from '../helpers/sql.ts';
import { issuedCard, readyForCards, teamOwner } from '../helpers/team.ts';
import { until } from '../helpers/until.ts';

/**
 * A bulk top-up whose worker died mid-action, taken over by two other processes on one PostgreSQL (two
 * apps, each with its job queue, on the same database): the cards the dead worker topped up but never
 * marked are not topped up again, the one it claimed but never reached is, and the others are shared by
 * the two; every card gets its money exactly once, the hold is used or released to the cent.
 */

const CARDS = 12;
const issuer = scriptedIssuer();
let database: TestDatabase;
const apps: TestApp[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await database?.close();
});

const build = async () => {
  const app = await createTestApp({ database, issuer: issuer.port, config: { jobs: { batchConcurrency: 4, superviseSeconds: 2, bulkLeaseSeconds: 2 } } });
  apps.push(app);
  return app;
};

const walletOf = async (accountId: string) =>
  (
    await queryRows<{ balance: string; held: string }>(
      database.db,
      sql`select balance::text as balance, held::text as held from ledger_accounts where kind = 'WALLET' and holder_id = ${accountId} and currency = 'USD'`,
    )
  )[0];

describe('a bulk top-up across processes', () => {
  it('acts on each card exactly once when the worker holding some of them died, two processes sharing the rest', async () => {
    // the account and its cards, made while a server runs; then it stops, so no worker takes the action yet
    const setup = await build();
    issuer.attach(setup);
    const owner = await teamOwner(setup);
    await readyForCards(setup, owner);
    const cards = [];
    for (let n = 0; n < CARDS; n += 1) cards.push(await issuedCard(owner, issuer, `崩溃${n + 1}`));
    const { products } = await owner.api.data<OpenedAvailableAnswer>('GET', '/card/opened-available');
    const product = products.find((one) => one.name === '订阅支付卡');
    if (!product) throw new Error('no 订阅支付卡');
    await setup.close();
    apps.splice(apps.indexOf(setup), 1);

    const [row] = await queryRows<{ merchant_id: string }>(database.db, sql`select merchant_id from accounts where id = ${owner.accountId}`);
    const merchantId = String(row?.merchant_id);
    const before = await walletOf(owner.accountId);
    // a process that accepts the action and dies: its queue sends jobs but never works them
    const doomed = createServices({ config: setup.config, database, clock: systemClock, log: { info() {}, warn() {}, error() {} } });
    await doomed.jobs.boss.start();
    const body = bulkActionBody.parse({ action: 'RECHARGE', card_ids: cards.map((card) => card.id), params: { amount: '5.00' } });
    const { id } = await doomed.cardBulk.create(merchantId, { accountId: owner.accountId, memberId: owner.memberId, role: 'OWNER' }, body, 'crash-bulk-key-1');
    // it topped three cards up and died before marking them, and claimed a fourth it never reached
    const leased = new Date(Date.now() + 60_000);
    for (let n = 0; n < 3; n += 1) {
      const item = await claimItem(database.db, id, new Date(), leased);
      if (!item?.holdId) throw new Error('no item to claim');
      await doomed.cards.recharge(merchantId, { accountId: owner.accountId }, item.cardId, '5.00', bulkItemKey(id, item.cardId), { holdId: item.holdId });
    }
    await claimItem(database.db, id, new Date(), leased);
    await doomed.jobs.boss.stop({ graceful: false });
    // its leases run out as a dead process's do
    await database.db.execute(sql`update card_bulk_items set lease_until = now() - interval '1 second' where bulk_id = ${id} and state = 'RUNNING'`);

    // two processes take the action over
    await build();
    await build();
    const done = await until(
      'the bulk action done',
      async () => {
        const [bulk] = await queryRows<{ status: string; succeeded: number; failed: number }>(
          database.db,
          sql`select status, succeeded, failed from card_bulk_actions where id = ${id}`,
        );
        return bulk?.status === 'DONE' ? bulk : undefined;
      },
      90_000,
    );
    expect(done).toEqual({ status: 'DONE', succeeded: CARDS, failed: 0 });

    // each card got its 5.00 once: 20.00 first load + 5.00
    const balances = await queryRows<{ balance: string }>(
      database.db,
      sql`select balance::text as balance from ledger_accounts where kind = 'CARD' and owner_id in (${sql.join(
        cards.map((card) => sql`${card.id}::uuid`),
        sql`, `,
      )})`,
    );
    expect(balances.map((one) => one.balance)).toEqual(Array.from({ length: CARDS }, () => String(25_00n)));
    const moves = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from ledger_idempotency_keys where key like ${`card-recharge:${owner.accountId}:bulk:${id}:%`}`,
    );
    expect(moves[0]?.n).toBe(CARDS);
    const attempts = await queryRows<{ attempts: number; n: number }>(
      database.db,
      sql`select attempts, count(*)::int as n from card_bulk_items where bulk_id = ${id} group by attempts order by attempts`,
    );
    expect(attempts).toEqual([
      { attempts: 1, n: CARDS - 4 },
      { attempts: 2, n: 4 },
    ]);

    // the wallet paid exactly the cards' top-ups and fees, and holds nothing more
    const cost = rechargeCost(product, '5.00');
    const after = await walletOf(owner.accountId);
    expect(after?.held).toBe('0');
    expect(fromMinorUnits(BigInt(before?.balance ?? '0') - BigInt(after?.balance ?? '0'))).toBe(fromMinorUnits(toMinorUnits(cost.total) * BigInt(CARDS)));
    await expectSoundBooks(database.db);
  }, 240_000);
});
