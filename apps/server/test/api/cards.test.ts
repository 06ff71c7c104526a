import type { CardItem, CardPage, CardSummaryAnswer, CardTransactionPage, OpenedAvailableAnswer, RechargeAnswer, RevealAnswer } from '@portal/contract/cards';
import { CardErrorCode } from '@portal/contract/card-errors';
import { ErrorCode } from '@portal/contract/errors';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.ts';
import { ISSUER_REFUSED_REASON } from '../../src/modules/cards/service.ts';
import { lastCode, phoneTo, signIn, signUp } from '../helpers/accounts.ts';
import type { ApiClient } from '../helpers/api.ts';
import { scriptedIssuerApp } from '../helpers/issuer.ts';
import { expectSoundBooks } from '../helpers/ledger.ts';
import { openEventStream } from '../helpers/sse.ts';

const clock = new ManualClock(new Date('2026-11-24T08:00:00Z'));
const { t, issuer } = scriptedIssuerApp(clock);

const ID_NUMBER = '11010519491231002X';
let serial = 0;
const key = () => `test-key-${Date.now().toString(36)}-${++serial}`;
const rows = async (query: ReturnType<typeof sql>) => ((await t.database.db.execute(query)) as unknown as { rows: Array<Record<string, unknown>> }).rows;

interface Customer {
  id: string;
  phone: string;
  token: string;
  api: ApiClient;
  merchantId: string;
}

/** A signed-up customer, verified (basic and secondary unless told) and with money in the wallet. */
async function customer(options: { host?: string; usd?: bigint; verify?: 'none' | 'basic' | 'both'; phone?: string } = {}): Promise<Customer> {
  const host = options.host ?? 'localhost';
  const who = await signUp(t, host, options.phone ? { phone: options.phone } : {});
  const api = t.api(host, who.token);
  const { id } = await api.data<{ id: string }>('GET', '/account/info');
  const merchantId = String((await rows(sql`select merchant_id from accounts where id = ${id}`))[0]?.merchant_id);
  const verify = options.verify ?? 'both';
  if (verify !== 'none') await api.data('PUT', '/card/verification', { body: { real_name: '张三', id_number: ID_NUMBER } });
  if (verify === 'both') await api.data('PUT', '/card/verification', { body: { latin_name: 'Zhang San', website: 'https://shop.example.com' } });
  const usd = options.usd ?? 1000_00n;
  if (usd > 0n) await t.services.ledger.recharge({ merchantId, accountId: id, currency: 'USD', amount: usd, key: `fund-${id}-${usd}` });
  return { id, phone: who.phone, token: who.token, api, merchantId };
}

async function products(who: Customer) {
  const { products } = await who.api.data<OpenedAvailableAnswer>('GET', '/card/opened-available');
  const byName = (name: string) => {
    const product = products.find((p) => p.name === name);
    if (!product) throw new Error(`no product ${name}`);
    return product;
  };
  return { all: products, ads: byName('广告投放卡'), subscription: byName('订阅支付卡'), cny: byName('人民币消费卡') };
}

const wallet = async (who: Customer, currency = 'USD') => {
  const items = await who.api.data<Array<{ currency: string; available: string; anew: string }>>('GET', '/balance/account-balance');
  const item = items.find((i) => i.currency === currency);
  return { available: item?.available ?? '0.00', held: item?.anew ?? '0.00' };
};

async function open(who: Customer, body: { product_id: string; amount: string; nickname: string }, idempotency = key()) {
  return who.api.post<CardItem>('/card', body, { headers: { 'idempotency-key': idempotency } });
}

/** Opens a card of the subscription product (no secondary data needed) and has the issuer issue it. */
async function issuedCard(who: Customer, amount = '20.00', nickname = '订阅卡') {
  const { subscription } = await products(who);
  const opened = await open(who, { product_id: subscription.id, amount, nickname });
  expect(opened.code, opened.message).toBe(0);
  const issued = await issuer.issue(opened.data.id);
  expect(issued.status).toBe(200);
  return { card: await who.api.data<CardItem>('GET', `/card/${opened.data.id}`), numbers: issued.numbers };
}

const money = (who: Customer, id: string, path: 'recharge' | 'withdraw', amount: string, idempotency = key()) =>
  who.api.post<RechargeAnswer>(`/card/${id}/${path}`, { amount }, { headers: { 'idempotency-key': idempotency } });

describe('demo data', () => {
  it("gives each demo merchant's demo account its verification and two cards: one in use, one frozen by its owner", async () => {
    for (const host of ['localhost', 'orange.localhost']) {
      const merchant = await t.services.merchants.findByHost(host);
      if (!merchant) throw new Error(`no merchant at ${host}`);
      const demo = await t.services.directory.findByPhone(merchant.id, '86', '13800138000');
      if (!demo) throw new Error('no demo account');
      const { items } = await t.services.cards.forOperator(merchant.id, { accountId: demo.id });
      expect(items.map((card) => [card.nickname, card.status, card.frozen_by, card.balance]).sort()).toEqual([
        ['Meta 广告投放', 'NORMAL', null, '300.00'],
        ['软件订阅', 'FREEZE', 'CUSTOMER', '50.00'],
      ]);
      for (const card of items) expect(card.last4).toMatch(/^\d{4}$/);
      const verification = await t.services.products.verification(merchant.id, demo.id);
      expect(verification.basic?.real_name).toBe('演示用户');
      expect(verification.secondary?.latin_name).toBe('Demo User');
    }
    await expectSoundBooks(t.database.db);
  });
});

describe('GET /card/opened-available', () => {
  it("answers what the account has given and the merchant's products with how many more it may open", async () => {
    const who = await customer({ verify: 'none' });
    const answer = await who.api.data<OpenedAvailableAnswer>('GET', '/card/opened-available');
    expect(answer.verification).toEqual({ basic: false, secondary: false });
    expect(answer.products.map((p) => [p.name, p.brand, p.bin, p.currency, p.open_fee, p.needs_secondary])).toEqual([
      ['广告投放卡', 'VISA', '42424242', 'USD', '5.00', true],
      ['订阅支付卡', 'MASTERCARD', '55555555', 'USD', '2.00', false],
      ['人民币消费卡', 'VISA', '40000015', 'CNY', '10.00', false],
    ]);
    for (const product of answer.products) expect(product.remaining).toBe(product.per_account_limit);
    await who.api.data('PUT', '/card/verification', { body: { real_name: '张三', id_number: ID_NUMBER } });
    expect((await who.api.data<OpenedAvailableAnswer>('GET', '/card/opened-available')).verification).toEqual({ basic: true, secondary: false });
  });
});

describe('POST /card: opening', () => {
  it('holds fee, first load and top-up fee at once; the issued card posts them as 开卡 and 转出 and is in use', async () => {
    const who = await customer();
    const { ads } = await products(who);
    const opened = await open(who, { product_id: ads.id, amount: '100.00', nickname: '  Meta 广告 ' });
    expect(opened.code, opened.message).toBe(0);
    const card = opened.data;
    expect(card).toMatchObject({ status: 'CARD_STATUS_INIT', nickname: 'Meta 广告', last4: null, balance: '0.00', brand: 'VISA', currency: 'USD', actions: [] });
    // 5.00 + 100.00 + 1.50 (1.5 % of 100, within [0.50, 50.00])
    expect(await wallet(who)).toEqual({ available: '893.50', held: '106.50' });
    expect(issuer.requests.find((r) => r.cardId === card.id)?.request).toEqual({
      card_id: card.id,
      product: { bin: '42424242', brand: 'VISA', currency: 'USD' },
      holder: { real_name: '张三', latin_name: 'Zhang San' },
    });

    const { numbers } = await issuer.issue(card.id);
    const issued = await who.api.data<CardItem>('GET', `/card/${card.id}`);
    expect(issued).toMatchObject({ status: 'NORMAL', last4: numbers.pan.slice(-4), balance: '100.00', held: '0.00' });
    expect(issued.actions).toEqual(['FREEZE', 'RECHARGE', 'WITHDRAW', 'DELETE']);
    expect(await wallet(who)).toEqual({ available: '893.50', held: '0.00' });
    expect(await who.api.data('GET', '/balance/card-amount')).toEqual([
      { currency: 'USD', amount: '100.00' },
      { currency: 'CNY', amount: '0.00' },
    ]);

    const walletRows = await who.api.data<{ items: Array<{ type: string; amount: string; memo: string }> }>('GET', '/balance/transactions');
    // each row says which card it paid for and what the fee was
    expect(walletRows.items.find((row) => row.type === 'TRANSFER_OUT_TO_CARD')?.memo).toBe(`首充 100.00，手续费 1.50（尾号 ${numbers.pan.slice(-4)} 卡片）`);
    expect(walletRows.items.find((row) => row.type === 'OPEN_CARD')?.memo).toBe(`开卡费（尾号 ${numbers.pan.slice(-4)} 卡片）`);
    expect(walletRows.items.slice(0, 2).map((row) => [row.type, row.amount])).toEqual(
      expect.arrayContaining([
        ['OPEN_CARD', '-5.00'],
        ['TRANSFER_OUT_TO_CARD', '-101.50'],
      ]),
    );
    const cardRows = await who.api.data<CardTransactionPage>('GET', `/card/${card.id}/transactions`);
    expect(cardRows.items.map((row) => [row.type, row.status, row.amount])).toEqual([['TRANSFER_IN', 'CLOSED', '100.00']]);
    await expectSoundBooks(t.database.db);
  });

  it('answers the same card for the same Idempotency-Key, holds once, and refuses the key with another body', async () => {
    const who = await customer();
    const { subscription } = await products(who);
    const k = key();
    const body = { product_id: subscription.id, amount: '10.00', nickname: '重试卡' };
    const [first, second] = await Promise.all([open(who, body, k), open(who, body, k)]);
    expect(first.code, first.message).toBe(0);
    expect(second.code, second.message).toBe(0);
    expect(second.data.id).toBe(first.data.id);
    const third = await open(who, body, k);
    expect(third.data.id).toBe(first.data.id);
    // 2.00 + 10.00 + 0.40 (1 % + 0.30)
    expect(await wallet(who)).toEqual({ available: '987.60', held: '12.40' });
    const conflict = await open(who, { ...body, amount: '11.00' }, k);
    expect(conflict.code).toBe(ErrorCode.IDEMPOTENCY_CONFLICT);
    expect((await who.api.data<CardPage>('GET', '/card')).total).toBe(1);
  });

  it('refuses, with a clear code and nothing changed: no key, bad body, unknown or off product, below the minimum, above the maximum, unverified, no secondary data, too little money, frozen wallet, quota used', async () => {
    const unverified = await customer({ verify: 'none' });
    const basicOnly = await customer({ verify: 'basic' });
    const poor = await customer({ usd: 3_00n });
    const frozen = await customer();
    await t.services.wallet.freeze({ merchantId: frozen.merchantId, accountId: frozen.id, reason: '风控审核' });
    const { ads, subscription } = await products(poor);

    const cases: Array<[Customer, () => Promise<{ code: number; message: string; data: unknown }>, number, string?]> = [
      [poor, () => poor.api.post('/card', { product_id: subscription.id, amount: '10.00', nickname: 'x' }), CardErrorCode.IDEMPOTENCY_KEY_MISSING],
      [poor, () => open(poor, { product_id: subscription.id, amount: '10.001', nickname: 'x' }), ErrorCode.VALIDATION],
      [poor, () => open(poor, { product_id: subscription.id, amount: '10.00', nickname: '' }), ErrorCode.VALIDATION],
      [poor, () => open(poor, { product_id: subscription.id, amount: '10.00', nickname: '一二三四五六七八九十一二三四五六七八九十一' }), ErrorCode.VALIDATION],
      [poor, () => open(poor, { product_id: 'not-a-product', amount: '10.00', nickname: 'x' }), CardErrorCode.PRODUCT_UNAVAILABLE],
      [poor, () => open(poor, { product_id: subscription.id, amount: '4.99', nickname: 'x' }), CardErrorCode.CARD_AMOUNT_BELOW_MIN, '首充金额不能低于5.00 USD'],
      [poor, () => open(poor, { product_id: subscription.id, amount: '999999.00', nickname: 'x' }), CardErrorCode.CARD_BALANCE_ABOVE_MAX],
      [unverified, () => open(unverified, { product_id: subscription.id, amount: '10.00', nickname: 'x' }), CardErrorCode.CARD_NOT_VERIFIED, '请先完成实名认证'],
      [basicOnly, () => open(basicOnly, { product_id: ads.id, amount: '10.00', nickname: 'x' }), CardErrorCode.CARD_SECONDARY_REQUIRED],
      [poor, () => open(poor, { product_id: subscription.id, amount: '10.00', nickname: 'x' }), ErrorCode.INSUFFICIENT_FUNDS, '钱包可用余额不足（可用 3.00 USD）'],
      [frozen, () => open(frozen, { product_id: subscription.id, amount: '10.00', nickname: 'x' }), ErrorCode.WALLET_FROZEN],
    ];
    for (const [who, act, code, message] of cases) {
      const before = JSON.stringify([await wallet(who), await who.api.data('GET', '/card')]);
      const answer = await act();
      expect(answer.code, `${answer.message} for ${code}`).toBe(code);
      if (message) expect(answer.message).toBe(message);
      expect(JSON.stringify([await wallet(who), await who.api.data('GET', '/card')])).toBe(before);
    }

    await t.services.products.update(poor.merchantId, { id: subscription.id }, { status: 'OFF' });
    try {
      expect((await open(basicOnly, { product_id: subscription.id, amount: '10.00', nickname: 'x' })).code).toBe(CardErrorCode.PRODUCT_UNAVAILABLE);
      expect((await basicOnly.api.data<OpenedAvailableAnswer>('GET', '/card/opened-available')).products.map((p) => p.name)).not.toContain('订阅支付卡');
    } finally {
      await t.services.products.update(poor.merchantId, { id: subscription.id }, { status: 'ON' });
    }

    await t.services.products.update(poor.merchantId, { id: subscription.id }, { perAccountLimit: 1 });
    try {
      expect((await open(basicOnly, { product_id: subscription.id, amount: '10.00', nickname: '一' })).code).toBe(0);
      const refused = await open(basicOnly, { product_id: subscription.id, amount: '10.00', nickname: '二' });
      expect(refused.code).toBe(CardErrorCode.CARD_QUOTA_USED);
      expect(refused.message).toBe('该卡产品的开卡数量已达上限（1张）');
      const available = await basicOnly.api.data<OpenedAvailableAnswer>('GET', '/card/opened-available');
      expect(available.products.find((p) => p.id === subscription.id)?.remaining).toBe(0);
    } finally {
      await t.services.products.update(poor.merchantId, { id: subscription.id }, { perAccountLimit: 50 });
    }
  });

  it("an issuer's failure fails the card with its reason, releases the hold to the cent and says why in a message", async () => {
    const who = await customer();
    const { subscription } = await products(who);
    const opened = await open(who, { product_id: subscription.id, amount: '33.33', nickname: '会失败的卡' });
    expect(await wallet(who)).not.toEqual({ available: '1000.00', held: '0.00' });
    const failed = await issuer.fail(opened.data.id, '持卡人信息未通过审核');
    expect(failed.status).toBe(200);
    const card = await who.api.data<CardItem>('GET', `/card/${opened.data.id}`);
    expect(card).toMatchObject({ status: 'FAIL', failure_reason: '持卡人信息未通过审核', actions: [] });
    expect(await wallet(who)).toEqual({ available: '1000.00', held: '0.00' });
    const messages = await rows(sql`select title, content from station_messages where account_id = ${who.id} and type = 'CARD_FAILED'`);
    expect(messages).toHaveLength(1);
    expect(String(messages[0]?.content)).toContain('持卡人信息未通过审核');
    // a late card.issued for a failed card moves nothing
    await issuer.issue(opened.data.id);
    expect((await who.api.data<CardItem>('GET', `/card/${opened.data.id}`)).status).toBe('FAIL');
    expect(await wallet(who)).toEqual({ available: '1000.00', held: '0.00' });
    await expectSoundBooks(t.database.db);
  });

  it('an issuer that does not take the request leaves the card failed and the money back at once', async () => {
    const who = await customer();
    const { subscription } = await products(who);
    issuer.state.down = true;
    try {
      const opened = await open(who, { product_id: subscription.id, amount: '10.00', nickname: '无法受理' });
      expect(opened.code).toBe(0);
      expect(opened.data).toMatchObject({ status: 'FAIL', failure_reason: ISSUER_REFUSED_REASON });
    } finally {
      issuer.state.down = false;
    }
    expect(await wallet(who)).toEqual({ available: '1000.00', held: '0.00' });
  });
});

describe('live status', () => {
  it("tells the holder's open tabs each status change as a CARD_STATUS event, and no one else's", async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    const who = await customer();
    const other = await customer();
    const tab = await openEventStream(base, 'localhost', who.token);
    const otherTab = await openEventStream(base, 'localhost', other.token);
    try {
      const { subscription } = await products(who);
      const opened = await open(who, { product_id: subscription.id, amount: '10.00', nickname: '实时' });
      await issuer.issue(opened.data.id);
      const event = await tab.next((e) => e.type === 'CARD_STATUS' && e.card_status === 'NORMAL');
      expect(event).toMatchObject({ type: 'CARD_STATUS', card_id: opened.data.id, card_status: 'NORMAL' });
      await who.api.data('PUT', `/card/${opened.data.id}/status`, { body: { action: 'FREEZE' } });
      await tab.next((e) => e.type === 'CARD_STATUS' && e.card_status === 'FREEZING');
      expect(otherTab.events.filter((e) => e.type === 'CARD_STATUS')).toEqual([]);
    } finally {
      tab.close();
      otherTab.close();
    }
  });
});

describe('the webhook moves money once', () => {
  it('a replayed event is answered as a repeat and moves nothing; a forged one answers 401 and changes nothing', async () => {
    const who = await customer();
    const { subscription } = await products(who);
    const opened = await open(who, { product_id: subscription.id, amount: '10.00', nickname: '重放' });
    const forged = await issuer.send('card.issued', { card_id: opened.data.id, pan: '5555555555554444', cvv: '123', exp_month: '01', exp_year: '2030' }, {
      secret: 'not-the-issuers-secret-not-the-issuers-secret',
    });
    expect(forged.status).toBe(401);
    expect((await who.api.data<CardItem>('GET', `/card/${opened.data.id}`)).status).toBe('CARD_STATUS_INIT');

    const first = await issuer.issue(opened.data.id, { id: 'evt-replay-1' });
    expect(first.body.data).toMatchObject({ duplicate: false });
    const after = JSON.stringify([await wallet(who), await who.api.data('GET', `/card/${opened.data.id}`)]);
    const replay = await issuer.send('card.issued', JSON.parse(first.raw).data, { id: 'evt-replay-1' });
    expect(replay.body.data).toMatchObject({ duplicate: true });
    // the same card.issued under a new id: the card is issued already, nothing moves either
    await issuer.issue(opened.data.id);
    expect(JSON.stringify([await wallet(who), await who.api.data('GET', `/card/${opened.data.id}`)])).toBe(after);
    await expectSoundBooks(t.database.db);
  });

  it('refuses a card.issued without proper numbers (400) and records nothing, so the corrected one is processed', async () => {
    const who = await customer();
    const { subscription } = await products(who);
    const opened = await open(who, { product_id: subscription.id, amount: '10.00', nickname: '坏事件' });
    const bad = await issuer.send('card.issued', { card_id: opened.data.id, pan: '1234', cvv: '1', exp_month: '13', exp_year: '99' }, { id: 'evt-bad-1' });
    expect(bad.status).toBe(400);
    expect((await who.api.data<CardItem>('GET', `/card/${opened.data.id}`)).status).toBe('CARD_STATUS_INIT');
    expect((await issuer.issue(opened.data.id)).status).toBe(200);
    expect((await who.api.data<CardItem>('GET', `/card/${opened.data.id}`)).status).toBe('NORMAL');
  });

  it('keeps no card number or CVV in clear anywhere in the database', async () => {
    const who = await customer();
    const { numbers } = await issuedCard(who);
    const tables = await rows(sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`);
    for (const { table_name } of tables) {
      const dump = await rows(sql.raw(`select coalesce(string_agg(row_to_json(t)::text, ''), '') as text from "${String(table_name)}" t`));
      const text = String(dump[0]?.text ?? '');
      expect(text.includes(numbers.pan), `${table_name} holds the number`).toBe(false);
      expect(text.includes(numbers.pan.slice(0, 12)), `${table_name} holds the number's start`).toBe(false);
    }
    const stored = await rows(sql`select secret_sealed, sealed_key_id, last4 from cards where last4 = ${numbers.pan.slice(-4)} and account_id = ${who.id}`);
    expect(String(stored[0]?.secret_sealed)).toMatch(/^v1\./);
    expect(stored[0]?.sealed_key_id).toBe('v1');
    expect(String(stored[0]?.secret_sealed)).not.toContain(numbers.cvv);
  });
});

describe('freeze, unfreeze and cancel (spec §4)', () => {
  it('walks FREEZE → FREEZING → FREEZE → UNFREEZING → NORMAL with the issuer, and refuses what each status does not allow', async () => {
    const who = await customer();
    const { card } = await issuedCard(who);
    const put = (action: string) => who.api.put<CardItem>(`/card/${card.id}/status`, { action });

    expect((await put('UNFREEZE')).code).toBe(CardErrorCode.CARD_ACTION_NOT_ALLOWED);
    const freezing = await put('FREEZE');
    expect(freezing.data).toMatchObject({ status: 'FREEZING', frozen_by: 'CUSTOMER', actions: ['UNFREEZE'] });
    expect(issuer.requests.at(-1)).toMatchObject({ kind: 'freeze', cardId: card.id });
    const refusedTopUp = await money(who, card.id, 'recharge', '1.00');
    expect(refusedTopUp.code).toBe(CardErrorCode.CARD_ACTION_NOT_ALLOWED);
    expect(refusedTopUp.message).toBe('卡片当前状态为冻结中，不能充值');

    await issuer.frozen(card.id);
    const frozen = await who.api.data<CardItem>('GET', `/card/${card.id}`);
    expect(frozen).toMatchObject({ status: 'FREEZE', actions: ['UNFREEZE', 'WITHDRAW', 'DELETE'] });
    const again = await put('FREEZE');
    expect(again.code).toBe(CardErrorCode.CARD_ACTION_NOT_ALLOWED);
    expect(again.message).toBe('卡片当前状态为已冻结，不能冻结');
    // a withdrawal from a frozen card is allowed
    expect((await money(who, card.id, 'withdraw', '1.00')).code).toBe(0);

    expect((await put('UNFREEZE')).data).toMatchObject({ status: 'UNFREEZING', actions: [] });
    await issuer.unfrozen(card.id);
    expect(await who.api.data<CardItem>('GET', `/card/${card.id}`)).toMatchObject({ status: 'NORMAL', frozen_by: null });
  });

  it('tolerates the issuer answering out of order: an unfreeze confirmed before the freeze leaves the card in use', async () => {
    const who = await customer();
    const { card } = await issuedCard(who);
    await who.api.data('PUT', `/card/${card.id}/status`, { body: { action: 'FREEZE' } });
    await who.api.data('PUT', `/card/${card.id}/status`, { body: { action: 'UNFREEZE' } });
    await issuer.unfrozen(card.id);
    await issuer.frozen(card.id);
    expect(await who.api.data<CardItem>('GET', `/card/${card.id}`)).toMatchObject({ status: 'NORMAL', frozen_by: null });
  });

  it('an issuer that does not take a freeze answers 4012 and leaves the card as it was', async () => {
    const who = await customer();
    const { card } = await issuedCard(who);
    issuer.state.down = true;
    try {
      expect((await who.api.put(`/card/${card.id}/status`, { action: 'FREEZE' })).code).toBe(CardErrorCode.ISSUER_UNAVAILABLE);
    } finally {
      issuer.state.down = false;
    }
    expect(await who.api.data<CardItem>('GET', `/card/${card.id}`)).toMatchObject({ status: 'NORMAL', frozen_by: null });
  });

  it("an operator's or the issuer's freeze cannot be undone by the holder, and says who froze it", async () => {
    const who = await customer();
    const { card } = await issuedCard(who);
    const [stored] = (await t.services.cards.forOperator(who.merchantId, { id: card.id })).rows;
    if (!stored) throw new Error('no card for the operator');
    await t.services.cards.operatorFreeze(stored.card, '涉嫌违规交易');
    await issuer.frozen(card.id);
    const frozen = await who.api.data<CardItem>('GET', `/card/${card.id}`);
    expect(frozen).toMatchObject({ status: 'FREEZE', frozen_by: 'OPERATOR', status_reason: '涉嫌违规交易', actions: ['WITHDRAW'] });
    const refused = await who.api.put(`/card/${card.id}/status`, { action: 'UNFREEZE' });
    expect(refused.code).toBe(CardErrorCode.CARD_FROZEN_BY_OTHERS);
    expect(refused.message).toBe('此卡由平台冻结，如需解冻请联系客服');
    expect((await who.api.delete(`/card/${card.id}`)).code).toBe(CardErrorCode.CARD_ACTION_NOT_ALLOWED);

    const other = await issuedCard(who, '10.00', '发卡机构冻结');
    await issuer.frozen(other.card.id, { initiator: 'ISSUER', reason: '疑似盗刷' });
    expect(await who.api.data<CardItem>('GET', `/card/${other.card.id}`)).toMatchObject({ status: 'FREEZE', frozen_by: 'ISSUER', status_reason: '疑似盗刷' });
    expect((await who.api.put(`/card/${other.card.id}/status`, { action: 'UNFREEZE' })).message).toBe('此卡由发卡机构冻结，如需解冻请联系客服');
    await issuer.unfrozen(other.card.id, { initiator: 'ISSUER' });
    expect(await who.api.data<CardItem>('GET', `/card/${other.card.id}`)).toMatchObject({ status: 'NORMAL', frozen_by: null });
  });

  it('cancelling moves the card to DELETING, and the issuer’s confirmation returns its whole balance to the wallet', async () => {
    const who = await customer();
    const { card } = await issuedCard(who, '40.00');
    const before = await wallet(who);
    const deleting = await who.api.delete<CardItem>(`/card/${card.id}`);
    expect(deleting.data).toMatchObject({ status: 'DELETING', actions: [] });
    expect((await money(who, card.id, 'recharge', '1.00')).code).toBe(CardErrorCode.CARD_ACTION_NOT_ALLOWED);
    clock.advance(1_000);
    await issuer.closed(card.id);
    const closed = await who.api.data<CardItem>('GET', `/card/${card.id}`);
    expect(closed).toMatchObject({ status: 'DELETE', balance: '0.00', actions: [] });
    expect(Number((await wallet(who)).available)).toBeCloseTo(Number(before.available) + 40, 2);
    const cardRows = await who.api.data<CardTransactionPage>('GET', `/card/${card.id}/transactions`);
    expect(cardRows.items.map((row) => [row.type, row.amount])).toEqual([
      ['TRANSFER_OUT', '40.00'],
      ['TRANSFER_IN', '40.00'],
    ]);
    // a second confirmation changes nothing
    await issuer.closed(card.id);
    expect((await who.api.delete(`/card/${card.id}`)).code).toBe(CardErrorCode.CARD_ACTION_NOT_ALLOWED);
    await expectSoundBooks(t.database.db);
  });

  it('refuses cancelling a card still being opened', async () => {
    const who = await customer();
    const { subscription } = await products(who);
    const opened = await open(who, { product_id: subscription.id, amount: '10.00', nickname: '申请中' });
    const refused = await who.api.delete(`/card/${opened.data.id}`);
    expect(refused.code).toBe(CardErrorCode.CARD_ACTION_NOT_ALLOWED);
    expect(refused.message).toBe('卡片当前状态为申请中，不能注销');
  });
});

describe('top-up and withdrawal', () => {
  it('tops up with the product fee, answers the first result for a repeated key, and refuses the key with another amount', async () => {
    const who = await customer();
    const { card } = await issuedCard(who, '10.00');
    const before = await wallet(who);
    const k = key();
    const first = await money(who, card.id, 'recharge', '50.00', k);
    expect(first.code, first.message).toBe(0);
    // 1 % of 50 + 0.30
    expect(first.data).toMatchObject({ fee: '0.80', total: '50.80', card: { balance: '60.00' } });
    const again = await money(who, card.id, 'recharge', '50.00', k);
    expect(again.data).toMatchObject({ fee: '0.80', total: '50.80', card: { balance: '60.00' } });
    expect(Number((await wallet(who)).available)).toBeCloseTo(Number(before.available) - 50.8, 2);
    expect((await money(who, card.id, 'recharge', '51.00', k)).code).toBe(ErrorCode.IDEMPOTENCY_CONFLICT);
    expect((await who.api.post(`/card/${card.id}/recharge`, { amount: '1.00' })).code).toBe(CardErrorCode.IDEMPOTENCY_KEY_MISSING);
    const rowsOfCard = await who.api.data<CardTransactionPage>('GET', `/card/${card.id}/transactions`, { query: { type: 'TRANSFER_IN' } });
    expect(rowsOfCard.total).toBe(2);
  });

  it("refuses a top-up past the product's maximum balance, from a frozen wallet, or beyond the wallet; a withdrawal beyond the card", async () => {
    const who = await customer({ usd: 200_00n });
    const { card } = await issuedCard(who, '10.00');
    await t.services.products.update(who.merchantId, { id: card.product_id }, { maxBalance: 100_00n });
    try {
      const over = await money(who, card.id, 'recharge', '90.01');
      expect(over.code).toBe(CardErrorCode.CARD_BALANCE_ABOVE_MAX);
      expect(over.message).toBe('充值后卡内余额不能超过100.00 USD');
      expect((await money(who, card.id, 'recharge', '90.00')).code).toBe(0);
    } finally {
      await t.services.products.update(who.merchantId, { id: card.product_id }, { maxBalance: 10_000_00n });
    }
    expect((await money(who, card.id, 'recharge', '5000.00')).code).toBe(ErrorCode.INSUFFICIENT_FUNDS);
    const withdraw = await money(who, card.id, 'withdraw', '100.01');
    expect(withdraw.code).toBe(ErrorCode.CARD_BALANCE_INSUFFICIENT);
    expect(withdraw.message).toBe('卡内余额不足（可用 100.00 USD）');
    await t.services.wallet.freeze({ merchantId: who.merchantId, accountId: who.id, reason: '风控' });
    expect((await money(who, card.id, 'recharge', '1.00')).code).toBe(ErrorCode.WALLET_FROZEN);
    // money may come back to a frozen wallet
    const back = await money(who, card.id, 'withdraw', '100.00');
    expect(back.code, back.message).toBe(0);
    expect(back.data.card.balance).toBe('0.00');
    await expectSoundBooks(t.database.db);
  });
});

describe('POST /card/{id}/reveal', () => {
  it('needs an access code, then allows reveals for five minutes, writing each to the audit', async () => {
    const who = await customer();
    const { card, numbers } = await issuedCard(who);
    const reveal = (body: Record<string, unknown> = {}) => who.api.post<RevealAnswer>(`/card/${card.id}/reveal`, body, { headers: { 'user-agent': 'test-agent' } });
    expect((await reveal()).code).toBe(CardErrorCode.REVEAL_CODE_REQUIRED);
    expect((await who.api.post('/account/send/code-auto', { send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_ACCESS' })).code).toBe(0);
    const code = await lastCode(t, phoneTo(who.phone));
    const wrong = code === '000000' ? '111111' : '000000';
    expect((await reveal({ captcha: wrong })).code).toBe(ErrorCode.CODE_WRONG);
    const shown = await reveal({ captcha: code });
    expect(shown.code, shown.message).toBe(0);
    expect(shown.data).toEqual({ pan: numbers.pan, cvv: numbers.cvv, exp_month: numbers.exp_month, exp_year: numbers.exp_year });
    expect(shown.headers['cache-control']).toBe('no-store');
    clock.advance(4 * 60_000);
    expect((await reveal()).data.pan).toBe(numbers.pan);
    clock.advance(61_000);
    expect((await reveal()).code).toBe(CardErrorCode.REVEAL_CODE_REQUIRED);
    const audit = await rows(sql`select card_id, user_agent, ip from card_reveals where account_id = ${who.id}`);
    expect(audit).toHaveLength(2);
    expect(audit[0]).toMatchObject({ card_id: card.id, user_agent: 'test-agent' });
  });

  it("a code checked in one session unlocks reveals in that session only: another session of the same account still needs its own", async () => {
    const who = await customer();
    const { card, numbers } = await issuedCard(who);
    const other = t.api('localhost', (await signIn(t, 'localhost', { phone: who.phone })).token);
    // a code to the same phone may be sent once a minute
    clock.advance(61_000);
    await who.api.post('/account/send/code-auto', { send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_ACCESS' });
    expect((await who.api.post(`/card/${card.id}/reveal`, { captcha: await lastCode(t, phoneTo(who.phone)) })).code).toBe(0);
    const refused = await other.post<RevealAnswer>(`/card/${card.id}/reveal`, {});
    expect(refused.code).toBe(CardErrorCode.REVEAL_CODE_REQUIRED);
    expect(JSON.stringify(refused.data ?? null)).not.toContain(numbers.pan);
    expect((await who.api.post<RevealAnswer>(`/card/${card.id}/reveal`, {})).data.pan).toBe(numbers.pan);
    // the other session's own code gives it the window, and takes it from the first
    clock.advance(61_000);
    await other.post('/account/send/code-auto', { send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_ACCESS' });
    expect((await other.post(`/card/${card.id}/reveal`, { captcha: await lastCode(t, phoneTo(who.phone)) })).code).toBe(0);
    expect((await other.post<RevealAnswer>(`/card/${card.id}/reveal`, {})).data.pan).toBe(numbers.pan);
    expect((await who.api.post(`/card/${card.id}/reveal`, {})).code).toBe(CardErrorCode.REVEAL_CODE_REQUIRED);
    expect(await rows(sql`select count(*)::int as n from card_reveals where account_id = ${who.id}`)).toEqual([{ n: 4 }]);
  });

  it('allows at most 30 reveals an hour', async () => {
    const who = await customer();
    const { card } = await issuedCard(who);
    await who.api.post('/account/send/code-auto', { send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_ACCESS' });
    const code = await lastCode(t, phoneTo(who.phone));
    expect((await who.api.post(`/card/${card.id}/reveal`, { captcha: code })).code).toBe(0);
    for (let i = 1; i < 30; i++) {
      clock.advance(1_000);
      expect((await who.api.post(`/card/${card.id}/reveal`, {})).code).toBe(0);
    }
    const limited = await who.api.post<unknown>(`/card/${card.id}/reveal`, {});
    expect(limited.code).toBe(CardErrorCode.REVEAL_LIMIT);
    expect(limited.data).toMatchObject({ seconds: expect.any(Number) });
  });

  it('refuses a card not issued yet', async () => {
    const who = await customer();
    const { subscription } = await products(who);
    const opened = await open(who, { product_id: subscription.id, amount: '10.00', nickname: '未发卡' });
    expect((await who.api.post(`/card/${opened.data.id}/reveal`, {})).code).toBe(CardErrorCode.CARD_ACTION_NOT_ALLOWED);
  });
});

describe('GET /card, /card/summary, PATCH /card/{id}', () => {
  it('lists newest first with filters by status, product and keyword (nickname or last four), pages and a summary', async () => {
    const who = await customer();
    const one = await issuedCard(who, '10.00', '脸书广告');
    clock.advance(1_000);
    const two = await issuedCard(who, '20.00', '谷歌广告');
    clock.advance(1_000);
    const { subscription, cny } = await products(who);
    await t.services.ledger.recharge({ merchantId: who.merchantId, accountId: who.id, currency: 'CNY', amount: 500_00n, key: `cny-${who.id}` });
    const three = await open(who, { product_id: cny.id, amount: '50.00', nickname: '人民币卡' });
    const list = (query: Record<string, string | number> = {}) => who.api.data<CardPage>('GET', '/card', { query });
    expect((await list()).items.map((c) => c.nickname)).toEqual(['人民币卡', '谷歌广告', '脸书广告']);
    expect((await list({ status: 'NORMAL' })).items.map((c) => c.nickname)).toEqual(['谷歌广告', '脸书广告']);
    expect((await list({ product_id: cny.id })).items.map((c) => c.id)).toEqual([three.data.id]);
    expect((await list({ product_id: subscription.id, keyword: '谷歌' })).items.map((c) => c.id)).toEqual([two.card.id]);
    expect((await list({ keyword: one.card.last4 ?? '' })).items.map((c) => c.id)).toContain(one.card.id);
    expect((await list({ keyword: '100%_' })).items).toEqual([]);
    const page2 = await list({ page: 2, page_size: 2 });
    expect(page2).toMatchObject({ total: 3, page: 2, page_size: 2 });
    expect(page2.items.map((c) => c.nickname)).toEqual(['脸书广告']);
    expect((await who.api.get('/card', { query: { page_size: 101 } })).code).toBe(ErrorCode.VALIDATION);
    const summary = await who.api.data<CardSummaryAnswer>('GET', '/card/summary');
    expect(summary.total).toBe(3);
    expect(summary.by_status).toMatchObject({ NORMAL: 2, CARD_STATUS_INIT: 1, FREEZE: 0 });
    expect(summary.amounts).toEqual([
      { currency: 'USD', amount: '30.00' },
      { currency: 'CNY', amount: '0.00' },
    ]);

    const renamed = await who.api.request<CardItem>('PATCH', `/card/${one.card.id}`, { body: { nickname: '  新名字 ' } });
    expect(renamed.data.nickname).toBe('新名字');
    expect((await who.api.request('PATCH', `/card/${one.card.id}`, { body: { nickname: '' } })).code).toBe(ErrorCode.VALIDATION);
  });
});

describe('isolation', () => {
  it("another account, and the same phone's account at another merchant, can neither see nor act on a card", async () => {
    const owner = await customer();
    const { card } = await issuedCard(owner, '30.00');
    const stranger = await customer();
    const elsewhere = await customer({ host: 'orange.localhost', phone: owner.phone });
    const snapshot = async () => JSON.stringify([await owner.api.data('GET', `/card/${card.id}`), await wallet(owner)]);
    const before = await snapshot();
    for (const other of [stranger, elsewhere]) {
      const headers = { 'idempotency-key': key() };
      const answers = [
        await other.api.get(`/card/${card.id}`),
        await other.api.request('PATCH', `/card/${card.id}`, { body: { nickname: '偷' } }),
        await other.api.put(`/card/${card.id}/status`, { action: 'FREEZE' }),
        await other.api.delete(`/card/${card.id}`),
        await other.api.post(`/card/${card.id}/recharge`, { amount: '1.00' }, { headers }),
        await other.api.post(`/card/${card.id}/withdraw`, { amount: '1.00' }, { headers: { 'idempotency-key': key() } }),
        await other.api.post(`/card/${card.id}/reveal`, {}),
        await other.api.get(`/card/${card.id}/transactions`),
      ];
      for (const answer of answers) expect(answer.code, answer.message).toBe(CardErrorCode.CARD_NOT_FOUND);
      expect((await other.api.data<CardPage>('GET', '/card')).items.map((c) => c.id)).not.toContain(card.id);
      expect((await other.api.data<CardSummaryAnswer>('GET', '/card/summary')).total).toBe(0);
    }
    expect(await snapshot()).toBe(before);
    expect((await t.api('localhost').get(`/card/${card.id}`)).code).toBe(ErrorCode.SESSION_MISSING);
    expect((await owner.api.get('/card/not-a-card-id')).code).toBe(CardErrorCode.CARD_NOT_FOUND);
  });
});
