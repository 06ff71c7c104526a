import type { AccountInfo } from '@portal/contract/account';
import type { BatchExportList, BatchStatusAnswer } from '@portal/contract/card-batches';
import type { CardItem, CardPage, OpenedAvailableAnswer } from '@portal/contract/cards';
import { ErrorCode } from '@portal/contract/errors';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.ts';
import { freshIp, lastCode, lastMessage, phoneTo, signUp } from '../helpers/accounts.ts';
import type { ApiAnswer, ApiClient } from '../helpers/api.ts';
import { scriptedIssuerApp } from '../helpers/issuer.ts';
import { expectSoundBooks } from '../helpers/ledger.ts';
import { expectUnchanged } from '../helpers/unchanged.ts';

// 2026-11-25 10:00 in China
const clock = new ManualClock(new Date('2026-11-25T02:00:00Z'));
const { t, issuer } = scriptedIssuerApp(clock);

const ID_NUMBER = '11010519491231002X';
const MINUTE = 60_000;
let serial = 0;
const key = () => `trx-key-${Date.now().toString(36)}-${++serial}`;
const rows = async (query: ReturnType<typeof sql>) => ((await t.database.db.execute(query)) as unknown as { rows: Array<Record<string, unknown>> }).rows;

interface Customer {
  id: string;
  phone: string;
  /** the login password */
  password: string;
  email: string;
  api: ApiClient;
  merchantId: string;
}

/** A signed-up customer with both verifications and 1,000.00 USD in the wallet. */
async function customer(host = 'localhost'): Promise<Customer> {
  const who = await signUp(t, host);
  const api = t.api(host, who.token);
  const { id } = await api.data<AccountInfo>('GET', '/account/info');
  const merchantId = String((await rows(sql`select merchant_id from accounts where id = ${id}`))[0]?.merchant_id);
  await api.data('PUT', '/card/verification', { body: { real_name: '张三', id_number: ID_NUMBER } });
  await api.data('PUT', '/card/verification', { body: { latin_name: 'Zhang San', website: 'https://shop.example.com' } });
  await t.services.ledger.recharge({ merchantId, accountId: id, currency: 'USD', amount: 1000_00n, key: `fund-${id}` });
  return { id, phone: who.phone, password: who.password, email: who.email, api, merchantId };
}

const setTrade = (who: Customer, body: { trx_password?: unknown; old_trx_password?: unknown; password?: unknown }) => who.api.put('/account/trx-password', body);

async function subscription(who: Customer) {
  const { products } = await who.api.data<OpenedAvailableAnswer>('GET', '/card/opened-available');
  const found = products.find((p) => p.name === '订阅支付卡');
  if (!found) throw new Error('no 订阅支付卡');
  return found;
}

const open = async (who: Customer, extra: { trx_password?: string } = {}, idempotency = key()) =>
  who.api.post<CardItem>('/card', { product_id: (await subscription(who)).id, amount: '10.00', nickname: '交易卡', ...extra }, { headers: { 'idempotency-key': idempotency } });

/** A card of the subscription product the issuer has issued, holding `amount`. */
async function issuedCard(who: Customer, trxPassword?: string, amount = '20.00') {
  const opened = await who.api.post<CardItem>(
    '/card',
    { product_id: (await subscription(who)).id, amount, nickname: '已发卡', ...(trxPassword ? { trx_password: trxPassword } : {}) },
    { headers: { 'idempotency-key': key() } },
  );
  expect(opened.code, opened.message).toBe(0);
  expect((await issuer.issue(opened.data.id)).status).toBe(200);
  return who.api.data<CardItem>('GET', `/card/${opened.data.id}`);
}

const wallet = async (who: Customer) => {
  const items = await who.api.data<Array<{ currency: string; available: string; anew: string }>>('GET', '/balance/account-balance');
  const usd = items.find((i) => i.currency === 'USD');
  return { available: usd?.available ?? '0.00', held: usd?.anew ?? '0.00' };
};

const infoOf = (who: Customer) => who.api.data<AccountInfo>('GET', '/account/info');
const hashOf = async (who: Customer) => String((await rows(sql`select trx_password_hash from members where id = ${who.id}`))[0]?.trx_password_hash);
const securityMessages = async (who: Customer) =>
  rows(sql`select type, title, content from station_messages where account_id = ${who.id} and type = 'SECURITY' order by created_at`);

/**
 * Everything a refused call could have changed: money, cards, which batches and exports there are (not
 * how far an earlier one's job has got), the trade password and the messages.
 */
const everything = (who: Customer) => async () =>
  JSON.stringify([
    await wallet(who),
    await who.api.data<CardPage>('GET', '/card', { query: { page_size: 100 } }),
    (await who.api.data<BatchStatusAnswer>('GET', '/card/batch-create-card-status')).batch_id,
    (await who.api.data<BatchExportList>('GET', '/card/batch-exports')).items.map((item) => item.export_id),
    await hashOf(who),
    await securityMessages(who),
  ]);

const expectRefused = (answer: ApiAnswer, code: number, message?: string) => {
  expect(answer.code, answer.message).toBe(code);
  if (message !== undefined) expect(answer.message).toBe(message);
};

describe('PUT /account/trx-password', () => {
  it('sets the first trade password as an argon2id hash, says so in /account/info, and tells the account by a station message and an e-mail in China time', async () => {
    const who = await customer();
    expect(await infoOf(who)).toMatchObject({ id: who.id, trx_password_set: false });
    clock.set(new Date('2026-11-25T02:00:00Z'));

    const set = await setTrade(who, { trx_password: 'Abc123', password: who.password });
    expect(set.code, set.message).toBe(0);
    const hash = await hashOf(who);
    expect(hash).toMatch(/^\$argon2id\$/);
    expect(hash).not.toContain('Abc123');
    expect(await infoOf(who)).toMatchObject({ id: who.id, trx_password_set: true });

    expect(await securityMessages(who)).toEqual([
      {
        type: 'SECURITY',
        title: '交易密码已设置',
        content: '<p>您的交易密码已于 2026-11-25 10:00（北京时间）设置，此后开卡、充值、提现等资金操作需输入交易密码。如非本人操作，请立即修改登录密码并联系客服。</p>',
      },
    ]);
    const mail = await lastMessage(t, who.email);
    expect(mail.subject).toBe('【蓝鲸卡】账户安全提醒：交易密码已设置');
    expect(mail.text).toContain('您的交易密码已于 2026-11-25 10:00（北京时间）设置，此后开卡、充值、提现等资金操作需输入交易密码。如非本人操作，请立即修改登录密码并联系客服。');
  });

  it('changes it with the old one; the old one stops working and the new one works; the account is told of the change', async () => {
    const who = await customer();
    expect((await setTrade(who, { trx_password: '123456', password: who.password })).code).toBe(0);
    clock.set(new Date('2026-11-25T03:30:00Z'));
    const changed = await setTrade(who, { trx_password: 'abcdefGH12', old_trx_password: '123456' });
    expect(changed.code, changed.message).toBe(0);
    expect((await securityMessages(who)).map((message) => message.title)).toEqual(['交易密码已设置', '交易密码已修改']);
    expect(String((await securityMessages(who))[1]?.content)).toContain('您的交易密码已于 2026-11-25 11:30（北京时间）修改。');
    expect((await lastMessage(t, who.email)).subject).toBe('【蓝鲸卡】账户安全提醒：交易密码已修改');

    expectRefused(await open(who, { trx_password: '123456' }), ErrorCode.TRX_PASSWORD_WRONG, '交易密码错误，还可尝试4次');
    expect((await open(who, { trx_password: 'abcdefGH12' })).code).toBe(0);
  });

  it('refuses with the form’s message and changes nothing: a new one that breaks the rule, no old one once set, a wrong old one, the same as the old one', async () => {
    const who = await customer();
    for (const bad of ['12345', 'abcdefghijk', 'abc-123', '交易密码123', '']) {
      const answer = await expectUnchanged(everything(who), () => setTrade(who, { trx_password: bad }));
      expectRefused(answer, ErrorCode.VALIDATION, bad === '' ? '请输入交易密码' : '请输入6到10位的纯数字或大小写英文字母');
    }
    expectRefused(await expectUnchanged(everything(who), () => setTrade(who, {})), ErrorCode.VALIDATION, '请输入交易密码');
    expect((await setTrade(who, { trx_password: 'Good123', password: who.password })).code).toBe(0);

    const cases: Array<[{ trx_password?: unknown; old_trx_password?: unknown }, number, string]> = [
      [{ trx_password: 'Other123' }, ErrorCode.TRX_PASSWORD_OLD_REQUIRED, '请输入原交易密码'],
      [{ trx_password: 'Other123', old_trx_password: '' }, ErrorCode.TRX_PASSWORD_OLD_REQUIRED, '请输入原交易密码'],
      [{ trx_password: 'Other123', old_trx_password: 'Wrong123' }, ErrorCode.TRX_PASSWORD_WRONG, '交易密码错误，还可尝试4次'],
      [{ trx_password: 'Good123', old_trx_password: 'Good123' }, ErrorCode.TRX_PASSWORD_SAME, '新交易密码不能与原交易密码相同'],
      [{ trx_password: 'short', old_trx_password: 'Good123' }, ErrorCode.VALIDATION, '请输入6到10位的纯数字或大小写英文字母'],
    ];
    for (const [body, code, message] of cases) {
      const answer = await expectUnchanged(everything(who), () => setTrade(who, body));
      expectRefused(answer, code, message);
    }
    expect((await securityMessages(who)).map((message) => message.title)).toEqual(['交易密码已设置']);
  });

  it('the first one needs the login password: without it 2023 on the field, with a wrong one 2024; nothing changes either way', async () => {
    const who = await customer();
    const missing = await expectUnchanged(everything(who), () => setTrade(who, { trx_password: 'Abc123' }));
    expectRefused(missing, ErrorCode.LOGIN_PASSWORD_REQUIRED, '请输入登录密码');
    expect(missing.data).toMatchObject({ fields: [{ field: 'password', message: '请输入登录密码' }] });
    expectRefused(await expectUnchanged(everything(who), () => setTrade(who, { trx_password: 'Abc123', password: '' })), ErrorCode.LOGIN_PASSWORD_REQUIRED);
    const wrong = await expectUnchanged(everything(who), () => setTrade(who, { trx_password: 'Abc123', password: 'Wrong1234' }));
    expectRefused(wrong, ErrorCode.LOGIN_PASSWORD_WRONG, '登录密码错误');
    expect(wrong.data).toMatchObject({ fields: [{ field: 'password', message: '登录密码错误' }] });
    // a trade password given as the old one does not stand in for the login password
    expectRefused(await setTrade(who, { trx_password: 'Abc123', old_trx_password: 'Abc123' }), ErrorCode.LOGIN_PASSWORD_REQUIRED);
    expect(await infoOf(who)).toMatchObject({ trx_password_set: false });
    expect((await setTrade(who, { trx_password: 'Abc123', password: who.password })).code).toBe(0);
    expect(await infoOf(who)).toMatchObject({ trx_password_set: true });
    // once set, a change asks for the old trade password, not the login password
    expect((await setTrade(who, { trx_password: 'Abc1234', old_trx_password: 'Abc123' })).code).toBe(0);
  });

  it('a wrong login password there counts toward the sign-in lock: warned from the third, the fifth locks sign-in and this call, even with the right one', async () => {
    const who = await customer();
    const refusals = [];
    for (let i = 0; i < 4; i++) {
      const wrong = await setTrade(who, { trx_password: 'Abc123', password: 'Wrong1234' });
      refusals.push([wrong.code, wrong.message]);
    }
    expect(refusals).toEqual([
      [ErrorCode.LOGIN_PASSWORD_WRONG, '登录密码错误'],
      [ErrorCode.LOGIN_PASSWORD_WRONG, '登录密码错误'],
      [ErrorCode.LOGIN_PASSWORD_WRONG, '登录密码错误，再错2次将锁定15分钟'],
      [ErrorCode.LOGIN_PASSWORD_WRONG, '登录密码错误，再错1次将锁定15分钟'],
    ]);
    const fifth = await setTrade(who, { trx_password: 'Abc123', password: 'Wrong1234' });
    expect([fifth.status, fifth.code]).toEqual([429, ErrorCode.LOGIN_LOCKED]);
    const login = await t.api().post('/account/login', { phone_info: { phone: who.phone, phone_prefix: '86' }, password: who.password }, { remoteAddress: freshIp() });
    expect(login.code).toBe(ErrorCode.LOGIN_LOCKED);
    expectRefused(await setTrade(who, { trx_password: 'Abc123', password: who.password }), ErrorCode.LOGIN_LOCKED);
    expect(await infoOf(who)).toMatchObject({ trx_password_set: false });
    clock.advance(15 * MINUTE + 1000);
    expect((await setTrade(who, { trx_password: 'Abc123', password: who.password })).code).toBe(0);
  });

  it('needs a full session', async () => {
    expect((await t.api().put('/account/trx-password', { trx_password: 'Abc123' })).code).toBe(ErrorCode.SESSION_MISSING);
  });
});

describe('the lock', () => {
  it('five wrong trade passwords within 15 minutes, in the change call or in any money call, lock it for 15 minutes, even for the right one, with a message saying until when', async () => {
    const who = await customer();
    expect((await setTrade(who, { trx_password: 'Right123', password: who.password })).code).toBe(0);
    const card = await issuedCard(who, 'Right123');
    clock.set(new Date('2026-11-25T02:00:00Z'));

    expectRefused(await setTrade(who, { trx_password: 'New12345', old_trx_password: 'Wrong1' }), ErrorCode.TRX_PASSWORD_WRONG, '交易密码错误，还可尝试4次');
    clock.advance(MINUTE);
    expectRefused(await open(who, { trx_password: 'Wrong2' }), ErrorCode.TRX_PASSWORD_WRONG, '交易密码错误，还可尝试3次');
    const recharge = await who.api.post(`/card/${card.id}/recharge`, { amount: '1.00', trx_password: 'Wrong3' }, { headers: { 'idempotency-key': key() } });
    expectRefused(recharge, ErrorCode.TRX_PASSWORD_WRONG, '交易密码错误，还可尝试2次');
    expect(recharge.data).toEqual({ remaining: 2 });
    expectRefused(await who.api.delete(`/card/${card.id}`, { body: { trx_password: 'Wrong4' } }), ErrorCode.TRX_PASSWORD_WRONG, '交易密码错误，还可尝试1次');

    // the fifth locks it until 10:16 China time (it was 10:01)
    const locked = await expectUnchanged(everything(who), () =>
      who.api.post(`/card/${card.id}/withdraw`, { amount: '1.00', trx_password: 'Wrong5' }, { headers: { 'idempotency-key': key() } }),
    );
    expectRefused(locked, ErrorCode.TRX_PASSWORD_LOCKED, '交易密码错误次数过多，已锁定至10:16（北京时间），请15分钟后再试');
    expect(locked.status).toBe(429);
    expect(locked.data).toEqual({ retry_after: 900, locked_until: '2026-11-25T02:16:00.000Z' });

    // locked: the right one is refused too, everywhere, and changes nothing
    clock.advance(14 * MINUTE);
    const stillLocked = await expectUnchanged(everything(who), () => open(who, { trx_password: 'Right123' }));
    expectRefused(stillLocked, ErrorCode.TRX_PASSWORD_LOCKED, '交易密码错误次数过多，已锁定至10:16（北京时间），请1分钟后再试');
    expect(stillLocked.data).toMatchObject({ retry_after: 60 });
    expectRefused(await setTrade(who, { trx_password: 'New12345', old_trx_password: 'Right123' }), ErrorCode.TRX_PASSWORD_LOCKED);
    expectRefused(await who.api.delete(`/card/${card.id}`, { body: { trx_password: 'Right123' } }), ErrorCode.TRX_PASSWORD_LOCKED);

    // the lock ends; the right one works and the count starts over
    clock.advance(MINUTE);
    const opened = await open(who, { trx_password: 'Right123' });
    expect(opened.code, opened.message).toBe(0);
    expectRefused(await open(who, { trx_password: 'Wrong6' }), ErrorCode.TRX_PASSWORD_WRONG, '交易密码错误，还可尝试4次');
  });

  it('a right trade password clears the wrong ones before it, and wrong ones older than 15 minutes no longer count', async () => {
    const who = await customer();
    expect((await setTrade(who, { trx_password: 'Right123', password: who.password })).code).toBe(0);
    for (const remaining of [4, 3, 2, 1]) expectRefused(await open(who, { trx_password: 'Wrong1' }), ErrorCode.TRX_PASSWORD_WRONG, `交易密码错误，还可尝试${remaining}次`);
    expect((await open(who, { trx_password: 'Right123' })).code).toBe(0);
    for (const remaining of [4, 3, 2, 1]) expectRefused(await open(who, { trx_password: 'Wrong1' }), ErrorCode.TRX_PASSWORD_WRONG, `交易密码错误，还可尝试${remaining}次`);
    clock.advance(15 * MINUTE + 1_000);
    expectRefused(await open(who, { trx_password: 'Wrong1' }), ErrorCode.TRX_PASSWORD_WRONG, '交易密码错误，还可尝试4次');
  });

  it('忘记交易密码: the e-mailed code sets a new one, lifts the lock, and the account is told', async () => {
    const who = await customer();
    expect((await setTrade(who, { trx_password: 'Right123', password: who.password })).code).toBe(0);
    for (let i = 0; i < 5; i++) await open(who, { trx_password: 'Wrong1' });
    expectRefused(await open(who, { trx_password: 'Right123' }), ErrorCode.TRX_PASSWORD_LOCKED);

    const ip = freshIp();
    const sent = await t.api().post('/account/forget-password/code', { email: who.email, type: 'FORGET_TRX_PASSWORD' }, { remoteAddress: ip });
    expect(sent.code, sent.message).toBe(0);
    const reset = await t.api().put('/account/forget-trx-password', { email: who.email, trx_password: 'Reset123', captcha: await lastCode(t, who.email) }, { remoteAddress: ip });
    expect(reset.code, reset.message).toBe(0);
    expect((await open(who, { trx_password: 'Reset123' })).code).toBe(0);
    expect((await securityMessages(who)).map((message) => message.title)).toEqual(['交易密码已设置', '交易密码已重置']);
    expect((await lastMessage(t, who.email)).subject).toBe('【蓝鲸卡】账户安全提醒：交易密码已重置');
  });
});

describe('money calls once a trade password is set', () => {
  it('without one set, every money call works as before, with no trx_password', async () => {
    const who = await customer();
    const card = await issuedCard(who);
    expect((await open(who)).code).toBe(0);
    expect((await who.api.post(`/card/${card.id}/recharge`, { amount: '5.00' }, { headers: { 'idempotency-key': key() } })).code).toBe(0);
    expect((await who.api.post(`/card/${card.id}/withdraw`, { amount: '1.00' }, { headers: { 'idempotency-key': key() } })).code).toBe(0);
    const batch = await who.api.post('/batch-create-card', { product_id: (await subscription(who)).id, quantity: 2, amount: '10.00', nickname_prefix: 'NP' }, { headers: { 'idempotency-key': key() } });
    expect(batch.code, batch.message).toBe(0);
    expect((await who.api.delete<CardItem>(`/card/${card.id}`)).data.status).toBe('DELETING');
  });

  it('opening, a batch, top-up, withdrawal, cancelling a card that holds money and an export with full numbers: refused without it and with a wrong one, changing nothing, and taken with the right one', async () => {
    const who = await customer();
    const product = await subscription(who);
    const card = await issuedCard(who);
    const emptied = await issuedCard(who);
    expect((await who.api.post(`/card/${emptied.id}/withdraw`, { amount: emptied.balance }, { headers: { 'idempotency-key': key() } })).code).toBe(0);
    const withBalance = await issuedCard(who);
    expect((await setTrade(who, { trx_password: 'Right123', password: who.password })).code).toBe(0);

    await who.api.post('/account/send/code-auto', { send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_ACCESS' });
    const accessCode = await lastCode(t, phoneTo(who.phone));
    const calls: Array<[string, (trx: { trx_password?: string }) => Promise<ApiAnswer>]> = [
      ['open a card', (trx) => who.api.post('/card', { product_id: product.id, amount: '10.00', nickname: '新卡', ...trx }, { headers: { 'idempotency-key': key() } })],
      ['top up', (trx) => who.api.post(`/card/${card.id}/recharge`, { amount: '3.00', ...trx }, { headers: { 'idempotency-key': key() } })],
      ['withdraw', (trx) => who.api.post(`/card/${card.id}/withdraw`, { amount: '2.00', ...trx }, { headers: { 'idempotency-key': key() } })],
      [
        'export with full numbers',
        (trx) => who.api.post('/card/batch-export', { filters: {}, include_sensitive: true, captcha: accessCode, columns: ['nickname', 'card_number', 'cvv'], ...trx }),
      ],
      ['cancel a card that holds money', (trx) => who.api.delete(`/card/${withBalance.id}`, Object.keys(trx).length ? { body: trx } : {})],
      // last: its job goes on opening the cards after it is taken
      [
        'open a batch',
        (trx) => who.api.post('/batch-create-card', { product_id: product.id, quantity: 2, amount: '10.00', nickname_prefix: 'TP', ...trx }, { headers: { 'idempotency-key': key() } }),
      ],
    ];
    for (const [what, call] of calls) {
      const without = await expectUnchanged(everything(who), () => call({}));
      expect(without.code, `${what} without: ${without.message}`).toBe(ErrorCode.TRX_PASSWORD_REQUIRED);
      expect(without.message).toBe('请输入交易密码');
      const empty = await expectUnchanged(everything(who), () => call({ trx_password: '' }));
      expect(empty.code, `${what} empty: ${empty.message}`).toBe(ErrorCode.TRX_PASSWORD_REQUIRED);
      const wrong = await expectUnchanged(everything(who), () => call({ trx_password: 'Wrong123' }));
      expect(wrong.code, `${what} wrong: ${wrong.message}`).toBe(ErrorCode.TRX_PASSWORD_WRONG);
      expect(wrong.message).toBe('交易密码错误，还可尝试4次');
      const right = await call({ trx_password: 'Right123' });
      expect(right.code, `${what} right: ${right.message}`).toBe(0);
    }
    expect(await who.api.data<CardItem>('GET', `/card/${withBalance.id}`)).toMatchObject({ status: 'DELETING' });
    await expectSoundBooks(t.database.db);
  });

  it('still needs nothing for what moves no money out: a card holding nothing is cancelled, an export without full numbers written, a card frozen', async () => {
    const who = await customer();
    const emptied = await issuedCard(who);
    const frozen = await issuedCard(who, undefined, '7.00');
    expect((await who.api.post(`/card/${emptied.id}/withdraw`, { amount: emptied.balance }, { headers: { 'idempotency-key': key() } })).code).toBe(0);
    expect((await setTrade(who, { trx_password: 'Right123', password: who.password })).code).toBe(0);
    const cancelled = await who.api.delete<CardItem>(`/card/${emptied.id}`);
    expect(cancelled.code, cancelled.message).toBe(0);
    expect(cancelled.data.status).toBe('DELETING');
    const masked = await who.api.post('/card/batch-export', { filters: {}, columns: ['nickname', 'card_number'] });
    expect(masked.code, masked.message).toBe(0);
    // full numbers asked for, but no column holds them: nothing sensitive is written
    expect((await who.api.post('/card/batch-export', { filters: {}, include_sensitive: true, columns: ['nickname', 'balance'] })).code).toBe(0);
    expect((await who.api.put(`/card/${frozen.id}/status`, { action: 'FREEZE' })).code).toBe(0);
  });

  it('a repeated Idempotency-Key answers the first card without asking for the trade password again, holds once, and the trade password is no part of the request it is compared with', async () => {
    const who = await customer();
    expect((await setTrade(who, { trx_password: 'Right123', password: who.password })).code).toBe(0);
    const idempotency = key();
    const first = await open(who, { trx_password: 'Right123' }, idempotency);
    expect(first.code, first.message).toBe(0);
    const held = await wallet(who);

    for (const trx of [{ trx_password: 'Right123' }, {}, { trx_password: 'Wrong123' }]) {
      const replay = await open(who, trx, idempotency);
      expect(replay.code, replay.message).toBe(0);
      expect(replay.data.id).toBe(first.data.id);
    }

    // changed since: the same request under the same key, with the new trade password, is the same card
    expect((await setTrade(who, { trx_password: 'Newer123', old_trx_password: 'Right123' })).code).toBe(0);
    const afterChange = await open(who, { trx_password: 'Newer123' }, idempotency);
    expect(afterChange.code, afterChange.message).toBe(0);
    expect(afterChange.data.id).toBe(first.data.id);
    expect(await wallet(who)).toEqual(held);
    expect((await who.api.data<CardPage>('GET', '/card')).total).toBe(1);
  });

  it("an account's trade password, its wrong tries and its lock are its own: another account, and the same phone at another merchant, are not touched", async () => {
    const owner = await customer();
    const other = await customer();
    const elsewhere = await signUp(t, 'orange.localhost', { phone: owner.phone });
    const elsewhereApi = t.api('orange.localhost', elsewhere.token);
    expect((await setTrade(owner, { trx_password: 'Owner123', password: owner.password })).code).toBe(0);
    for (let i = 0; i < 5; i++) await open(owner, { trx_password: 'Wrong1' });
    expectRefused(await open(owner, { trx_password: 'Owner123' }), ErrorCode.TRX_PASSWORD_LOCKED);

    expect(await infoOf(other)).toMatchObject({ id: other.id, trx_password_set: false });
    expect((await elsewhereApi.data<AccountInfo>('GET', '/account/info')).trx_password_set).toBe(false);
    expect((await open(other)).code).toBe(0);
    expect(await securityMessages(other)).toEqual([]);

    // its own trade password, which the owner's does not open
    expect((await setTrade(other, { trx_password: 'Other123', password: other.password })).code).toBe(0);
    expectRefused(await open(other, { trx_password: 'Owner123' }), ErrorCode.TRX_PASSWORD_WRONG, '交易密码错误，还可尝试4次');
    expect((await open(other, { trx_password: 'Other123' })).code).toBe(0);
    // setting it told no one else
    expect((await securityMessages(owner)).map((message) => message.title)).toEqual(['交易密码已设置']);
  });
});
