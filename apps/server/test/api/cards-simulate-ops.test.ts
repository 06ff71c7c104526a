import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CardItem, OpenedAvailableAnswer } from '@portal/contract/cards';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { verifyIssuerSignature } from '../../src/lib/issuer-signature.ts';
import type { PurchaseAnswer } from '../../src/providers/issuer/protocol.ts';
import type { SimulatedEvent } from '../../src/providers/issuer/simulator.ts';
import { type RunningIssuerSimulator, startIssuerSimulator } from '../../src/providers/issuer/simulator-server.ts';
import { signUp } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { runOpsOn } from '../helpers/ops.ts';

// card:simulate-transaction and card:simulate-traffic find their cards in the portal's database and
// drive a simulated issuer over HTTP. `sim` sends to the listening portal; `decider` sends to a
// receiver in this test that checks signatures and answers the decisions it is told to, so that
// what the commands print of a decision is proved whatever the portal decides.
const SECRET = 'cards-simulate-test-secret-0123456789abcdef';
let t: TestApp;
let sim: RunningIssuerSimulator;
let decider: RunningIssuerSimulator;
let receiver: Server;
const received: SimulatedEvent[] = [];
/** the decisions the receiver answers, in turn; approval once they run out */
const decisions: object[] = [];

beforeAll(async () => {
  sim = await startIssuerSimulator({ port: 0, secret: SECRET, delayMs: 0, failRate: 0, retryDelaysMs: [50, 200] });
  t = await createTestApp({ env: { ISSUER_URL: sim.url, ISSUER_WEBHOOK_SECRET: SECRET } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  sim.setWebhookUrl(`http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v1/issuer/webhook`);

  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const header = req.headers['issuer-signature'];
      if (!verifyIssuerSignature({ secret: SECRET, body, header: typeof header === 'string' ? header : undefined, now: new Date() })) {
        res.writeHead(401).end('{}');
        return;
      }
      const event = JSON.parse(body.toString('utf8')) as SimulatedEvent;
      received.push(event);
      const data = event.type === 'authorization.request' ? (decisions.shift() ?? { approved: true }) : { id: event.id, duplicate: false, outcome: 'processed' };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 0, message: 'success', data }));
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  decider = await startIssuerSimulator({
    port: 0,
    webhookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/v1/issuer/webhook`,
    secret: SECRET,
    delayMs: 0,
    failRate: 0,
    retryDelaysMs: [0],
  });
});
afterAll(async () => {
  await t?.close();
  await sim?.close();
  await decider?.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});
afterEach(async () => {
  await decider.simulator.settled();
  received.length = 0;
  decisions.length = 0;
});

/** through the portal's own simulator (its webhook decides), or through the deciding receiver */
const viaPortal = (...argv: string[]) => runOpsOn(t.database, argv, { ISSUER_URL: sim.url, ISSUER_WEBHOOK_SECRET: SECRET });
const viaDecider = (...argv: string[]) => runOpsOn(t.database, argv, { ISSUER_URL: decider.url, ISSUER_WEBHOOK_SECRET: SECRET });
let serial = 0;

/** A verified, funded customer of the blue merchant with `count` issued cards of 订阅支付卡, newest last. */
async function customerWithCards(count: number) {
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
  const cards: CardItem[] = [];
  for (let n = 0; n < count; n++) {
    const card = await api.data<CardItem>('POST', '/card', { body: { product_id: product.id, amount: '20.00', nickname: `模拟${n}` }, headers: { 'idempotency-key': `sim-ops-${++serial}-${Date.now()}` } });
    await sim.simulator.settled();
    cards.push(await api.data<CardItem>('GET', `/card/${card.id}`));
  }
  return { ...who, id, api, cards };
}

const purchaseArgs = (card: string, ...more: string[]) => ['card:simulate-transaction', '--card', card, '--amount', '12.34', '--merchant', 'Meta Ads', '--mcc', '7311', '--country', 'us', ...more];

describe('ops card:simulate-transaction', () => {
  it('sends a signed authorisation request for the card to the portal, which records it, and prints its id and the decision', async () => {
    const { cards, api } = await customerWithCards(1);
    const card = cards[0] as CardItem;
    expect(card.status).toBe('NORMAL');
    const run = await viaPortal(...purchaseArgs(card.id, '--3ds', '--json'));
    expect(run.code, run.stderr).toBe(0);
    const answer = JSON.parse(run.stdout) as PurchaseAnswer;
    // the portal decided from its books: 20.00 on the card affords 12.34, now held on it
    expect(answer).toMatchObject({ card_id: card.id, amount: '12.34', currency: 'USD', approved: true, decided_by: 'portal' });
    expect(await api.data<CardItem>('GET', `/card/${card.id}`)).toMatchObject({ balance: '7.66', held: '12.34' });
    expect(answer.three_ds?.code).toMatch(/^\d{6}$/);
    await sim.simulator.settled();
    const { rows } = (await t.database.db.execute(sql`select id, type from issuer_events where id = ${answer.authorization_id} or type = '3ds.otp'`)) as unknown as { rows: Array<{ id: string; type: string }> };
    expect(rows.map((row) => row.type).sort()).toEqual(['3ds.otp', 'authorization.request']);

    const text = await viaPortal(...purchaseArgs(card.last4 as string));
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(new RegExp(`^Purchase on card 模拟0 \\(•••• ${card.last4}, NORMAL\\) at merchant \\w+: 12\\.34 USD at Meta Ads \\(MCC 7311, US\\)`));
    // what is left on the card does not afford a second one
    expect(text.stdout).toMatch(/\n {2}decision {5}DECLINED INSUFFICIENT_FUNDS 卡片余额不足/);
    expect(text.stdout).toMatch(/\n {2}authorisation [0-9a-f-]{36}/);
  });

  it('prints the decision the webhook answers, what followed, and acts on an earlier authorisation with --auth', async () => {
    const { cards } = await customerWithCards(1);
    const card = cards[0] as CardItem;
    const approved = await viaDecider(...purchaseArgs(card.id, '--settle', '12.50'));
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toContain('decision     APPROVED 已批准');
    expect(approved.stdout).toMatch(/then {9}transaction\.settled 12\.50 \(已送达; event [0-9a-f-]{36}\)/);
    expect(received.map((event) => event.type)).toEqual(['authorization.request', 'transaction.settled']);
    expect(received[0]?.data).toMatchObject({ card_id: card.id, amount: '12.34', currency: 'USD', merchant_name: 'Meta Ads', mcc: '7311', country: 'US' });

    decisions.push({ approved: false, decline_code: 'INSUFFICIENT_FUNDS' });
    const declined = await viaDecider(...purchaseArgs(card.id, '--reverse'));
    expect(declined.code, declined.stderr).toBe(0);
    expect(declined.stdout).toContain('decision     DECLINED INSUFFICIENT_FUNDS 卡片余额不足：请为卡片充值后重试');
    expect(declined.stdout).not.toContain('then ');

    received.length = 0;
    const pending = JSON.parse((await viaDecider(...purchaseArgs(card.id, '--json'))).stdout) as PurchaseAnswer;
    expect(pending.followed).toEqual([]);
    const refundFirst = await viaDecider('card:simulate-transaction', '--auth', pending.authorization_id, '--refund', '1.00');
    expect(refundFirst.code).toBe(1);
    expect(refundFirst.stderr).toContain('发卡模拟器拒绝了请求');
    expect(refundFirst.stderr).toContain('not settled yet');
    const settled = await viaDecider('card:simulate-transaction', '--auth', pending.authorization_id, '--settle', 'full');
    expect(settled.code, settled.stderr).toBe(0);
    expect(settled.stdout).toContain(`Authorisation ${pending.authorization_id} (card ${card.id}):`);
    expect(settled.stdout).toContain('transaction.settled 12.34');
    const refunded = await viaDecider('card:simulate-transaction', '--auth', pending.authorization_id, '--refund', '2.00');
    expect(refunded.stdout).toContain('transaction.refund 2.00');
    expect(received.map((event) => [event.type, event.data.amount ?? null])).toEqual([
      ['authorization.request', '12.34'],
      ['transaction.settled', '12.34'],
      ['transaction.refund', '2.00'],
    ]);
  });

  it('refuses four digits that several cards end in, listing them, and sends nothing', async () => {
    const { cards } = await customerWithCards(2);
    const [a, b] = cards as [CardItem, CardItem];
    await t.database.db.execute(sql`update cards set last4 = '0007' where id in (${a.id}, ${b.id})`);
    const run = await viaDecider(...purchaseArgs('0007'));
    expect(run).toMatchObject({ code: 1, stdout: '' });
    expect(run.stderr).toContain('有 2 张卡片尾号为 0007，无法确定是哪一张；请用 --card ID 指定');
    expect(run.stderr).toContain(a.id);
    expect(run.stderr).toContain(b.id);
    const byId = await viaDecider(...purchaseArgs(a.id));
    expect(byId.code, byId.stderr).toBe(0);
    expect(received.map((event) => event.data.card_id)).toEqual([a.id]);
  });

  it('refuses bad input in 中文 with exit code 1 before sending anything', async () => {
    const { cards } = await customerWithCards(1);
    const card = (cards[0] as CardItem).id;
    const cases: Array<[string[], RegExp]> = [
      [['card:simulate-transaction', '--amount', '1.00', '--merchant', 'X'], /缺少 --card/],
      [['card:simulate-transaction', '--card', card, '--merchant', 'X'], /缺少 --amount/],
      [['card:simulate-transaction', '--card', card, '--amount', '1.00'], /缺少 --merchant/],
      [purchaseArgs(card).map((arg) => (arg === '12.34' ? '12.345' : arg)), /--amount 金额格式不正确/],
      [purchaseArgs(card).map((arg) => (arg === '12.34' ? '0' : arg)), /--amount 金额格式不正确/],
      [purchaseArgs(card).map((arg) => (arg === '7311' ? '73a1' : arg)), /--mcc 应为 4 位数字/],
      [purchaseArgs(card).map((arg) => (arg === 'us' ? 'usa' : arg)), /--country 应为两位字母/],
      [purchaseArgs(card, '--currency', 'dollars'), /--currency 应为三位字母/],
      [purchaseArgs(card, '--settle', '1.00', '--reverse'), /--settle、--reverse 只能选择其一/],
      [purchaseArgs(card, '--settle', 'some'), /--settle 金额格式不正确/],
      [purchaseArgs(card, '--refund', '12.35'), /--refund 12\.35 不能大于消费金额 12\.34/],
      [purchaseArgs('00000000-0000-4000-8000-000000000000'), /任何商户都没有卡片/],
      [purchaseArgs('0000', '--host', 'nowhere.example'), /no merchant has the host/],
      [['card:simulate-transaction', '--auth', 'x', '--card', card, '--reverse'], /--auth 针对已有的授权，不能同时给出 --card/],
      [['card:simulate-transaction', '--auth', 'x'], /--auth 需要同时给出/],
    ];
    for (const [argv, message] of cases) {
      const run = await viaDecider(...argv);
      expect(run.code, `${argv.join(' ')}: ${run.stderr}`).toBe(1);
      expect(run.stderr).toMatch(message);
      expect(run.stdout).toBe('');
    }
    await t.database.db.execute(sql`update cards set status = 'CARD_STATUS_INIT' where id = ${card}`);
    const unissued = await viaDecider(...purchaseArgs(card));
    expect(unissued.code).toBe(1);
    expect(unissued.stderr).toContain('尚未由发卡行开通');
    await t.database.db.execute(sql`update cards set status = 'NORMAL' where id = ${card}`);
    expect(received).toEqual([]);
  });

  it('says how to reach the simulator when none answers', async () => {
    const { cards } = await customerWithCards(1);
    const gone = await startIssuerSimulator({ port: 0, secret: SECRET, delayMs: 0, failRate: 0 });
    await gone.close();
    const run = await runOpsOn(t.database, purchaseArgs((cards[0] as CardItem).id), { ISSUER_SIM_PORT: new URL(gone.url).port, ISSUER_WEBHOOK_SECRET: SECRET });
    expect(run).toMatchObject({ code: 1, stdout: '' });
    expect(run.stderr).toContain('上没有发卡模拟器在运行');
    const badSecret = await runOpsOn(t.database, purchaseArgs((cards[0] as CardItem).id), { ISSUER_URL: decider.url, ISSUER_WEBHOOK_SECRET: `${SECRET}-other` });
    expect(badSecret.stderr).toContain('不接受请求签名');
    expect(received).toEqual([]);
  });
});

describe('ops card:simulate-traffic', () => {
  it("makes rate × seconds purchases in turn over the merchant's N newest NORMAL cards and sums up the decisions", async () => {
    const { cards } = await customerWithCards(3);
    // the newest is frozen: not one of the NORMAL cards the traffic is spread over
    await t.database.db.execute(sql`update cards set status = 'FREEZE' where id = ${cards[2]?.id ?? ''}`);
    decisions.push({ approved: false, decline_code: 'OVER_SINGLE_LIMIT' }, { approved: false, decline_code: 'OVER_SINGLE_LIMIT' });
    const run = await viaDecider('card:simulate-traffic', '--host', 'localhost', '--cards', '2', '--rate', '40', '--seconds', '0.25', '--json');
    expect(run.code, run.stderr).toBe(0);
    const summary = JSON.parse(run.stdout) as { decided: number; approved: number; declined: Record<string, number>; planned: number; cards: number; not_sent: number };
    expect(summary).toMatchObject({ planned: 10, decided: 10, approved: 8, declined: { OVER_SINGLE_LIMIT: 2 }, cards: 2, not_sent: 0 });
    await decider.simulator.settled();
    const asked = received.filter((event) => event.type === 'authorization.request');
    expect(asked).toHaveLength(10);
    expect(new Set(asked.map((event) => event.data.card_id))).toEqual(new Set([cards[1]?.id, cards[0]?.id]));
    await t.database.db.execute(sql`update cards set status = 'NORMAL' where id = ${cards[2]?.id ?? ''}`);

    const text = await viaDecider('card:simulate-traffic', '--host', 'localhost', '--cards', '1', '--rate', '10', '--seconds', '0.2');
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^2 purchases decided in [\d.]+ s over 1 cards at merchant \w+/);
    expect(text.stdout).toContain('approved 已批准');
    expect(text.stdout).toMatch(/portal decision time: p50 [\d.]+ ms, p99 [\d.]+ ms/);
  });

  it('refuses bad input in 中文 before sending anything', async () => {
    await customerWithCards(1);
    const merchant = await t.services.merchants.findByHost('localhost');
    const { items } = await t.services.cards.forOperator(merchant?.id ?? '', {});
    const normal = items.filter((card) => card.status === 'NORMAL').length;
    const cases: Array<[string[], RegExp]> = [
      [['card:simulate-traffic', '--cards', '1', '--rate', '1', '--seconds', '1'], /缺少 --host/],
      [['card:simulate-traffic', '--host', 'localhost', '--rate', '1', '--seconds', '1'], /缺少 --cards/],
      [['card:simulate-traffic', '--host', 'localhost', '--cards', '0', '--rate', '1', '--seconds', '1'], /--cards 应为 1 到 1000 之间的整数/],
      [['card:simulate-traffic', '--host', 'localhost', '--cards', '1', '--rate', 'fast', '--seconds', '1'], /--rate 应为大于 0/],
      [['card:simulate-traffic', '--host', 'localhost', '--cards', '1', '--rate', '1', '--seconds', '-1'], /--seconds/],
      [['card:simulate-traffic', '--host', 'nowhere.example', '--cards', '1', '--rate', '1', '--seconds', '1'], /no merchant has the host/],
      [['card:simulate-traffic', '--host', 'localhost', '--cards', String(normal + 1), '--rate', '1', '--seconds', '1'], /张使用中（NORMAL）的卡片，少于 --cards/],
    ];
    for (const [argv, message] of cases) {
      const run = await viaDecider(...argv);
      expect(run.code, `${argv.join(' ')}: ${run.stderr}`).toBeGreaterThan(0);
      expect(run.stderr).toMatch(message);
      expect(run.stdout).toBe('');
    }
    expect(received).toEqual([]);
  });
});
