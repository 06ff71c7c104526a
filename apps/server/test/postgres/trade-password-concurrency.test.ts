import type { AccountInfo } from '@portal/contract/account';
import type { CardPage, OpenedAvailableAnswer } from '@portal/contract/cards';
import { ErrorCode } from '@portal/contract/errors';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { scriptedIssuer } from '../helpers/issuer.ts';
import { queryRows } from '../helpers/sql.ts';

// PGlite has one connection and would hide these races: this file runs on PostgreSQL only
const issuer = scriptedIssuer();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ issuer: issuer.port });
  issuer.attach(t);
});
afterAll(() => t.close());

let serial = 0;
const key = () => `trx-storm-${Date.now().toString(36)}-${++serial}`;

describe('the trade password under a storm of parallel money calls', () => {
  it('checks at most five trade passwords in the window: four wrong ones say so, the fifth locks it, the rest are refused unchecked, and nothing moves', async () => {
    const who = await signUp(t);
    const api = t.api('localhost', who.token);
    const { id } = await api.data<AccountInfo>('GET', '/account/info');
    const [account] = await queryRows<{ merchant_id: string }>(t.database.db, sql`select merchant_id from accounts where id = ${id}`);
    await api.data('PUT', '/card/verification', { body: { real_name: '张三', id_number: '11010519491231002X' } });
    await t.services.ledger.recharge({ merchantId: String(account?.merchant_id), accountId: id, currency: 'USD', amount: 1000_00n, key: `fund-${id}` });
    expect((await api.put('/account/trx-password', { trx_password: 'Right123', password: who.password })).code).toBe(0);
    const { products } = await api.data<OpenedAvailableAnswer>('GET', '/card/opened-available');
    const product = products.find((p) => p.name === '订阅支付卡');

    const open = (trxPassword: string) =>
      api.post('/card', { product_id: product?.id, amount: '10.00', nickname: '并发', trx_password: trxPassword }, { headers: { 'idempotency-key': key() } });
    const codes = (await Promise.all(Array.from({ length: 100 }, () => open('Wrong123')))).map((answer) => answer.code);
    expect(codes.filter((code) => code === ErrorCode.TRX_PASSWORD_WRONG)).toHaveLength(4);
    expect(codes.filter((code) => code === ErrorCode.TRX_PASSWORD_LOCKED)).toHaveLength(96);
    expect((await open('Right123')).code).toBe(ErrorCode.TRX_PASSWORD_LOCKED);
    expect((await api.data<CardPage>('GET', '/card')).total).toBe(0);
    const [usd] = (await api.data<Array<{ currency: string; available: string; anew: string }>>('GET', '/balance/account-balance')).filter((i) => i.currency === 'USD');
    expect(usd).toMatchObject({ available: '1000.00', anew: '0.00' });
  });

  it('ten parallel top-ups with the right trade password all go through: right ones are not counted as tries', async () => {
    const { api, cardId } = await customerWithCard();
    const topUps = await Promise.all(
      Array.from({ length: 10 }, () => api.post(`/card/${cardId}/recharge`, { amount: '1.00', trx_password: 'Right123' }, { headers: { 'idempotency-key': key() } })),
    );
    expect(topUps.map((answer) => answer.code)).toEqual(Array(10).fill(0));
    expect((await api.data<{ balance: string }>('GET', `/card/${cardId}`)).balance).toBe('30.00');
    // nothing counted: the next wrong one has all its tries left
    const wrong = await api.post(`/card/${cardId}/recharge`, { amount: '1.00', trx_password: 'Wrong123' }, { headers: { 'idempotency-key': key() } });
    expect([wrong.code, wrong.message]).toEqual([ErrorCode.TRX_PASSWORD_WRONG, '交易密码错误，还可尝试4次']);
  });

  it('fifty parallel retries of a top-up with its key, right, wrong or without the trade password, all answer the first answer and move nothing', async () => {
    const { api, cardId } = await customerWithCard();
    const used = key();
    const topUp = (trx: object) => api.post(`/card/${cardId}/recharge`, { amount: '2.00', ...trx }, { headers: { 'idempotency-key': used } });
    const first = await topUp({ trx_password: 'Right123' });
    expect(first.code, first.message).toBe(0);
    const variants = [{ trx_password: 'Right123' }, { trx_password: 'Wrong123' }, {}];
    const retries = await Promise.all(Array.from({ length: 50 }, (_, i) => topUp(variants[i % 3] as object)));
    for (const retry of retries) {
      expect(retry.code, retry.message).toBe(0);
      expect(retry.data).toEqual(first.data);
    }
    expect((await api.data<{ balance: string }>('GET', `/card/${cardId}`)).balance).toBe('22.00');
  });

  it('a refused top-up kept no answer: thirty parallel retries of its key without the trade password, once the wallet holds enough, are all asked for it and move nothing', async () => {
    const { api, cardId, accountId, merchantId } = await customerWithCard();
    const used = key();
    const topUp = (trx: object) => api.post(`/card/${cardId}/recharge`, { amount: '5000.00', ...trx }, { headers: { 'idempotency-key': used } });
    const refused = await topUp({ trx_password: 'Right123' });
    expect(refused.code, refused.message).toBe(ErrorCode.INSUFFICIENT_FUNDS);
    await t.services.ledger.recharge({ merchantId, accountId, currency: 'USD', amount: 10_000_00n, key: `more-${accountId}` });
    const retries = await Promise.all(Array.from({ length: 30 }, () => topUp({})));
    expect(retries.map((retry) => retry.code)).toEqual(Array(30).fill(ErrorCode.TRX_PASSWORD_REQUIRED));
    expect((await api.data<{ balance: string }>('GET', `/card/${cardId}`)).balance).toBe('20.00');
  });
});

/** A verified customer with 1,000.00 USD, the trade password Right123 and an issued card holding 20.00. */
async function customerWithCard() {
  const who = await signUp(t);
  const api = t.api('localhost', who.token);
  const { id } = await api.data<AccountInfo>('GET', '/account/info');
  const [account] = await queryRows<{ merchant_id: string }>(t.database.db, sql`select merchant_id from accounts where id = ${id}`);
  await api.data('PUT', '/card/verification', { body: { real_name: '张三', id_number: '11010519491231002X' } });
  await t.services.ledger.recharge({ merchantId: String(account?.merchant_id), accountId: id, currency: 'USD', amount: 1000_00n, key: `fund-${id}` });
  const { products } = await api.data<OpenedAvailableAnswer>('GET', '/card/opened-available');
  const product = products.find((p) => p.name === '订阅支付卡');
  const opened = await api.post<{ id: string }>('/card', { product_id: product?.id, amount: '20.00', nickname: '并发' }, { headers: { 'idempotency-key': key() } });
  expect(opened.code, opened.message).toBe(0);
  expect((await issuer.issue(opened.data.id)).status).toBe(200);
  expect((await api.put('/account/trx-password', { trx_password: 'Right123', password: who.password })).code).toBe(0);
  return { api, cardId: opened.data.id, accountId: id, merchantId: String(account?.merchant_id) };
}
