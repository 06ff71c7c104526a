import { type BatchExportList, type BatchExportStatus, type BatchStatusAnswer, CardBatchErrorCode, DEFAULT_EXPORT_COLUMNS, EXPORT_COLUMNS } from '@portal/contract/card-batches';
import { CardErrorCode } from '@portal/contract/card-errors';
import { chinaDayStart } from '@portal/contract/card-spending';
import type { CardItem, CardPage, OpenedAvailableAnswer } from '@portal/contract/cards';
import { chinaDateTime } from '@portal/contract/date-time';
import { ErrorCode } from '@portal/contract/errors';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { copyFileSync, existsSync, readdirSync, readFileSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.ts';
import { lastCode, phoneTo, signIn, signUp } from '../helpers/accounts.ts';
import type { ApiClient } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { scriptedIssuer } from '../helpers/issuer.ts';
import { expectSoundBooks } from '../helpers/ledger.ts';
import { until } from '../helpers/until.ts';
import { chinaTimeCell, expectExportLayout } from '../helpers/xlsx.ts';

const clock = new ManualClock(new Date('2026-11-24T08:00:00Z'));
const issuer = scriptedIssuer();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock, issuer: issuer.port, config: { jobs: { batchConcurrency: 10, superviseSeconds: 5 } } });
  issuer.attach(t);
});
afterAll(() => t?.close());

const ID_NUMBER = '11010519491231002X';
let serial = 0;
const key = () => `batch-key-${Date.now().toString(36)}-${++serial}`;
const rows = async (query: ReturnType<typeof sql>) => ((await t.database.db.execute(query)) as unknown as { rows: Array<Record<string, unknown>> }).rows;

interface Customer {
  id: string;
  phone: string;
  api: ApiClient;
  merchantId: string;
}

async function customer(options: { host?: string; usd?: bigint; verify?: 'none' | 'basic' | 'both' } = {}): Promise<Customer> {
  const host = options.host ?? 'localhost';
  const who = await signUp(t, host);
  const api = t.api(host, who.token);
  const { id } = await api.data<{ id: string }>('GET', '/account/info');
  const merchantId = String((await rows(sql`select merchant_id from accounts where id = ${id}`))[0]?.merchant_id);
  const verify = options.verify ?? 'both';
  if (verify !== 'none') await api.data('PUT', '/card/verification', { body: { real_name: '张三', id_number: ID_NUMBER } });
  if (verify === 'both') await api.data('PUT', '/card/verification', { body: { latin_name: 'Zhang San', website: 'https://shop.example.com' } });
  const usd = options.usd ?? 1000_00n;
  if (usd > 0n) await t.services.ledger.recharge({ merchantId, accountId: id, currency: 'USD', amount: usd, key: `fund-${id}-${usd}` });
  return { id, phone: who.phone, api, merchantId };
}

async function product(who: Customer, name = '订阅支付卡') {
  const { products } = await who.api.data<OpenedAvailableAnswer>('GET', '/card/opened-available');
  const found = products.find((p) => p.name === name);
  if (!found) throw new Error(`no product ${name}`);
  return found;
}

const wallet = async (who: Customer) => {
  const items = await who.api.data<Array<{ currency: string; available: string; anew: string }>>('GET', '/balance/account-balance');
  const usd = items.find((i) => i.currency === 'USD');
  return { available: usd?.available ?? '0.00', held: usd?.anew ?? '0.00' };
};

const createBatch = (who: Customer, body: Record<string, unknown>, idempotency = key()) =>
  who.api.post<{ batch_id: string }>('/batch-create-card', body, { headers: { 'idempotency-key': idempotency } });
const batchStatus = (who: Customer) => who.api.data<BatchStatusAnswer>('GET', '/card/batch-create-card-status');

/** The cards of a batch, oldest first, once the issuer has been asked for every one of them. */
async function askedCards(batchId: string, quantity: number) {
  const cards = await rows(sql`select id, nickname, status from cards where batch_id = ${batchId} order by nickname`);
  expect(cards).toHaveLength(quantity);
  const ids = cards.map((card) => String(card.id));
  await until(`the issuer asked for ${quantity} cards`, async () => ids.every((id) => issuer.requests.some((r) => r.kind === 'open' && r.cardId === id)));
  return cards.map((card) => ({ id: String(card.id), nickname: String(card.nickname) }));
}

const messagesOf = async (accountId: string) =>
  rows(sql`select type, title, content, status from station_messages where account_id = ${accountId} order by created_at`);

describe('POST /batch-create-card', () => {
  it('holds the whole cost at once, makes every card PREFIX-001 …, opens them by job, posts each success and releases each failure to the cent, with one message listing the failures', async () => {
    const who = await customer();
    const subscription = await product(who);
    const before = await wallet(who);
    expect(before).toEqual({ available: '1000.00', held: '0.00' });
    expect(await batchStatus(who)).toMatchObject({ exist: false, success_count: 0, fail_count: 0, total_count: 0, batch_id: null, status: null });

    // 订阅支付卡: opening fee 2.00; top-up fee 10.00 × 1% + 0.30 = 0.40; 12.40 a card
    const idempotency = key();
    const body = { product_id: subscription.id, quantity: 4, amount: '10.00', nickname_prefix: 'FB' };
    const accepted = await createBatch(who, body, idempotency);
    expect(accepted.code, accepted.message).toBe(0);
    const batchId = accepted.data.batch_id;
    expect(await wallet(who)).toEqual({ available: '950.40', held: '49.60' });

    const again = await createBatch(who, body, idempotency);
    expect(again.data.batch_id).toBe(batchId);
    expect((await createBatch(who, { ...body, quantity: 3 }, idempotency)).code).toBe(ErrorCode.IDEMPOTENCY_CONFLICT);

    const running = await batchStatus(who);
    expect(Object.keys(running).slice(0, 4)).toEqual(['exist', 'success_count', 'fail_count', 'total_count']);
    expect(running).toMatchObject({ exist: true, success_count: 0, fail_count: 0, total_count: 4, batch_id: batchId, status: 'RUNNING' });

    const cards = await askedCards(batchId, 4);
    expect(cards.map((card) => card.nickname)).toEqual(['FB-001', 'FB-002', 'FB-003', 'FB-004']);
    const list = await who.api.data<CardPage>('GET', '/card', { query: { page_size: 10 } });
    expect(list.items.every((card) => card.batch_id === batchId && card.status === 'CARD_STATUS_INIT')).toBe(true);
    // asked once each
    for (const card of cards) expect(issuer.requests.filter((r) => r.kind === 'open' && r.cardId === card.id)).toHaveLength(1);

    const [first, second, third, fourth] = cards as [(typeof cards)[0], (typeof cards)[0], (typeof cards)[0], (typeof cards)[0]];
    expect((await issuer.issue(first.id)).status).toBe(200);
    expect((await issuer.fail(second.id, '发卡行风控拒绝')).status).toBe(200);
    expect(await batchStatus(who)).toMatchObject({ exist: true, success_count: 1, fail_count: 1, total_count: 4, status: 'RUNNING' });
    // a repeated event counts nothing twice
    expect((await issuer.fail(second.id, '发卡行风控拒绝')).status).toBe(200);
    expect((await issuer.issue(third.id)).status).toBe(200);
    expect((await issuer.fail(fourth.id, 'BIN 额度已满')).status).toBe(200);

    const ended = await batchStatus(who);
    expect(ended).toMatchObject({ exist: false, success_count: 2, fail_count: 2, total_count: 4, batch_id: batchId, status: 'FAIL' });
    expect(ended.message_id).toBeTruthy();
    // two cards charged 12.40 each; the other two cards' shares back to the cent, nothing held
    expect(await wallet(who)).toEqual({ available: '975.20', held: '0.00' });
    const held = await rows(sql`select coalesce(sum(amount), 0)::text as held from ledger_holds where reference = ${`batch:${batchId}`} and status = 'ACTIVE'`);
    expect(held[0]?.held).toBe('0');

    const messages = await messagesOf(who.id);
    expect(messages.filter((m) => m.type === 'CARD_FAILED')).toHaveLength(0);
    const results = messages.filter((m) => m.type === 'BATCH_CARD_RESULT');
    expect(results).toHaveLength(1);
    expect(results[0]?.title).toBe('批量开卡完成：成功 2 张，失败 2 张');
    expect(String(results[0]?.content)).toContain('FB-002：发卡行风控拒绝');
    expect(String(results[0]?.content)).toContain('FB-004：BIN 额度已满');
    await expectSoundBooks(t.database.db);
  });

  it('runs one batch of an account at a time', async () => {
    const who = await customer();
    const subscription = await product(who);
    const body = { product_id: subscription.id, quantity: 2, amount: '5.00', nickname_prefix: 'ONE' };
    const first = await createBatch(who, body);
    expect(first.code, first.message).toBe(0);
    const second = await createBatch(who, body);
    expect(second.code).toBe(CardBatchErrorCode.BATCH_RUNNING);
    expect(second.message).toBe('您有一个批量开卡任务正在进行，请等待其完成后再提交');
    expect(second.data).toEqual({ batch_id: first.data.batch_id });
    const cards = await askedCards(first.data.batch_id, 2);
    for (const card of cards) await issuer.issue(card.id);
    expect(await batchStatus(who)).toMatchObject({ exist: false, success_count: 2, status: 'SUCCESS', message_id: null });
    const third = await createBatch(who, body);
    expect(third.code, third.message).toBe(0);
  });

  it('refuses the whole batch, holding nothing and making no card, for too little money, a frozen wallet, the quota, the batch limit or missing verification', async () => {
    const nothingMade = async (who: Customer) => {
      expect(await wallet(who)).toMatchObject({ held: '0.00' });
      expect((await rows(sql`select count(*)::int as n from cards where account_id = ${who.id}`))[0]?.n).toBe(0);
      expect((await rows(sql`select count(*)::int as n from card_batches where account_id = ${who.id}`))[0]?.n).toBe(0);
    };
    // 10 cards of 12.40 cost 124.00
    const poor = await customer({ usd: 123_99n });
    const subscription = await product(poor);
    const body = { product_id: subscription.id, quantity: 10, amount: '10.00', nickname_prefix: 'P' };
    const refusedMoney = await createBatch(poor, body);
    expect(refusedMoney.code).toBe(ErrorCode.INSUFFICIENT_FUNDS);
    expect(refusedMoney.message).toMatch(/可用余额不足/);
    await nothingMade(poor);

    const frozen = await customer();
    await t.services.wallet.freeze({ merchantId: frozen.merchantId, accountId: frozen.id, reason: '风控' });
    expect((await createBatch(frozen, body)).code).toBe(ErrorCode.WALLET_FROZEN);
    await nothingMade(frozen);

    const unverified = await customer({ verify: 'none' });
    expect((await createBatch(unverified, body)).code).toBe(CardErrorCode.CARD_NOT_VERIFIED);
    await nothingMade(unverified);
    const basicOnly = await customer({ verify: 'basic' });
    const ads = await product(basicOnly, '广告投放卡');
    expect((await createBatch(basicOnly, { ...body, product_id: ads.id })).code).toBe(CardErrorCode.CARD_SECONDARY_REQUIRED);
    await nothingMade(basicOnly);

    // 订阅支付卡 opens at most 100 a batch
    const many = await customer();
    const overMax = await createBatch(many, { ...body, quantity: 101 });
    expect(overMax.code).toBe(CardBatchErrorCode.BATCH_OVER_PRODUCT_MAX);
    expect(overMax.message).toBe('该卡片产品单批最多开100张');
    await nothingMade(many);
    expect((await createBatch(many, { ...body, quantity: 1 })).code).toBe(ErrorCode.VALIDATION);
    expect((await createBatch(many, { ...body, quantity: 501 })).code).toBe(ErrorCode.VALIDATION);
    expect((await createBatch(many, { ...body, nickname_prefix: '前缀前缀前缀前缀前缀前缀前缀前缀前' })).code).toBe(ErrorCode.VALIDATION);

    // the quota: a product of another merchant whose accounts may hold 3 of it
    const orange = await customer({ host: 'orange.localhost' });
    const orangeSubscription = await product(orange);
    await t.database.db.execute(sql`update card_products set per_account_limit = 3 where id = ${orangeSubscription.id}`);
    const quota = await createBatch(orange, { ...body, product_id: orangeSubscription.id, quantity: 4 });
    expect(quota.code).toBe(CardErrorCode.CARD_QUOTA_USED);
    await nothingMade(orange);
    await expectSoundBooks(t.database.db);
  });

  it('is refused without an Idempotency-Key', async () => {
    const who = await customer({ usd: 0n });
    const subscription = await product(who);
    const answer = await who.api.post('/batch-create-card', { product_id: subscription.id, quantity: 2, amount: '10.00', nickname_prefix: 'K' });
    expect(answer.code).toBe(CardErrorCode.IDEMPOTENCY_KEY_MISSING);
  });
});

describe('bulk export', () => {
  let owner: Customer;
  let issued: Array<{ id: string; nickname: string; pan: string; cvv: string }>;

  beforeAll(async () => {
    owner = await customer();
    const subscription = await product(owner);
    const accepted = await createBatch(owner, { product_id: subscription.id, quantity: 3, amount: '10.00', nickname_prefix: 'EX' });
    const cards = await askedCards(accepted.data.batch_id, 3);
    issued = [];
    for (const card of cards.slice(0, 2)) {
      const { numbers } = await issuer.issue(card.id);
      issued.push({ ...card, pan: numbers.pan, cvv: numbers.cvv });
    }
    await issuer.fail((cards[2] as (typeof cards)[0]).id, '拒绝');
  });

  const exportOf = async (who: Customer, body: Record<string, unknown>) => {
    const answer = await who.api.post<{ export_id: string }>('/card/batch-export', body, { headers: { 'user-agent': 'export-agent' } });
    expect(answer.code, answer.message).toBe(0);
    const id = answer.data.export_id;
    return until(`export ${id} written`, async () => {
      const status = await who.api.data<BatchExportStatus>('GET', '/card/batch-export-status', { query: { export_id: id } });
      return status.status === 'DONE' || status.status === 'FAILED' ? status : undefined;
    });
  };

  async function sheetOf(who: Customer, id: string) {
    const response = await t.app.inject({ method: 'GET', url: `/api/v1/card/batch-export/${id}/file`, headers: { host: 'localhost', authorization: `Bearer ${who.api.token}` } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/spreadsheetml/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    if (!sheet) throw new Error('no sheet');
    const headers = (sheet.getRow(1).values as unknown[]).map(String);
    if (sheet.rowCount > 1) {
      expectExportLayout(sheet, { times: headers.filter((name) => name === '开卡时间'), amounts: headers.filter((name) => name === '可用余额') });
    }
    const values: string[][] = [];
    sheet.eachRow((row) => values.push((row.values as unknown[]).slice(1).map((value) => String(value ?? ''))));
    return values;
  }

  it('writes the cards the filters choose, with the columns asked for, full numbers masked', async () => {
    const status = await exportOf(owner, { filters: { status: 'NORMAL' }, columns: ['card_number', 'nickname', 'cvv', 'status'] });
    expect(status).toMatchObject({ status: 'DONE', done: 2, total: 2, include_sensitive: false, columns: ['nickname', 'card_number', 'cvv', 'status'] });
    expect(status.file_name).toMatch(/^卡片导出-\d{8}-\d{6}\.xlsx$/);
    expect(status.size).toBeGreaterThan(0);
    expect(new Date(status.expires_at ?? 0).getTime()).toBe(clock.now().getTime() + 24 * 3_600_000);
    const sheet = await sheetOf(owner, status.export_id);
    expect(sheet[0]).toEqual(['卡片昵称', '卡号', 'CVV', '状态']);
    expect(sheet.slice(1).map((row) => row[0]).sort()).toEqual(['EX-001', 'EX-002']);
    for (const row of sheet.slice(1)) {
      const card = issued.find((c) => c.nickname === row[0]);
      expect(row[1]).toBe(`**** **** **** ${card?.pan.slice(-4)}`);
      expect(row[2]).toBe('***');
      expect(row[3]).toBe('使用中');
    }
    clock.advance(1_000);
    const failed = await exportOf(owner, { filters: { keyword: 'EX-003' } });
    expect(failed.total).toBe(1);
    const list = await owner.api.data<BatchExportList>('GET', '/card/batch-exports');
    expect(list.items.map((item) => item.export_id).slice(0, 2)).toEqual([failed.export_id, status.export_id]);
    const latest = await owner.api.data<BatchExportStatus>('GET', '/card/batch-export-status');
    expect(latest.export_id).toBe(failed.export_id);
  });

  it('writes opening times as China-time date cells and balances as numbers, under a frozen header that filters', async () => {
    const status = await exportOf(owner, { filters: { status: 'NORMAL' } });
    // sheetOf checks the layout: the frozen, filtering header, 开卡时间 date cells, 可用余额 numbers to the cent
    const sheet = await sheetOf(owner, status.export_id);
    expect(sheet[0]).toEqual(DEFAULT_EXPORT_COLUMNS.map((key) => EXPORT_COLUMNS[key].header));
    const opened = DEFAULT_EXPORT_COLUMNS.indexOf('created_at');
    const balance = DEFAULT_EXPORT_COLUMNS.indexOf('balance');
    for (const row of sheet.slice(1)) {
      const card = issued.find((c) => c.nickname === row[0]);
      const detail = await owner.api.data<CardItem>('GET', `/card/${card?.id}`);
      expect(row[opened]).toBe(String(chinaTimeCell(chinaDateTime(detail.created_at, { seconds: true }))));
      expect(row[balance]).toBe(String(Number(detail.balance)));
    }
  });

  it('puts full numbers, CVV and expiry in only when asked for with an access code, and records who took them', async () => {
    const refused = await owner.api.post('/card/batch-export', { filters: {}, include_sensitive: true, columns: ['nickname', 'card_number', 'cvv', 'expiry'] });
    expect(refused.code).toBe(CardBatchErrorCode.EXPORT_CODE_REQUIRED);
    await owner.api.post('/account/send/code-auto', { send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_ACCESS' });
    const code = await lastCode(t, phoneTo(owner.phone));
    const status = await exportOf(owner, {
      filters: {},
      ids: issued.map((card) => card.id),
      include_sensitive: true,
      captcha: code,
      columns: ['nickname', 'card_number', 'cvv', 'expiry'],
    });
    expect(status).toMatchObject({ status: 'DONE', total: 2, include_sensitive: true });
    const sheet = await sheetOf(owner, status.export_id);
    for (const row of sheet.slice(1)) {
      const card = issued.find((c) => c.nickname === row[0]);
      expect(row[1]).toBe(card?.pan);
      expect(row[2]).toBe(card?.cvv);
      expect(row[3]).toBe('07/29');
    }
    const audit = await rows(sql`select ip, user_agent, include_sensitive from card_exports where id = ${status.export_id}`);
    expect(audit[0]).toMatchObject({ user_agent: 'export-agent', include_sensitive: true });
  });

  it("never answers another account's export, nor one of another merchant, and leaves out cards that are not the account's own", async () => {
    const status = await exportOf(owner, { filters: {} });
    const other = await customer({ usd: 0n });
    const answer = await other.api.get(`/card/batch-export/${status.export_id}/file`);
    expect(answer.code).toBe(CardBatchErrorCode.EXPORT_NOT_FOUND);
    expect((await other.api.get('/card/batch-export-status', { query: { export_id: status.export_id } })).code).toBe(CardBatchErrorCode.EXPORT_NOT_FOUND);
    const elsewhere = await customer({ host: 'orange.localhost', usd: 0n });
    expect((await elsewhere.api.get(`/card/batch-export/${status.export_id}/file`)).code).toBe(CardBatchErrorCode.EXPORT_NOT_FOUND);
    const theirs = await exportOf(other, { filters: {}, ids: issued.map((card) => card.id) });
    expect(theirs).toMatchObject({ status: 'DONE', total: 0 });
  });

  const fileOfExport = (id: string) => path.join(t.dataDir, 'exports', `${id}.xlsx`);
  const download = (who: Customer, id: string) =>
    t.app.inject({ method: 'GET', url: `/api/v1/card/batch-export/${id}/file`, headers: { host: 'localhost', authorization: `Bearer ${who.api.token}` } });

  it('keeps the file sealed on disk (only the server may read it, no number or zip in clear), and opens it on download', async () => {
    // a code to the same phone may be sent once a minute
    clock.advance(61_000);
    await owner.api.post('/account/send/code-auto', { send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_ACCESS' });
    const code = await lastCode(t, phoneTo(owner.phone));
    const status = await exportOf(owner, { filters: {}, ids: issued.map((card) => card.id), include_sensitive: true, captcha: code, columns: ['nickname', 'card_number', 'cvv'] });
    const file = fileOfExport(status.export_id);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(path.dirname(file)).filter((name) => name.startsWith(status.export_id))).toEqual([`${status.export_id}.xlsx`]);
    const onDisk = readFileSync(file);
    expect(onDisk.subarray(0, 2).toString('latin1')).not.toBe('PK');
    for (const card of issued) expect(onDisk.includes(Buffer.from(card.pan))).toBe(false);
    const answer = await download(owner, status.export_id);
    expect(answer.statusCode).toBe(200);
    expect(answer.rawPayload.subarray(0, 2).toString('latin1')).toBe('PK');
    expect(Number(answer.headers['content-length'])).toBe(answer.rawPayload.length);
    expect(answer.rawPayload.length).toBe(status.size);
    const sheet = await sheetOf(owner, status.export_id);
    expect(sheet.slice(1).map((row) => row[1]).sort()).toEqual(issued.map((card) => card.pan).sort());
  });

  it('serves a file with full numbers only to the session that made it: another session of the account sees it listed, not downloadable, and is refused with nothing of it', async () => {
    // a code to the same phone may be sent once a minute: one to sign in elsewhere, one to export
    clock.advance(61_000);
    const elsewhere: Customer = { ...owner, api: t.api('localhost', (await signIn(t, 'localhost', { phone: owner.phone })).token) };
    clock.advance(61_000);
    await owner.api.post('/account/send/code-auto', { send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_ACCESS' });
    const code = await lastCode(t, phoneTo(owner.phone));
    const sensitive = await exportOf(owner, { filters: {}, ids: issued.map((card) => card.id), include_sensitive: true, captcha: code, columns: ['nickname', 'card_number', 'cvv'] });
    const masked = await exportOf(owner, { filters: { status: 'NORMAL' } });

    const refused = await download(elsewhere, sensitive.export_id);
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['content-type']).toMatch(/json/);
    expect(refused.json()).toMatchObject({ code: CardBatchErrorCode.EXPORT_OTHER_SESSION, message: '含完整卡号的导出文件仅限发起导出的登录设备下载，如需下载请重新导出' });
    expect(refused.rawPayload.subarray(0, 2).toString('latin1')).not.toBe('PK');
    for (const card of issued) expect(refused.rawPayload.includes(Buffer.from(card.pan))).toBe(false);

    // the list and the status say so to each session
    const listed = async (who: Customer) => (await who.api.data<BatchExportList>('GET', '/card/batch-exports')).items;
    const seenElsewhere = await listed(elsewhere);
    expect(seenElsewhere.find((item) => item.export_id === sensitive.export_id)).toMatchObject({ status: 'DONE', include_sensitive: true, downloadable: false });
    expect(seenElsewhere.find((item) => item.export_id === masked.export_id)).toMatchObject({ status: 'DONE', downloadable: true });
    expect((await elsewhere.api.data<BatchExportStatus>('GET', '/card/batch-export-status', { query: { export_id: sensitive.export_id } })).downloadable).toBe(false);
    expect((await listed(owner)).find((item) => item.export_id === sensitive.export_id)).toMatchObject({ downloadable: true });
    expect(sensitive.downloadable).toBe(true);

    // the file is untouched: its own session still takes it, and a masked file any session of the account
    const taken = await sheetOf(owner, sensitive.export_id);
    expect(taken.slice(1).map((row) => row[1]).sort()).toEqual(issued.map((card) => card.pan).sort());
    expect((await download(elsewhere, masked.export_id)).statusCode).toBe(200);
  });

  it('refuses a changed file, or another export’s file, cleanly: a 中文 refusal and not a byte of it', async () => {
    const first = await exportOf(owner, { filters: { status: 'NORMAL' } });
    const second = await exportOf(owner, { filters: { status: 'NORMAL' } });
    const file = fileOfExport(first.export_id);
    const changed = readFileSync(file);
    const at = Math.floor(changed.length / 2);
    changed[at] = (changed[at] as number) ^ 1;
    writeFileSync(file, changed);
    for (const id of [first.export_id]) {
      const answer = await download(owner, id);
      expect(answer.statusCode).toBe(410);
      expect(answer.headers['content-type']).toMatch(/json/);
      expect(answer.json()).toMatchObject({ code: CardErrorCode.EXPORT_FILE_DAMAGED, message: '导出文件校验失败，无法下载，请重新导出' });
    }
    // a file put in another export's place does not open under that export's id
    copyFileSync(fileOfExport(second.export_id), file);
    expect((await download(owner, first.export_id)).json()).toMatchObject({ code: CardErrorCode.EXPORT_FILE_DAMAGED });
    expect((await download(owner, second.export_id)).statusCode).toBe(200);
  });

  it('a file written in clear before files were sealed is not served: it is deleted, and its export expired', async () => {
    const served = await exportOf(owner, { filters: { status: 'NORMAL' } });
    const swept = await exportOf(owner, { filters: { status: 'NORMAL' } });
    const clearFile = Buffer.from((await download(owner, served.export_id)).rawPayload);
    for (const id of [served.export_id, swept.export_id]) writeFileSync(fileOfExport(id), clearFile);
    const answer = await download(owner, served.export_id);
    expect(answer.json()).toMatchObject({ code: CardBatchErrorCode.EXPORT_EXPIRED });
    expect(existsSync(fileOfExport(served.export_id))).toBe(false);
    expect((await owner.api.data<BatchExportStatus>('GET', '/card/batch-export-status', { query: { export_id: served.export_id } })).status).toBe('EXPIRED');
    // the scheduled job finds the others
    expect(await t.services.cardExports.expire()).toBeGreaterThanOrEqual(1);
    expect(existsSync(fileOfExport(swept.export_id))).toBe(false);
    expect((await owner.api.data<BatchExportStatus>('GET', '/card/batch-export-status', { query: { export_id: swept.export_id } })).status).toBe('EXPIRED');
  });

  it('keeps a file 24 hours: then it is refused, and the scheduled job deletes it (EXPIRED)', async () => {
    const status = await exportOf(owner, { filters: { status: 'NORMAL' } });
    const file = path.join(t.dataDir, 'exports', `${status.export_id}.xlsx`);
    expect(existsSync(file)).toBe(true);
    clock.advance(24 * 3_600_000 + 1_000);
    expect((await owner.api.get(`/card/batch-export/${status.export_id}/file`)).code).toBe(CardBatchErrorCode.EXPORT_EXPIRED);
    expect(await t.services.cardExports.expire()).toBeGreaterThanOrEqual(1);
    expect(existsSync(file)).toBe(false);
    const after = await owner.api.data<BatchExportStatus>('GET', '/card/batch-export-status', { query: { export_id: status.export_id } });
    expect(after.status).toBe('EXPIRED');
  });
});

describe('exports with full numbers go through the reveal’s gate', () => {
  const SENSITIVE = { filters: {}, include_sensitive: true, columns: ['nickname', 'card_number', 'cvv'] };
  const DAY_MS = 24 * 3_600_000;

  /** A fresh access code to the customer's phone (one a minute may be sent). */
  async function accessCode(who: Customer, api: ApiClient = who.api) {
    clock.advance(61_000);
    const sent = await api.post('/account/send/code-auto', { send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_ACCESS' });
    expect(sent.code, sent.message).toBe(0);
    return lastCode(t, phoneTo(who.phone));
  }
  const sensitiveExports = async (who: Customer) =>
    (await rows(sql`select count(*)::int as n from card_exports where account_id = ${who.id} and include_sensitive`))[0]?.n;

  async function issuedCard(who: Customer) {
    const opened = await who.api.post<{ id: string }>('/card', { product_id: (await product(who)).id, amount: '10.00', nickname: '单卡' }, { headers: { 'idempotency-key': key() } });
    expect(opened.code, opened.message).toBe(0);
    await issuer.issue(opened.data.id);
    return opened.data.id;
  }

  it('a code checked in one session exports nothing with full numbers from another session of the account', async () => {
    const who = await customer({ usd: 0n, verify: 'none' });
    const other = t.api('localhost', (await signIn(t, 'localhost', { phone: who.phone })).token);
    const code = await accessCode(who);
    expect((await who.api.post('/card/batch-export', { ...SENSITIVE, captcha: code })).code).toBe(0);
    expect((await who.api.post('/card/batch-export', SENSITIVE)).code).toBe(0);
    expect((await other.post('/card/batch-export', SENSITIVE)).code).toBe(CardBatchErrorCode.EXPORT_CODE_REQUIRED);
    expect(await sensitiveExports(who)).toBe(2);
  });

  it('counts as a reveal: after 30 reveals in the hour it is refused (4010) and nothing is exported; an export leaves one reveal fewer', async () => {
    const who = await customer();
    const card = await issuedCard(who);
    expect((await who.api.post(`/card/${card}/reveal`, { captcha: await accessCode(who) })).code).toBe(0);
    for (let i = 1; i < 30; i++) {
      clock.advance(1_000);
      expect((await who.api.post(`/card/${card}/reveal`, {})).code).toBe(0);
    }
    const refused = await who.api.post<{ seconds: number }>('/card/batch-export', { ...SENSITIVE, captcha: await accessCode(who) });
    expect(refused.code).toBe(CardErrorCode.REVEAL_LIMIT);
    expect(refused.message).toMatch(/^查看和导出完整卡号过于频繁，请\d+秒后再试$/);
    expect(refused.data.seconds).toBeGreaterThan(0);
    expect(await sensitiveExports(who)).toBe(0);
    // a masked export reveals nothing and is not counted
    expect((await who.api.post('/card/batch-export', { filters: {} })).code).toBe(0);

    clock.advance(3_600_000);
    expect((await who.api.post('/card/batch-export', { ...SENSITIVE, captcha: await accessCode(who) })).code).toBe(0);
    for (let i = 0; i < 29; i++) {
      clock.advance(1_000);
      expect((await who.api.post(`/card/${card}/reveal`, {})).code).toBe(0);
    }
    expect((await who.api.post(`/card/${card}/reveal`, {})).code).toBe(CardErrorCode.REVEAL_LIMIT);
  });

  it('at most 5 a day in China time: the 6th is refused (4013) with nothing exported and its code unspent, until 00:00 China time', async () => {
    const who = await customer();
    const card = await issuedCard(who);
    // start the day's count well inside a China day (UTC+8), whatever the clock reached
    const nextDay = chinaDayStart(new Date(clock.now().getTime() + DAY_MS));
    if (nextDay.getTime() - clock.now().getTime() < 3_600_000) clock.set(new Date(nextDay.getTime() + 60_000));
    expect((await who.api.post('/card/batch-export', { ...SENSITIVE, captcha: await accessCode(who) })).code).toBe(0);
    for (let i = 1; i < 5; i++) {
      clock.advance(1_000);
      expect((await who.api.post('/card/batch-export', SENSITIVE)).code).toBe(0);
    }
    const code = await accessCode(who);
    const refused = await who.api.post<{ limit: number; retry_at: string }>('/card/batch-export', { ...SENSITIVE, captcha: code });
    expect(refused.code).toBe(CardErrorCode.SENSITIVE_EXPORT_DAILY_LIMIT);
    expect(refused.status).toBe(429);
    expect(refused.message).toBe('今日导出完整卡号已达5次上限，请明天再试');
    const midnight = chinaDayStart(new Date(clock.now().getTime() + DAY_MS));
    expect(refused.data).toEqual({ limit: 5, retry_at: midnight.toISOString() });
    expect(await sensitiveExports(who)).toBe(5);
    // the refused export did not use its code
    expect((await who.api.post(`/card/${card}/reveal`, { captcha: code })).code).toBe(0);

    // the last second of the China day is still today; its first second is tomorrow
    clock.set(new Date(midnight.getTime() - 62_000));
    const late = await accessCode(who);
    expect((await who.api.post('/card/batch-export', { ...SENSITIVE, captcha: late })).code).toBe(CardErrorCode.SENSITIVE_EXPORT_DAILY_LIMIT);
    clock.set(midnight);
    expect((await who.api.post('/card/batch-export', { ...SENSITIVE, captcha: late })).code).toBe(0);
    expect(await sensitiveExports(who)).toBe(6);
  });

  it('a write that fails partway leaves neither its part file nor an open file behind', async () => {
    const who = await customer();
    const card = await issuedCard(who);
    // the card's numbers no longer open: the write fails on the first page, after the file was begun
    await t.database.db.execute(sql`update cards set secret_sealed = 'damaged' where id = ${card}`);
    const answer = await who.api.post<{ export_id: string }>('/card/batch-export', { ...SENSITIVE, captcha: await accessCode(who) });
    expect(answer.code, answer.message).toBe(0);
    const id = answer.data.export_id;
    await until('the write failed once', async () => {
      const jobs = await rows(sql`select state from pgboss.job where name = 'card-export-write' and data->>'export_id' = ${id}`);
      return jobs.some((job) => job.state === 'retry' || job.state === 'failed');
    });
    expect(readdirSync(path.join(t.dataDir, 'exports')).filter((name) => name.startsWith(id))).toEqual([]);
    const held = readdirSync('/proc/self/fd').map((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return '';
      }
    });
    expect(held.filter((target) => target.includes(id))).toEqual([]);
  });
});
