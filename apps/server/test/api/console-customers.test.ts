/**
 * The console's customers: the search (phone, e-mail, verified name, deposit reference), one customer,
 * a card or a wallet frozen by an operator with a reason the customer reads (the TOTP code given again,
 * taken in the action's transaction), a station message, and the cards and transactions across
 * customers; each call for the roles that may make it, each action an audit row, one merchant's
 * operators seeing nothing of another's customers.
 */
import { randomUUID } from 'node:crypto';
import type { CardItem, OpenedAvailableAnswer } from '@portal/contract/cards';
import type { CustomerDetail, CustomerItem } from '@portal/contract/console-customers';
import { ConsoleCustomerErrorCode } from '@portal/contract/console-customers-errors';
import { ConsoleErrorCode } from '@portal/contract/console-errors';
import type { DepositInstructions } from '@portal/contract/funding';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.ts';
import { freshEmail, freshPhone, signIn, signUp } from '../helpers/accounts.ts';
import type { ApiClient } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { scriptedIssuerApp } from '../helpers/issuer.ts';
import { auditOf as auditRows, C, type ConsoleOperator, consoleOperators } from '../helpers/console.ts';
import { queryRows } from '../helpers/sql.ts';

const clock = new ManualClock(new Date('2026-12-02T02:00:10Z'));
const { t, issuer } = scriptedIssuerApp(clock);


type Operator = ConsoleOperator;
const { operator, code } = consoleOperators(() => t, clock, 'cust');
/** A code of the next 30-second step: each is taken once. */
const codeOf = (secret: string) => code({ secret });

interface Customer {
  id: string;
  phone: string;
  email: string;
  api: ApiClient;
  productId: string;
  reference: string;
}

/** A customer with a verified name, money in the wallet and a deposit reference. */
async function customer(host: string, realName: string): Promise<Customer> {
  const phone = freshPhone();
  const email = freshEmail('cust');
  const who = await signUp(t, host, { phone, email });
  const api = t.api(host, who.token);
  const { id } = await api.data<{ id: string }>('GET', '/account/info');
  const [merchant] = await queryRows<{ merchant_id: string }>(t.database.db, sql`select merchant_id from accounts where id = ${id}`);
  const verified = await api.put('/card/verification', { real_name: realName, id_number: '11010519491231002X' });
  expect(verified.code, verified.message).toBe(0);
  await t.services.ledger.recharge({ merchantId: merchant?.merchant_id as string, accountId: id, currency: 'USD', amount: 500_00n, key: `fund-${id}` });
  const { reference } = await api.data<DepositInstructions>('GET', '/wallet/deposit-instructions', { query: { currency: 'USD' } });
  const { products } = await api.data<OpenedAvailableAnswer>('GET', '/card/opened-available');
  const product = products.find((p) => p.name === '订阅支付卡');
  if (!product) throw new Error('no 订阅支付卡');
  return { id, phone, email, api, productId: product.id, reference };
}

async function issuedCard(who: Customer, nickname: string) {
  // each card a moment after the last: the lists' newest first is then one order
  clock.advance(1000);
  const opened = await who.api.post<CardItem>('/card', { product_id: who.productId, amount: '20.00', nickname }, { headers: { 'idempotency-key': randomUUID() } });
  expect(opened.code, opened.message).toBe(0);
  expect((await issuer.issue(opened.data.id)).status).toBe(200);
  return who.api.data<CardItem>('GET', `/card/${opened.data.id}`);
}

const auditOf = auditRows;

let admin: Operator;
let support: Operator;
let risk: Operator;
let finance: Operator;
let alice: Customer;
let bob: Customer;
beforeAll(async () => {
  [admin, support, risk, finance] = [await operator('localhost', 'ADMIN'), await operator('localhost', 'SUPPORT'), await operator('localhost', 'RISK'), await operator('localhost', 'FINANCE')];
  alice = await customer('localhost', '欧阳娜娜');
  bob = await customer('localhost', '司马光');
});

describe('the customer search', () => {
  it('finds a customer by the start of the phone, the e-mail, the verified name and the deposit reference, with wallet and cards', async () => {
    await issuedCard(alice, '搜索卡');
    const find = (keyword: string) => support.api.data<{ items: CustomerItem[]; total: number }>('GET', C('/customers'), { query: { keyword } });
    // the start of a phone number finds every customer whose number starts so
    expect((await find(alice.phone.slice(0, 7))).items.map((item) => item.account_id)).toContain(alice.id);
    for (const keyword of [alice.phone, alice.email.toUpperCase(), '欧阳娜', alice.reference.toLowerCase()]) {
      const found = await find(keyword);
      expect(
        found.items.map((item) => item.account_id),
        keyword,
      ).toContain(alice.id);
      expect(found.items.map((item) => item.account_id)).not.toContain(bob.id);
    }
    const [item] = (await find(alice.phone)).items;
    expect(item).toMatchObject({
      account_id: alice.id,
      phone_masked: `${alice.phone.slice(0, 3)}****${alice.phone.slice(-4)}`,
      email: alice.email,
      real_name: '欧阳娜娜',
      reference: alice.reference,
      cards: 1,
    });
    // 500.00 in, 20.00 on the card and its fees out
    expect(Number(item?.wallet.find((figure) => figure.currency === 'USD')?.available)).toBeLessThan(480);
    expect(JSON.stringify(item)).not.toContain(alice.phone);
    // a part that is no start finds nothing; % and _ match themselves
    expect((await find(alice.phone.slice(3))).items.map((i) => i.account_id)).not.toContain(alice.id);
    expect((await find('%')).total).toBe(0);
    expect((await find('_')).total).toBe(0);
    // no keyword: every customer, newest first
    const all = await support.api.data<{ items: CustomerItem[]; total: number }>('GET', C('/customers'), { query: { page_size: '100' } });
    expect(all.total).toBeGreaterThanOrEqual(2);
    const ids = all.items.map((i) => i.account_id);
    expect(ids.indexOf(bob.id)).toBeLessThan(ids.indexOf(alice.id));
  });

  it('answers the exact total below the cap, not capped', async () => {
    const found = await support.api.data<{ total: number; total_capped: boolean }>('GET', C('/customers'), { query: { keyword: alice.phone } });
    expect(found).toMatchObject({ total: 1, total_capped: false });
  });

  it('refuses a keyword too long, changing nothing', async () => {
    const refused = await support.api.get(C('/customers'), { query: { keyword: 'x'.repeat(101) } });
    expect(refused.code).toBe(1001);
    expect(refused.message).toBe('搜索内容最多100个字符');
  });
});

type SearchPage = { items: CustomerItem[]; total: number; total_capped: boolean; page: number; page_size: number };

describe('the count stops at the cap; every page is still the next matches, newest first', () => {
  // the same database served with a count cap of 1 (CUSTOMER_SEARCH_COUNT_CAP), the customers on a
  // merchant no other test here adds to: 22 whose phones start alike, ten of them alike further
  const host = 'purple.localhost';
  const base = `135${String(process.pid % 10_000).padStart(4, '0')}`;
  let capped: TestApp;
  let op: Operator;
  let merchantId: string;
  beforeAll(async () => {
    capped = await createTestApp({ database: t.database, clock, config: { customerSearchCountCap: 1 } });
    op = await operator(host, 'SUPPORT', capped);
    for (let i = 0; i < 22; i++) {
      clock.advance(1000);
      await signUp(capped, host, { phone: `${base}${String(i).padStart(4, '0')}`, email: freshEmail('capped') });
    }
    const [merchant] = await queryRows<{ merchant_id: string }>(t.database.db, sql`select merchant_id from merchant_hosts where host = ${host}`);
    merchantId = merchant?.merchant_id as string;
  });
  afterAll(() => capped?.close());

  /** The merchant's accounts whose owner's phone starts so, newest first, as the database orders them. */
  const newestFirst = async (start: string) =>
    (
      await queryRows<{ id: string }>(
        t.database.db,
        sql`select a.id from accounts a join members m on m.account_id = a.id and m.role = 'OWNER'
            where a.merchant_id = ${merchantId} and m.phone like ${`${start}%`} order by a.created_at desc, a.id desc`,
      )
    ).map((row) => row.id);
  const page = (query: Record<string, string>) => op.api.data<SearchPage>('GET', C('/customers'), { query });

  /** Every page of a keyword, 3 a page, until one comes back short. */
  async function everyPage(keyword: string) {
    const ids: string[] = [];
    for (let n = 1; n <= 20; n++) {
      const answer = await page({ keyword, page: String(n), page_size: '3' });
      expect(answer).toMatchObject({ total: 1, total_capped: true, page: n, page_size: 3 });
      ids.push(...answer.items.map((item) => item.account_id));
      if (answer.items.length < 3) break;
    }
    return ids;
  }

  it('answers the cap and total_capped when more match; the pages past it hold the rest in order', async () => {
    const all = await newestFirst(base);
    expect(all).toHaveLength(22);
    // 22 matches: the newest accounts walked and each tested
    expect(await everyPage(base)).toEqual(all);
    // 10 matches: gathered, and the accounts walked against them
    const ten = await newestFirst(`${base}001`);
    expect(ten).toHaveLength(10);
    expect(await everyPage(`${base}001`)).toEqual(ten);
    // one match: counted exactly
    const one = await page({ keyword: `${base}0007` });
    expect(one).toMatchObject({ total: 1, total_capped: false });
    expect(one.items.map((item) => item.account_id)).toEqual(await newestFirst(`${base}0007`));
    // none
    expect(await page({ keyword: `${base}9` })).toMatchObject({ total: 0, total_capped: false, items: [] });
  });

  it('lists every customer of the merchant the same way without a keyword', async () => {
    const all = (
      await queryRows<{ id: string }>(t.database.db, sql`select id from accounts where merchant_id = ${merchantId} order by created_at desc, id desc`)
    ).map((row) => row.id);
    expect(all.length).toBeGreaterThan(22);
    const ids: string[] = [];
    for (let n = 1; ids.length < all.length && n <= 20; n++) {
      const answer = await page({ page: String(n), page_size: '5' });
      expect(answer).toMatchObject({ total: 1, total_capped: true });
      ids.push(...answer.items.map((item) => item.account_id));
    }
    expect(ids).toEqual(all);
    // served with the cap of 1,000, the same search counts exactly
    const plain = await operator(host, 'SUPPORT');
    const exact = await plain.api.data<SearchPage>('GET', C('/customers'), { query: { keyword: base, page_size: '100' } });
    expect(exact).toMatchObject({ total: 22, total_capped: false });
    expect(exact.items.map((item) => item.account_id)).toEqual(await newestFirst(base));
  });
});

describe('one customer', () => {
  it('shows the wallet, cards, members, verification, sign-ins, deposits and messages, never a full card number', async () => {
    const card = await issuedCard(bob, '详情卡');
    await signIn(t, 'localhost', { phone: bob.phone });
    const detail = await support.api.data<CustomerDetail>('GET', C(`/customers/${bob.id}`));
    expect(detail.customer).toMatchObject({ account_id: bob.id, email: bob.email, real_name: '司马光', reference: bob.reference });
    expect(detail.wallet.status.status).toBe('BALANCE_STATUS_AVAILABLE');
    expect(detail.wallet.balances.find((b) => b.currency === 'USD')).toBeDefined();
    // the wallet's movements as the customer's own wallet page lists them
    const own = await bob.api.data<{ items: unknown[] }>('GET', '/balance/transactions', { query: { page_size: '10' } });
    expect(detail.wallet.recent).toEqual(own.items);
    expect(detail.cards.map((c) => c.id)).toEqual([card.id]);
    expect(detail.members.map((m) => m.role)).toEqual(['OWNER']);
    expect(detail.verification.basic?.real_name).toBe('司马光');
    expect(detail.verification.basic?.id_number_masked).not.toContain('19491231');
    expect(detail.sign_ins.length).toBeGreaterThan(0);
    const history = await bob.api.data<Array<{ id: string }>>('GET', '/account/login-history');
    expect(detail.sign_ins.map((attempt) => attempt.id)).toEqual(history.slice(0, 10).map((attempt) => attempt.id));
    expect(Array.isArray(detail.deposits)).toBe(true);
    expect(Array.isArray(detail.messages)).toBe(true);
    expect(JSON.stringify(detail)).not.toMatch(/\d{13,19}/);
    expect((await support.api.get(C(`/customers/${randomUUID()}`))).code).toBe(ConsoleCustomerErrorCode.CUSTOMER_NOT_FOUND);
    expect((await support.api.get(C('/customers/not-an-id'))).code).toBe(1001);
  });
});

describe('acting on a customer', () => {
  it("SUPPORT sends a message the customer reads; it is an audit row, written with the message", async () => {
    const sent = await support.api.post<{ id: string }>(C(`/customers/${alice.id}/messages`), { title: '资料补充', content: '请补充您的营业执照。' });
    expect(sent.code, sent.message).toBe(0);
    const inbox = await alice.api.data<{ items: Array<{ id: string; title: string; content: string }> }>('GET', '/msg-center/station-msg/list', { query: { page_size: '20' } });
    expect(inbox.items.find((m) => m.id === sent.data.id)).toMatchObject({ title: '资料补充', content: '请补充您的营业执照。' });
    const [row] = (await auditOf(admin, 'CUSTOMER_MESSAGED')).filter((item) => item.after?.message_id === sent.data.id);
    expect(row).toMatchObject({ actor: support.email, channel: 'CONSOLE', after: { title: '资料补充' } });
    const empty = await support.api.post(C(`/customers/${alice.id}/messages`), { title: ' ', content: 'x' });
    expect(empty.code).toBe(1001);
    expect(empty.message).toBe('请填写标题');
  });

  it('RISK freezes a card with a reason the holder reads (frozen by the platform), and lifts it; each is an audit row', async () => {
    const card = await issuedCard(alice, '风控卡');
    const frozen = await risk.api.put<CardItem>(C(`/cards/${card.id}/status`), { action: 'FREEZE', reason: '涉嫌违规交易', totp: await codeOf(risk.secret) });
    expect(frozen.code, frozen.message).toBe(0);
    expect(frozen.data).toMatchObject({ id: card.id, status: 'FREEZING', frozen_by: 'OPERATOR', status_reason: '涉嫌违规交易' });
    expect((await issuer.frozen(card.id)).status).toBe(200);
    expect(await alice.api.data<CardItem>('GET', `/card/${card.id}`)).toMatchObject({ status: 'FREEZE', frozen_by: 'OPERATOR', status_reason: '涉嫌违规交易' });
    // the holder cannot lift it
    expect((await alice.api.put(`/card/${card.id}/status`, { action: 'UNFREEZE' })).message).toBe('此卡由平台冻结，如需解冻请联系客服');
    // a second freeze is refused with its reason and changes nothing
    const again = await risk.api.put(C(`/cards/${card.id}/status`), { action: 'FREEZE', reason: '再次', totp: await codeOf(risk.secret) });
    expect(again.code).toBe(ConsoleCustomerErrorCode.CARD_FROZEN_ALREADY);
    expect((await alice.api.data<CardItem>('GET', `/card/${card.id}`)).status_reason).toBe('涉嫌违规交易');
    const audit = (await auditOf(admin, 'CARD_FROZEN')).filter((item) => item.target?.includes(card.id));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: risk.email, before: { status: 'NORMAL', frozen_by: null }, after: { status: 'FREEZING', frozen_by: 'OPERATOR', reason: '涉嫌违规交易' } });
    expect(JSON.stringify(audit)).not.toMatch(/\d{13,19}/);

    const lifted = await admin.api.put<CardItem>(C(`/cards/${card.id}/status`), { action: 'UNFREEZE', totp: await codeOf(admin.secret) });
    expect(lifted.code, lifted.message).toBe(0);
    expect(lifted.data.status).toBe('UNFREEZING');
    expect((await issuer.unfrozen(card.id)).status).toBe(200);
    expect(await alice.api.data<CardItem>('GET', `/card/${card.id}`)).toMatchObject({ status: 'NORMAL', frozen_by: null });
    expect((await auditOf(admin, 'CARD_UNFROZEN')).filter((item) => item.target?.includes(card.id))).toHaveLength(1);
    // a card in use is not frozen by the platform: nothing to lift
    expect((await risk.api.put(C(`/cards/${card.id}/status`), { action: 'UNFREEZE', totp: await codeOf(risk.secret) })).code).toBe(
      ConsoleCustomerErrorCode.CARD_NOT_FROZEN_BY_PLATFORM,
    );
  });

  it('a wrong code, a used code or no reason changes nothing; a wrong code is an audit row of its own', async () => {
    const card = await issuedCard(bob, '验证码卡');
    const before = JSON.stringify(await bob.api.data('GET', `/card/${card.id}`));
    const wrong = await risk.api.put(C(`/cards/${card.id}/status`), { action: 'FREEZE', reason: '测试', totp: '000000' });
    expect(wrong.code).toBe(ConsoleErrorCode.TOTP_WRONG);
    const code = await codeOf(risk.secret);
    expect((await risk.api.put(C(`/cards/${card.id}/status`), { action: 'FREEZE', reason: '', totp: code })).message).toBe('请填写原因（客户可见）');
    expect((await risk.api.put(C(`/cards/${card.id}/status`), { action: 'FREEZE', reason: '测试' })).code).toBe(1001);
    expect(JSON.stringify(await bob.api.data('GET', `/card/${card.id}`))).toBe(before);
    const failed = (await auditOf(admin, 'ACTION_CODE_FAILED')).filter((item) => item.actor === risk.email);
    expect(failed.length).toBeGreaterThanOrEqual(1);
    expect((await auditOf(admin, 'CARD_FROZEN')).filter((item) => item.target?.includes(card.id))).toHaveLength(0);
    // the right code once; the same code again is refused
    expect((await risk.api.put(C(`/cards/${card.id}/status`), { action: 'FREEZE', reason: '测试', totp: code })).code).toBe(0);
    await issuer.frozen(card.id);
    expect((await risk.api.put(C(`/cards/${card.id}/status`), { action: 'UNFREEZE', totp: code })).code).toBe(ConsoleErrorCode.TOTP_WRONG);
    expect((await bob.api.data<CardItem>('GET', `/card/${card.id}`)).status).toBe('FREEZE');
    const unknown = await risk.api.put(C(`/cards/${randomUUID()}/status`), { action: 'FREEZE', reason: '测试', totp: await codeOf(risk.secret) });
    expect(unknown.code).toBe(ConsoleCustomerErrorCode.CARD_NOT_FOUND);
  });

  it('RISK freezes the wallet with a reason the customer reads, and lifts it; each is an audit row', async () => {
    const frozen = await risk.api.put<{ status: string; reason: string }>(C(`/customers/${bob.id}/wallet-status`), {
      action: 'FREEZE',
      reason: '账户核查中',
      totp: await codeOf(risk.secret),
    });
    expect(frozen.code, frozen.message).toBe(0);
    expect(frozen.data).toMatchObject({ status: 'BALANCE_STATUS_FROZEN', reason: '账户核查中' });
    expect(await bob.api.data('GET', '/balance/account-balance-status')).toMatchObject({ status: 'BALANCE_STATUS_FROZEN', reason: '账户核查中' });
    expect((await risk.api.put(C(`/customers/${bob.id}/wallet-status`), { action: 'FREEZE', reason: '再次', totp: await codeOf(risk.secret) })).code).toBe(
      ConsoleCustomerErrorCode.WALLET_FROZEN_ALREADY,
    );
    const lifted = await risk.api.put<{ status: string }>(C(`/customers/${bob.id}/wallet-status`), { action: 'UNFREEZE', totp: await codeOf(risk.secret) });
    expect(lifted.data.status).toBe('BALANCE_STATUS_AVAILABLE');
    const rows = [...(await auditOf(admin, 'WALLET_FROZEN')), ...(await auditOf(admin, 'WALLET_UNFROZEN'))].filter((item) => item.target?.includes(bob.id));
    expect(rows.map((item) => item.action).sort()).toEqual(['WALLET_FROZEN', 'WALLET_UNFROZEN']);
  });
});

describe('cards and transactions across customers', () => {
  it("list every customer's cards with the portal's filters and the customer, and their transactions", async () => {
    const card = await issuedCard(bob, '跨客户卡');
    const all = await finance.api.data<{ items: Array<CardItem & { account_id: string }>; total: number }>('GET', C('/cards'), { query: { page_size: '100' } });
    const accounts = new Set(all.items.map((item) => item.account_id));
    expect(accounts.has(alice.id) && accounts.has(bob.id)).toBe(true);
    // newest first (the demo customers' cards of this host aside)
    expect(all.items.filter((item) => item.account_id === alice.id || item.account_id === bob.id)[0]?.id).toBe(card.id);
    const byLast4 = await finance.api.data<{ items: CardItem[] }>('GET', C('/cards'), { query: { keyword: card.last4 as string } });
    expect(byLast4.items.map((item) => item.id)).toContain(card.id);
    const bobs = await finance.api.data<{ items: Array<{ account_id: string }> }>('GET', C('/cards'), { query: { account_id: bob.id, status: 'NORMAL,FREEZE' } });
    expect(bobs.items.length).toBeGreaterThan(0);
    expect(bobs.items.every((item) => item.account_id === bob.id)).toBe(true);
    expect(JSON.stringify(all)).not.toMatch(/\d{13,19}/);
    clock.advance(1000);
    const auth = await issuer.send('authorization.request', { id: `auth_${randomUUID()}`, card_id: card.id, amount: '3.00', currency: 'USD', merchant_name: 'CONSOLE SHOP', mcc: '5734', country: 'US' });
    expect(auth.status).toBe(200);
    const transactions = await finance.api.data<{ items: Array<{ card_id: string; account_id: string; type: string; card_last4: string | null }> }>(
      'GET',
      C('/transactions'),
      { query: { type: 'CONSUME' } },
    );
    const row = transactions.items.find((item) => item.card_id === card.id);
    expect(row).toMatchObject({ account_id: bob.id, type: 'CONSUME', card_last4: card.last4 });
    const alices = await finance.api.data<{ items: Array<{ account_id: string }> }>('GET', C('/transactions'), { query: { account_id: alice.id } });
    expect(alices.items.every((item) => item.account_id === alice.id)).toBe(true);
  });
});

describe('roles', () => {
  it('each call is answered to the roles that may make it, and refused to the others with who may', async () => {
    const card = await issuedCard(alice, '角色卡');
    const calls: Array<{ name: string; allowed: string[]; make: (op: Operator) => Promise<{ code: number; message: string }> }> = [
      { name: 'search', allowed: ['ADMIN', 'SUPPORT', 'RISK', 'FINANCE'], make: (op) => op.api.get(C('/customers')) },
      { name: 'detail', allowed: ['ADMIN', 'SUPPORT', 'RISK', 'FINANCE'], make: (op) => op.api.get(C(`/customers/${alice.id}`)) },
      { name: 'cards', allowed: ['ADMIN', 'SUPPORT', 'RISK', 'FINANCE'], make: (op) => op.api.get(C('/cards')) },
      { name: 'transactions', allowed: ['ADMIN', 'SUPPORT', 'RISK', 'FINANCE'], make: (op) => op.api.get(C('/transactions')) },
      { name: 'message', allowed: ['ADMIN', 'SUPPORT'], make: (op) => op.api.post(C(`/customers/${alice.id}/messages`), { title: '角色', content: '角色测试' }) },
      {
        name: 'card status',
        allowed: ['ADMIN', 'RISK'],
        // a freeze the allowed role makes, lifted again so that the next one can freeze
        make: async (op) => {
          const answer = await op.api.put(C(`/cards/${card.id}/status`), { action: 'FREEZE', reason: '角色', totp: await codeOf(op.secret) });
          if (answer.code === 0) {
            await issuer.frozen(card.id);
            await admin.api.put(C(`/cards/${card.id}/status`), { action: 'UNFREEZE', totp: await codeOf(admin.secret) });
            await issuer.unfrozen(card.id);
          }
          return answer;
        },
      },
      {
        name: 'wallet status',
        allowed: ['ADMIN', 'RISK'],
        make: async (op) => {
          const answer = await op.api.put(C(`/customers/${alice.id}/wallet-status`), { action: 'FREEZE', reason: '角色', totp: await codeOf(op.secret) });
          if (answer.code === 0) await admin.api.put(C(`/customers/${alice.id}/wallet-status`), { action: 'UNFREEZE', totp: await codeOf(admin.secret) });
          return answer;
        },
      },
    ];
    const roles: Record<string, Operator> = { ADMIN: admin, SUPPORT: support, RISK: risk, FINANCE: finance };
    for (const call of calls) {
      for (const [role, op] of Object.entries(roles)) {
        const answer = await call.make(op);
        if (call.allowed.includes(role)) expect(answer.code, `${call.name} as ${role}: ${answer.message}`).toBe(0);
        else {
          expect(answer.code, `${call.name} as ${role}`).toBe(ConsoleErrorCode.ROLE_DENIED);
          expect(answer.message).toMatch(/^权限不足：仅/);
        }
      }
    }
    // a refused role changed nothing
    expect((await alice.api.data<CardItem>('GET', `/card/${card.id}`)).status).toBe('NORMAL');
    expect(await alice.api.data('GET', '/balance/account-balance-status')).toMatchObject({ status: 'BALANCE_STATUS_AVAILABLE' });
  });
});

describe('tenants', () => {
  it("another merchant's operator finds none of this merchant's customers, cards or transactions, and can act on none", async () => {
    const red = await operator('red.localhost', 'ADMIN');
    const card = await issuedCard(alice, '租户卡');
    const search = await red.api.data<{ items: CustomerItem[]; total: number }>('GET', C('/customers'), { query: { keyword: alice.phone, page_size: '100' } });
    expect(search.total).toBe(0);
    const every = await red.api.data<{ items: CustomerItem[] }>('GET', C('/customers'), { query: { page_size: '100' } });
    expect(every.items.map((item) => item.account_id)).not.toContain(alice.id);
    expect((await red.api.get(C(`/customers/${alice.id}`))).code).toBe(ConsoleCustomerErrorCode.CUSTOMER_NOT_FOUND);
    const cards = await red.api.data<{ items: CardItem[] }>('GET', C('/cards'), { query: { page_size: '100' } });
    expect(cards.items.map((item) => item.id)).not.toContain(card.id);
    expect((await red.api.data<{ items: unknown[] }>('GET', C('/cards'), { query: { account_id: alice.id } })).items).toEqual([]);
    expect((await red.api.data<{ items: unknown[] }>('GET', C('/transactions'), { query: { account_id: alice.id } })).items).toEqual([]);
    const freeze = await red.api.put(C(`/cards/${card.id}/status`), { action: 'FREEZE', reason: '越权', totp: await codeOf(red.secret) });
    expect(freeze.code).toBe(ConsoleCustomerErrorCode.CARD_NOT_FOUND);
    expect((await red.api.post(C(`/customers/${alice.id}/messages`), { title: '越权', content: '越权' })).code).toBe(ConsoleCustomerErrorCode.CUSTOMER_NOT_FOUND);
    expect(
      (await red.api.put(C(`/customers/${alice.id}/wallet-status`), { action: 'FREEZE', reason: '越权', totp: await codeOf(red.secret) })).code,
    ).toBe(ConsoleCustomerErrorCode.CUSTOMER_NOT_FOUND);
    expect((await alice.api.data<CardItem>('GET', `/card/${card.id}`)).status).toBe('NORMAL');
    // this merchant's operator token is no operator on red's host
    expect((await t.api('red.localhost', admin.token).get(C('/customers'))).code).toBe(ConsoleErrorCode.SESSION_INVALID);
  });
});
