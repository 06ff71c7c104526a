import type { AccountInfo } from '@portal/contract/account';
import type { BatchStatusAnswer } from '@portal/contract/card-batches';
import type { CardItem, CardPage, OpenedAvailableAnswer } from '@portal/contract/cards';
import { ErrorCode } from '@portal/contract/errors';
import type { AccountBalanceItem } from '@portal/contract/wallet';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, signUp } from '../helpers/accounts.ts';
import type { ApiClient } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { scriptedIssuer } from '../helpers/issuer.ts';
import { expectSoundBooks } from '../helpers/ledger.ts';
import { queryRows } from '../helpers/sql.ts';
import { expectUnchanged } from '../helpers/unchanged.ts';

const issuer = scriptedIssuer();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ issuer: issuer.port });
  issuer.attach(t);
});
afterAll(() => t?.close());

let serial = 0;
const key = () => `request-key-${Date.now().toString(36)}-${++serial}`;

interface Customer {
  id: string;
  api: ApiClient;
}

/** A verified customer with 1,000.00 USD in the wallet, and an issued subscription card holding 20.00. */
async function customer() {
  const who = await signUp(t);
  const api = t.api('localhost', who.token);
  const { id } = await api.data<AccountInfo>('GET', '/account/info');
  const [row] = await queryRows<{ merchant_id: string }>(t.database.db, sql`select merchant_id from accounts where id = ${id}`);
  await api.data('PUT', '/card/verification', { body: { real_name: '张三', id_number: '11010519491231002X' } });
  await api.data('PUT', '/card/verification', { body: { latin_name: 'Zhang San', website: 'https://shop.example.com' } });
  await t.services.ledger.recharge({ merchantId: String(row?.merchant_id), accountId: id, currency: 'USD', amount: 1000_00n, key: `fund-${id}` });
  const { products } = await api.data<OpenedAvailableAnswer>('GET', '/card/opened-available');
  const product = products.find((p) => p.name === '订阅支付卡');
  if (!product) throw new Error('no 订阅支付卡');
  const opened = await api.post<CardItem>('/card', { product_id: product.id, amount: '20.00', nickname: '已发卡' }, { headers: { 'idempotency-key': key() } });
  expect(opened.code, opened.message).toBe(0);
  expect((await issuer.issue(opened.data.id)).status).toBe(200);
  return { who: { id, api } satisfies Customer, merchantId: String(row?.merchant_id), productId: product.id, cardId: opened.data.id };
}

const money = (who: Customer) => async () =>
  JSON.stringify([
    await who.api.data('GET', '/balance/account-balance'),
    await who.api.data<CardPage>('GET', '/card', { query: { page_size: 100 } }),
    (await who.api.data<BatchStatusAnswer>('GET', '/card/batch-create-card-status')).batch_id,
  ]);

describe('an Idempotency-Key belongs to one call', () => {
  it('a key that topped a card up is refused (1006) for a withdrawal, an opening and a batch, and moves nothing; the top-up again answers its first answer', async () => {
    const { who, productId, cardId } = await customer();
    const shared = key();
    const first = await who.api.post(`/card/${cardId}/recharge`, { amount: '5.00' }, { headers: { 'idempotency-key': shared } });
    expect(first.code, first.message).toBe(0);
    const others: Array<[string, () => ReturnType<ApiClient['post']>]> = [
      ['withdraw', () => who.api.post(`/card/${cardId}/withdraw`, { amount: '5.00' }, { headers: { 'idempotency-key': shared } })],
      ['open', () => who.api.post('/card', { product_id: productId, amount: '10.00', nickname: '同键' }, { headers: { 'idempotency-key': shared } })],
      [
        'batch',
        () => who.api.post('/batch-create-card', { product_id: productId, quantity: 2, amount: '10.00', nickname_prefix: 'SK' }, { headers: { 'idempotency-key': shared } }),
      ],
    ];
    for (const [what, call] of others) {
      const refused = await expectUnchanged(money(who), call);
      expect([refused.status, refused.code], `${what}: ${refused.message}`).toEqual([409, ErrorCode.IDEMPOTENCY_CONFLICT]);
      expect(refused.message).toBe('请求编号已被另一笔不同的请求使用');
    }
    const again = await expectUnchanged(money(who), () => who.api.post(`/card/${cardId}/recharge`, { amount: '5.00' }, { headers: { 'idempotency-key': shared } }));
    expect(again.data).toEqual(first.data);
    await expectSoundBooks(t.database.db);
  });

  it("a key that withdrew is refused for a top-up; another account's key of the same text is its own", async () => {
    const { who, cardId } = await customer();
    const other = await customer();
    const shared = key();
    expect((await who.api.post(`/card/${cardId}/withdraw`, { amount: '1.00' }, { headers: { 'idempotency-key': shared } })).code).toBe(0);
    const refused = await expectUnchanged(money(who), () => who.api.post(`/card/${cardId}/recharge`, { amount: '1.00' }, { headers: { 'idempotency-key': shared } }));
    expect(refused.code).toBe(ErrorCode.IDEMPOTENCY_CONFLICT);
    const theirs = await other.who.api.post(`/card/${other.cardId}/recharge`, { amount: '1.00' }, { headers: { 'idempotency-key': shared } });
    expect(theirs.code, theirs.message).toBe(0);
  });
});

describe('a retry with a used key and the trade password', () => {
  it('answers the first answer before any trade password check: without one, with a wrong one, even while it is locked; no wrong one counted', async () => {
    const { who, cardId } = await customer();
    expect((await who.api.put('/account/trx-password', { trx_password: 'Right123', password: PASSWORD })).code).toBe(0);
    const used = key();
    const topUp = (trx: { trx_password?: string }, idempotency = used) =>
      who.api.post(`/card/${cardId}/recharge`, { amount: '4.00', ...trx }, { headers: { 'idempotency-key': idempotency } });
    const first = await topUp({ trx_password: 'Right123' });
    expect(first.code, first.message).toBe(0);
    for (const trx of [{}, { trx_password: 'Wrong123' }, { trx_password: 'Right123' }]) {
      const again = await expectUnchanged(money(who), () => topUp(trx));
      expect(again.code, again.message).toBe(0);
      expect(again.data).toEqual(first.data);
    }
    // none of the retries counted: the first wrong one of a new request has all its tries left
    const wrong = await topUp({ trx_password: 'Wrong123' }, key());
    expect([wrong.code, wrong.message]).toEqual([ErrorCode.TRX_PASSWORD_WRONG, '交易密码错误，还可尝试4次']);
    for (let i = 0; i < 4; i++) await topUp({ trx_password: 'Wrong123' }, key());
    expect((await topUp({ trx_password: 'Right123' }, key())).code).toBe(ErrorCode.TRX_PASSWORD_LOCKED);
    const locked = await topUp({ trx_password: 'Wrong123' });
    expect(locked.data).toEqual(first.data);
  });

  it('a refused top-up kept no answer: the same request again, once the wallet holds enough, asks the trade password and is refused while it is locked', async () => {
    const { who, merchantId, cardId } = await customer();
    expect((await who.api.put('/account/trx-password', { trx_password: 'Right123', password: PASSWORD })).code).toBe(0);
    const used = key();
    const topUp = (trx: { trx_password?: string }, idempotency = used) =>
      who.api.post(`/card/${cardId}/recharge`, { amount: '5000.00', ...trx }, { headers: { 'idempotency-key': idempotency } });
    const wallet = await who.api.data<AccountBalanceItem[]>('GET', '/balance/account-balance');
    expect(wallet.find((row) => row.currency === 'USD')?.available).toBe('977.50');
    const refused = await expectUnchanged(money(who), () => topUp({ trx_password: 'Right123' }));
    expect(refused.code, refused.message).toBe(ErrorCode.INSUFFICIENT_FUNDS);
    await t.services.ledger.recharge({ merchantId, accountId: who.id, currency: 'USD', amount: 10_000_00n, key: `more-${who.id}` });
    for (let i = 0; i < 5; i++) expect((await topUp({ trx_password: 'Wrong123' }, key())).code).not.toBe(0);
    expect((await topUp({ trx_password: 'Right123' }, key())).code).toBe(ErrorCode.TRX_PASSWORD_LOCKED);
    for (const trx of [{}, { trx_password: 'Right123' }]) {
      const again = await expectUnchanged(money(who), () => topUp(trx));
      expect(again.code, again.message).toBe(ErrorCode.TRX_PASSWORD_LOCKED);
    }
    await expectSoundBooks(t.database.db);
  });

  it('a refused opening, batch or withdrawal kept no answer either: the same request again, once there is money enough, asks the trade password', async () => {
    const { who, merchantId, productId, cardId } = await customer();
    expect((await who.api.put('/account/trx-password', { trx_password: 'Right123', password: PASSWORD })).code).toBe(0);
    const [openKey, batchKey, withdrawKey] = [key(), key(), key()];
    const calls: Array<[string, (trx: object) => ReturnType<ApiClient['post']>]> = [
      ['open', (trx) => who.api.post('/card', { product_id: productId, amount: '2000.00', nickname: '拒绝后', ...trx }, { headers: { 'idempotency-key': openKey } })],
      [
        'batch',
        (trx) =>
          who.api.post('/batch-create-card', { product_id: productId, quantity: 2, amount: '600.00', nickname_prefix: 'RF', ...trx }, { headers: { 'idempotency-key': batchKey } }),
      ],
      ['withdraw', (trx) => who.api.post(`/card/${cardId}/withdraw`, { amount: '100.00', ...trx }, { headers: { 'idempotency-key': withdrawKey } })],
    ];
    for (const [what, call] of calls) {
      const refused = await expectUnchanged(money(who), () => call({ trx_password: 'Right123' }));
      expect(refused.code, `${what}: ${refused.message}`).toBe(what === 'withdraw' ? ErrorCode.CARD_BALANCE_INSUFFICIENT : ErrorCode.INSUFFICIENT_FUNDS);
    }
    await t.services.ledger.recharge({ merchantId, accountId: who.id, currency: 'USD', amount: 10_000_00n, key: `more-${who.id}` });
    const funded = await who.api.post(`/card/${cardId}/recharge`, { amount: '200.00', trx_password: 'Right123' }, { headers: { 'idempotency-key': key() } });
    expect(funded.code, funded.message).toBe(0);
    for (const [what, call] of calls) {
      const again = await expectUnchanged(money(who), () => call({}));
      expect(again.code, `${what}: ${again.message}`).toBe(ErrorCode.TRX_PASSWORD_REQUIRED);
    }
    await expectSoundBooks(t.database.db);
  });

  it('the same key with another amount is no retry: the trade password is asked, then the key refused', async () => {
    const { who, cardId } = await customer();
    expect((await who.api.put('/account/trx-password', { trx_password: 'Right123', password: PASSWORD })).code).toBe(0);
    const used = key();
    expect((await who.api.post(`/card/${cardId}/recharge`, { amount: '4.00', trx_password: 'Right123' }, { headers: { 'idempotency-key': used } })).code).toBe(0);
    const other = (trx: object) => who.api.post(`/card/${cardId}/recharge`, { amount: '6.00', ...trx }, { headers: { 'idempotency-key': used } });
    expect((await other({})).code).toBe(ErrorCode.TRX_PASSWORD_REQUIRED);
    expect((await expectUnchanged(money(who), () => other({ trx_password: 'Right123' }))).code).toBe(ErrorCode.IDEMPOTENCY_CONFLICT);
  });
});
