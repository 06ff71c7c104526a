import type { CardItem, OpenedAvailableAnswer } from '@portal/contract/cards';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningIssuerSimulator, startIssuerSimulator } from '../../src/providers/issuer/simulator-server.ts';
import { signUp } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { expectSoundBooks } from '../helpers/ledger.ts';
import { runOpsOn } from '../helpers/ops.ts';

// The whole way a card takes in production: the portal asks the simulated issuer over HTTP (signed),
// and the issuer answers by signed webhooks to the listening portal. Operator commands reach both.
const SECRET = 'cards-issuer-test-secret-0123456789abcdef';
let sim: RunningIssuerSimulator;
let t: TestApp;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  sim = await startIssuerSimulator({ host: '127.0.0.1', port: 0, secret: SECRET, delayMs: 0, failRate: 0, retryDelaysMs: [50, 200] });
  env = { ISSUER_URL: sim.url, ISSUER_WEBHOOK_SECRET: SECRET };
  t = await createTestApp({ env });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  sim.setWebhookUrl(`http://127.0.0.1:${(t.app.server.address() as { port: number }).port}/api/v1/issuer/webhook`);
});
afterAll(async () => {
  await t?.close();
  await sim?.close();
});

const ops = (...argv: string[]) => runOpsOn(t.database, argv, env);
let serial = 0;

async function verifiedCustomer() {
  const who = await signUp(t);
  const api = t.api('localhost', who.token);
  const { id } = await api.data<{ id: string }>('GET', '/account/info');
  await api.data('PUT', '/card/verification', { body: { real_name: '王五', id_number: '11010519491231002X' } });
  const merchant = await t.services.merchants.findByHost('localhost');
  if (!merchant) throw new Error('no blue merchant');
  await t.services.ledger.recharge({ merchantId: merchant.id, accountId: id, currency: 'USD', amount: 500_00n, key: `fund-${id}` });
  const { products } = await api.data<OpenedAvailableAnswer>('GET', '/card/opened-available');
  const product = products.find((p) => p.name === '订阅支付卡');
  if (!product) throw new Error('no 订阅支付卡');
  const open = (nickname: string) =>
    api.data<CardItem>('POST', '/card', { body: { product_id: product.id, amount: '20.00', nickname }, headers: { 'idempotency-key': `issuer-test-${++serial}-${Date.now()}` } });
  return { ...who, id, api, open };
}

describe('cards through the simulated issuer over HTTP', () => {
  it('opens a card: 申请中 at once, 使用中 when the signed webhook arrives, with a Luhn-valid number in the BIN', async () => {
    const who = await verifiedCustomer();
    const card = await who.open('真实路径');
    expect(card.status).toBe('CARD_STATUS_INIT');
    await sim.simulator.settled();
    const issued = await who.api.data<CardItem>('GET', `/card/${card.id}`);
    expect(issued).toMatchObject({ status: 'NORMAL', balance: '20.00' });
    expect(issued.last4).toMatch(/^\d{4}$/);
    const events = await t.database.db.execute(sql`select type, outcome from issuer_events where type = 'card.issued'`);
    expect((events as unknown as { rows: unknown[] }).rows.length).toBeGreaterThan(0);
  });

  it('issuer:fail-next makes the next opening fail with that reason, its money back', async () => {
    const who = await verifiedCustomer();
    const asked = await ops('issuer:fail-next', '--reason', '发卡行风控拒绝，请更换卡种');
    expect(asked.code, asked.stderr).toBe(0);
    const card = await who.open('会失败');
    await sim.simulator.settled();
    expect(await who.api.data<CardItem>('GET', `/card/${card.id}`)).toMatchObject({ status: 'FAIL', failure_reason: '发卡行风控拒绝，请更换卡种' });
    expect(await who.api.data('GET', '/balance/account-balance')).toContainEqual({ currency: 'USD', available: '500.00', anew: '0.00' });
  });

  it("card:list, card:freeze and card:unfreeze: an operator's freeze the holder cannot undo, with a message saying why", async () => {
    const who = await verifiedCustomer();
    const card = await who.open('运营冻结');
    await sim.simulator.settled();
    const issued = await who.api.data<CardItem>('GET', `/card/${card.id}`);

    const listed = await ops('card:list', '--host', 'localhost', '--account', who.phone);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('运营冻结');
    expect(listed.stdout).toContain(issued.last4 ?? 'none');
    const json = JSON.parse((await ops('card:list', '--host', 'localhost', '--account', who.phone, '--json')).stdout) as CardItem[];
    expect(json.map((c) => c.id)).toEqual([card.id]);

    const frozen = await ops('card:freeze', '--host', 'localhost', '--card', card.id, '--reason', '涉嫌违规交易');
    expect(frozen.code, frozen.stderr).toBe(0);
    expect(frozen.stdout).toContain('FREEZING');
    await sim.simulator.settled();
    expect(await who.api.data<CardItem>('GET', `/card/${card.id}`)).toMatchObject({ status: 'FREEZE', frozen_by: 'OPERATOR', status_reason: '涉嫌违规交易', actions: ['WITHDRAW'] });
    expect((await who.api.put(`/card/${card.id}/status`, { action: 'UNFREEZE' })).message).toBe('此卡由平台冻结，如需解冻请联系客服');
    const message = await t.database.db.execute(sql`select title, content from station_messages where account_id = ${who.id} and type = 'CARD_FROZEN'`);
    expect(JSON.stringify((message as unknown as { rows: unknown[] }).rows)).toContain('涉嫌违规交易');

    const again = await ops('card:freeze', '--host', 'localhost', '--card', card.id, '--reason', '再次');
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/frozen by the operator already/);

    const unfrozen = await ops('card:unfreeze', '--host', 'localhost', '--card', card.id);
    expect(unfrozen.code, unfrozen.stderr).toBe(0);
    await sim.simulator.settled();
    expect(await who.api.data<CardItem>('GET', `/card/${card.id}`)).toMatchObject({ status: 'NORMAL', frozen_by: null });
    await expectSoundBooks(t.database.db);
  });

  it('refuses bad operator input with the reason and changes nothing', async () => {
    const who = await verifiedCustomer();
    const card = await who.open('拒绝');
    await sim.simulator.settled();
    const snapshot = async () => JSON.stringify(await who.api.data('GET', `/card/${card.id}`));
    const before = await snapshot();
    const cases: Array<[string[], number, RegExp]> = [
      [['card:freeze', '--host', 'localhost', '--card', '00000000-0000-4000-8000-000000000000', '--reason', 'x'], 1, /no card/],
      [['card:freeze', '--host', 'localhost', '--card', card.id], 2, /reason/],
      [['card:unfreeze', '--host', 'localhost', '--card', card.id], 1, /not frozen by the operator/],
      [['card:list', '--host', 'nowhere.example'], 1, /no merchant/],
    ];
    for (const [argv, code, message] of cases) {
      const run = await ops(...argv);
      expect(run.code, `${argv.join(' ')}: ${run.stderr}`).toBe(code);
      expect(run.stderr).toMatch(message);
    }
    expect(await snapshot()).toBe(before);
  });
});
