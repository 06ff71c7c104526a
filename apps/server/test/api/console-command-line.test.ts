/**
 * The operator command line does what the console does through the same services, and each of its
 * actions on customers (money, wallet and card freezes, deposits, messages, announcements) and on its card
 * products is in the
 * merchant's audit log as the command line's, with what changed; a repeat that changes nothing and a
 * refusal write no row; another merchant's operators never read them.
 */
import { randomUUID } from 'node:crypto';
import type { AuditItem } from '@portal/contract/console';
import type { CardItem, OpenedAvailableAnswer } from '@portal/contract/cards';
import type { DepositItem } from '@portal/contract/funding';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.ts';
import { freshEmail, freshPhone, signUp } from '../helpers/accounts.ts';
import { auditOf, type ConsoleOperator, consoleOperators } from '../helpers/console.ts';
import { scriptedIssuerApp } from '../helpers/issuer.ts';
import { expectSoundBooks } from '../helpers/ledger.ts';
import { runOpsOn } from '../helpers/ops.ts';
import { queryRows } from '../helpers/sql.ts';

const clock = new ManualClock(new Date('2026-12-02T05:00:10Z'));
const { t, issuer } = scriptedIssuerApp(clock);

const { operator } = consoleOperators(() => t, clock, 'cli');
const ops = async (...argv: string[]) => {
  const run = await runOpsOn(t.database, argv, {}, clock);
  expect(run.code, `${argv.join(' ')}\n${run.stderr}`).toBe(0);
  return run;
};

async function customer() {
  const phone = freshPhone();
  const who = await signUp(t, 'localhost', { phone, email: freshEmail('cli') });
  const api = t.api('localhost', who.token);
  const { id } = await api.data<{ id: string }>('GET', '/account/info');
  const verified = await api.put('/card/verification', { real_name: '欧阳娜娜', id_number: '11010519491231002X' });
  expect(verified.code, verified.message).toBe(0);
  return { id, phone, api };
}
type Customer = Awaited<ReturnType<typeof customer>>;

/** The command line's rows of an action about this customer (their account id is in the target or the values). */
const cliRows = async (who: ConsoleOperator, action: string, about: string) =>
  (await auditOf(who, action)).filter((row) => row.channel === 'CLI' && JSON.stringify(row).includes(about));

const expectCliRow = (row: AuditItem | undefined) => {
  expect(row).toMatchObject({ channel: 'CLI', operator_id: null, ip: 'local' });
  expect(row?.actor).toMatch(/^命令行：.+/);
};

let admin: ConsoleOperator;
let orangeAdmin: ConsoleOperator;
let alice: Customer;
beforeAll(async () => {
  admin = await operator('localhost', 'ADMIN');
  orangeAdmin = await operator('orange.localhost', 'ADMIN');
  alice = await customer();
});

describe("the command line's actions in the audit log", () => {
  it('wallet:recharge, wallet:deduct and wallet:adjust: one MONEY_APPLIED row each, none for a replayed key or a refusal', async () => {
    const key = `cli-${randomUUID()}`;
    await ops('wallet:recharge', '--host', 'localhost', '--account', alice.phone, '--amount', '300.00', '--currency', 'USD', '--key', key, '--note', '线下充值');
    await ops('wallet:recharge', '--host', 'localhost', '--account', alice.phone, '--amount', '300.00', '--currency', 'USD', '--key', key, '--note', '线下充值');
    await ops('wallet:deduct', '--host', 'localhost', '--account', alice.phone, '--amount', '10.00', '--currency', 'USD');
    await ops('wallet:adjust', '--host', 'localhost', '--account', alice.phone, '--amount', '5.00', '--currency', 'USD');
    const refused = await runOpsOn(t.database, ['wallet:deduct', '--host', 'localhost', '--account', alice.phone, '--amount', '9999.00', '--currency', 'USD'], {}, clock);
    expect(refused.code).toBe(1);

    const rows = await cliRows(admin, 'MONEY_APPLIED', alice.id);
    expect(rows.map((row) => [row.after?.kind, row.after?.amount])).toEqual([
      ['ADJUST', '5.00'],
      ['DEDUCT', '10.00'],
      ['RECHARGE', '300.00'],
    ]);
    for (const row of rows) expectCliRow(row);
    expect(rows[2]?.after).toMatchObject({ currency: 'USD', account_id: alice.id, note: '线下充值', key });
    expect(rows[2]?.target).toContain(`${alice.phone.slice(0, 3)}****${alice.phone.slice(-4)}`);
    expect(rows[2]?.target).not.toContain(alice.phone);
    expect(await alice.api.data('GET', '/balance/account-balance')).toContainEqual(expect.objectContaining({ currency: 'USD', available: '285.00' }));
    await expectSoundBooks(t.database.db);
  });

  it('wallet:freeze and wallet:unfreeze: a row with the reason before and after; freezing a frozen wallet writes none', async () => {
    await ops('wallet:freeze', '--host', 'localhost', '--account', alice.phone, '--reason', '账户安全审核中');
    await ops('wallet:freeze', '--host', 'localhost', '--account', alice.phone, '--reason', '再次');
    const frozen = await cliRows(admin, 'WALLET_FROZEN', alice.id);
    expect(frozen).toHaveLength(1);
    expectCliRow(frozen[0]);
    expect(frozen[0]).toMatchObject({ before: { status: 'BALANCE_STATUS_AVAILABLE' }, after: { status: 'FROZEN', reason: '账户安全审核中' } });

    await ops('wallet:unfreeze', '--host', 'localhost', '--account', alice.phone);
    await ops('wallet:unfreeze', '--host', 'localhost', '--account', alice.phone);
    const unfrozen = await cliRows(admin, 'WALLET_UNFROZEN', alice.id);
    expect(unfrozen).toHaveLength(1);
    expect(unfrozen[0]).toMatchObject({ before: { status: 'BALANCE_STATUS_FROZEN', reason: '账户安全审核中' }, after: { status: 'AVAILABLE' } });
  });

  it('card:freeze and card:unfreeze: a row naming the card by its last four digits only', async () => {
    const { products } = await alice.api.data<OpenedAvailableAnswer>('GET', '/card/opened-available');
    const product = products.find((p) => p.name === '订阅支付卡');
    const opened = await alice.api.post<CardItem>('/card', { product_id: product?.id, amount: '20.00', nickname: '命令行卡' }, { headers: { 'idempotency-key': randomUUID() } });
    expect(opened.code, opened.message).toBe(0);
    expect((await issuer.issue(opened.data.id)).status).toBe(200);
    const card = await alice.api.data<CardItem>('GET', `/card/${opened.data.id}`);

    // the card commands reach the issuer over HTTP; here the service they call runs on the test's issuer
    const cli = { channel: 'CLI' as const, user: 'ops-test' };
    const row = async () => {
      const [merchant] = await queryRows<{ merchant_id: string }>(t.database.db, sql`select merchant_id from cards where id = ${card.id}`);
      const [found] = (await t.services.cards.forOperator(merchant?.merchant_id as string, { id: card.id })).rows;
      return found?.card as NonNullable<typeof found>['card'];
    };
    await t.services.commandLine.cardStatus('FREEZE', await row(), '涉嫌违规交易', cli);
    await expect(t.services.commandLine.cardStatus('FREEZE', await row(), '再次', cli)).rejects.toThrow(/frozen by the operator already/);
    const [frozen, ...more] = await cliRows(admin, 'CARD_FROZEN', card.id);
    expect(more).toHaveLength(0);
    expect(frozen).toMatchObject({ channel: 'CLI', actor: '命令行：ops-test', operator_id: null, ip: 'local' });
    expect(frozen?.target).toBe(`卡片 命令行卡 •••• ${card.last4}（${card.id}）`);
    expect(frozen).toMatchObject({ before: { status: 'NORMAL', frozen_by: null }, after: { status: 'FREEZING', frozen_by: 'OPERATOR', reason: '涉嫌违规交易' } });
    expect(JSON.stringify(frozen)).not.toMatch(/\d{13,19}/);

    expect((await issuer.frozen(card.id)).status).toBe(200);
    await t.services.commandLine.cardStatus('UNFREEZE', await row(), '', cli);
    expect(await cliRows(admin, 'CARD_UNFROZEN', card.id)).toHaveLength(1);
  });

  it('deposit:confirm and deposit:reject: a row each, none for confirming a credited notice again', async () => {
    const file = (amount: string) =>
      alice.api.data<DepositItem>('POST', '/wallet/deposits', {
        body: { currency: 'USD', amount, payer_name: '张三', transferred_at: new Date(clock.now().getTime() - 3600_000).toISOString() },
      });
    const credited = await file('40.00');
    const rejected = await file('41.00');
    await ops('deposit:confirm', '--host', 'localhost', '--id', credited.id);
    await ops('deposit:confirm', '--host', 'localhost', '--id', credited.id);
    await ops('deposit:reject', '--host', 'localhost', '--id', rejected.id, '--reason', '未查到该笔转账');

    const confirmed = await cliRows(admin, 'DEPOSIT_CONFIRMED', credited.id);
    expect(confirmed).toHaveLength(1);
    expectCliRow(confirmed[0]);
    expect(confirmed[0]).toMatchObject({ target: credited.id, before: { status: 'PENDING' }, after: { status: 'CREDITED', account_id: alice.id, credited_amount: '40.00' } });
    const [refusal] = await cliRows(admin, 'DEPOSIT_REJECTED', rejected.id);
    expect(refusal).toMatchObject({ after: { status: 'REJECTED', reason: '未查到该笔转账' } });
    await expectSoundBooks(t.database.db);
  });

  it('message:send and announcement:publish: a row each with what was sent', async () => {
    const title = `维护通知${Date.now().toString(36)}`;
    await ops('message:send', '--host', 'localhost', '--account', alice.phone, '--title', title, '--content', '<p>今晚维护</p>');
    const [messaged] = await cliRows(admin, 'CUSTOMER_MESSAGED', alice.id);
    expectCliRow(messaged);
    expect(messaged?.after).toMatchObject({ title, content: '<p>今晚维护</p>' });

    const headline = `费率公告${Date.now().toString(36)}`;
    await ops('announcement:publish', '--host', 'localhost', '--title', headline, '--content', '<p>自下月起</p>');
    const [announced] = (await auditOf(admin, 'ANNOUNCEMENT_PUBLISHED')).filter((row) => row.target === headline);
    expectCliRow(announced);
  });

  it('product:set: a PRODUCT_CREATED row with the fields, a PRODUCT_UPDATED row with what changed, none for an unchanged change or a refusal', async () => {
    const name = `旅行卡${Date.now().toString(36).slice(-4)}`;
    await ops(
      'product:set', '--host', 'localhost', '--create', '--name', name, '--brand', 'MASTERCARD', '--bin', '55554444', '--currency', 'USD',
      '--open-fee', '1', '--rate', '0.01', '--fixed', '0', '--min-first-load', '5', '--max-balance', '5000', '--decline-fee', '0.3',
      '--per-account-limit', '50', '--max-per-batch', '50',
    );
    const created = (await auditOf(admin, 'PRODUCT_CREATED')).filter((row) => row.target === name);
    expect(created).toHaveLength(1);
    expectCliRow(created[0]);
    expect(created[0]?.after).toMatchObject({ name, brand: 'MASTERCARD', bin: '55554444', open_fee: '1.00' });

    await ops('product:set', '--host', 'localhost', '--product', name, '--open-fee', '2.50', '--rate', '0.01');
    const updated = (await auditOf(admin, 'PRODUCT_UPDATED')).filter((row) => row.target === name);
    expect(updated).toHaveLength(1);
    expectCliRow(updated[0]);
    expect(updated[0]).toMatchObject({ before: { open_fee: '1.00' }, after: { open_fee: '2.50' } });
    expect(Object.keys(updated[0]?.after ?? {})).toEqual(['open_fee']);

    await ops('product:set', '--host', 'localhost', '--product', name, '--open-fee', '2.50');
    const refused = await runOpsOn(t.database, ['product:set', '--host', 'localhost', '--product', name, '--rate', '1.5'], {}, clock);
    expect(refused.code).not.toBe(0);
    expect((await auditOf(admin, 'PRODUCT_UPDATED')).filter((row) => row.target === name)).toHaveLength(1);
    expect((await auditOf(orangeAdmin, 'PRODUCT_CREATED')).filter((row) => row.target === name)).toHaveLength(0);
  });

  it("another merchant's operators read none of these rows", async () => {
    for (const action of ['MONEY_APPLIED', 'WALLET_FROZEN', 'DEPOSIT_CONFIRMED', 'CUSTOMER_MESSAGED']) {
      expect(await cliRows(admin, action, alice.id)).not.toHaveLength(0);
      expect(await cliRows(orangeAdmin, action, alice.id)).toHaveLength(0);
    }
  });
});
