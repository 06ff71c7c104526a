import type { AccountInfo } from '@portal/contract/account';
import type { CardPage, OpenedAvailableAnswer } from '@portal/contract/cards';
import { ErrorCode } from '@portal/contract/errors';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { scriptedIssuer } from '../helpers/issuer.ts';
import { expectSoundBooks } from '../helpers/ledger.ts';
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
const key = () => `key-race-${Date.now().toString(36)}-${++serial}`;

/** A verified customer with 1,000.00 USD in the wallet (and no trade password), and the subscription product. */
async function customer() {
  const who = await signUp(t);
  const api = t.api('localhost', who.token);
  const { id } = await api.data<AccountInfo>('GET', '/account/info');
  const [account] = await queryRows<{ merchant_id: string }>(t.database.db, sql`select merchant_id from accounts where id = ${id}`);
  await api.data('PUT', '/card/verification', { body: { real_name: '张三', id_number: '11010519491231002X' } });
  await api.data('PUT', '/card/verification', { body: { latin_name: 'Zhang San', website: 'https://shop.example.com' } });
  await t.services.ledger.recharge({ merchantId: String(account?.merchant_id), accountId: id, currency: 'USD', amount: 1000_00n, key: `fund-${id}` });
  const { products } = await api.data<OpenedAvailableAnswer>('GET', '/card/opened-available');
  const product = products.find((p) => p.name === '订阅支付卡');
  if (!product) throw new Error('no 订阅支付卡');
  return { api, productId: product.id };
}

describe('one Idempotency-Key under parallel requests', () => {
  it('thirty parallel batch requests with one key all answer the one batch it opened, held once', async () => {
    const { api, productId } = await customer();
    const shared = key();
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        api.post<{ batch_id: string }>('/batch-create-card', { product_id: productId, quantity: 2, amount: '10.00', nickname_prefix: 'RK' }, { headers: { 'idempotency-key': shared } }),
      ),
    );
    expect(answers.map((answer) => answer.code)).toEqual(Array(30).fill(0));
    expect(new Set(answers.map((answer) => answer.data.batch_id)).size).toBe(1);
    const [batches] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from card_batches where open_key = ${shared}`);
    expect(batches?.n).toBe(1);
    expect((await api.data<CardPage>('GET', '/card', { query: { page_size: 100 } })).total).toBe(2);
    await expectSoundBooks(t.database.db);
  });

  it('a top-up and a withdrawal sent at once with one key: one of them moves, the other answers 1006', async () => {
    const { api, productId } = await customer();
    const opened = await api.post<{ id: string }>('/card', { product_id: productId, amount: '20.00', nickname: '同键' }, { headers: { 'idempotency-key': key() } });
    expect((await issuer.issue(opened.data.id)).status).toBe(200);
    for (let round = 0; round < 5; round++) {
      const shared = key();
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => api.post(`/card/${opened.data.id}/${i % 2 ? 'withdraw' : 'recharge'}`, { amount: '1.00' }, { headers: { 'idempotency-key': shared } })),
      );
      const codes = answers.map((answer) => answer.code);
      expect(codes.filter((code) => code === 0)).toHaveLength(5);
      expect(codes.filter((code) => code === ErrorCode.IDEMPOTENCY_CONFLICT)).toHaveLength(5);
      // the five that moved are one call's first answer and its retries
      const done = answers.filter((answer) => answer.code === 0).map((answer) => JSON.stringify(answer.data));
      expect(new Set(done).size).toBe(1);
    }
    await expectSoundBooks(t.database.db);
  });
});
