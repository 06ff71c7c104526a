import type { AccountInfo } from '@portal/contract/account';
import type { CardItem, OpenedAvailableAnswer } from '@portal/contract/cards';
import { CardErrorCode } from '@portal/contract/card-errors';
import type { ActivityItem } from '@portal/contract/team';
import { TeamErrorCode } from '@portal/contract/team-errors';
import { XLSX_CONTENT_TYPE } from '@portal/contract/wallet';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/lib/crypto.ts';
import { freshEmail, freshPhone, lastCode, PASSWORD, phoneTo, signUp } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { scriptedIssuer } from '../helpers/issuer.ts';
import { queryRows } from '../helpers/sql.ts';

const issuer = scriptedIssuer();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ issuer: issuer.port });
  issuer.attach(t);
});
afterAll(() => t?.close());

let serial = 0;
const key = () => `activity-${Date.now().toString(36)}-${++serial}`;
const userAgent = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

interface Page {
  items: ActivityItem[];
  total: number;
}

/** An owner with a funded, verified account and an issued card; their calls come from a browser on Windows. */
async function owner() {
  const who = await signUp(t);
  const api = t.api('localhost', who.token);
  const info = await api.data<AccountInfo>('GET', '/account/info');
  const [row] = await queryRows<{ merchant_id: string }>(t.database.db, sql`select merchant_id from accounts where id = ${info.id}`);
  const merchantId = String(row?.merchant_id);
  await api.data('PUT', '/card/verification', { body: { real_name: '张三', id_number: '11010519491231002X' } });
  await t.services.ledger.recharge({ merchantId, accountId: info.id, currency: 'USD', amount: 1000_00n, key: `fund-${info.id}` });
  const { products } = await api.data<OpenedAvailableAnswer>('GET', '/card/opened-available');
  const product = products.find((p) => p.name === '订阅支付卡');
  if (!product) throw new Error('no 订阅支付卡');
  const headers = { 'idempotency-key': key(), 'user-agent': userAgent };
  const opened = await api.post<CardItem>('/card', { product_id: product.id, amount: '20.00', nickname: '投放卡' }, { headers });
  expect(opened.code, opened.message).toBe(0);
  expect((await issuer.issue(opened.data.id)).status).toBe(200);
  return { api, info, merchantId, cardId: opened.data.id, phone: who.phone };
}

/** A member of the account in `role`, signed in (written straight into the team, as an accepted invitation leaves it). */
async function memberOf(merchantId: string, accountId: string, role: string) {
  const phone = freshPhone();
  const [member] = await queryRows<{ id: string }>(
    t.database.db,
    sql`insert into members (merchant_id, account_id, role, phone, password_hash) values (${merchantId}, ${accountId}, ${role}, ${phone}, ${await hashPassword(PASSWORD)}) returning id`,
  );
  const { token } = await t.services.sessions.open(t.database.db, {
    merchantId,
    accountId,
    memberId: String(member?.id),
    stage: 'FULL',
    userAgent: 'test',
    ip: '127.0.0.1',
  });
  return { id: String(member?.id), api: t.api('localhost', token), phone };
}

describe('the activity log', () => {
  let a: Awaited<ReturnType<typeof owner>>;
  beforeAll(async () => {
    a = await owner();
    const headers = { 'idempotency-key': key(), 'user-agent': userAgent };
    expect((await a.api.post(`/card/${a.cardId}/recharge`, { amount: '12.34' }, { headers })).code).toBe(0);
    expect((await a.api.put(`/card/${a.cardId}/status`, { action: 'FREEZE' }, { headers: { 'user-agent': userAgent } })).code).toBe(0);
  });

  it('lists every change with who made it, from where and on what device, newest first', async () => {
    const page = await a.api.data<Page>('GET', '/team/activity');
    const mine = page.items.map((item) => ({ kind: item.kind, summary: item.summary, amount: item.amount, currency: item.currency, card: item.card_id }));
    expect(mine.slice(0, 3)).toEqual([
      { kind: 'CARD', summary: expect.stringMatching(/^冻结卡片 投放卡（\*{4}\d{4}）$/), amount: null, currency: null, card: a.cardId },
      { kind: 'MONEY', summary: expect.stringMatching(/^卡片充值 投放卡（\*{4}\d{4}） 12\.34 USD$/), amount: '12.34', currency: 'USD', card: a.cardId },
      { kind: 'CARD', summary: '开卡 投放卡，首充 20.00 USD', amount: '20.00', currency: 'USD', card: a.cardId },
    ]);
    const [newest] = page.items;
    expect(newest?.member_id).toBe(a.info.member_id);
    expect(newest?.member_label).toBe(`${a.phone.slice(0, 3)}****${a.phone.slice(-4)}（所有者）`);
    expect(newest?.ip).toBe('127.0.0.1');
    expect(newest?.device).toMatch(/Chrome 131/);
    expect(page.items[3]?.summary).toBe('提交开卡资料');
    expect(page.total).toBe(4);
  });

  it('filters by kind, member, card and China-time day', async () => {
    const money = await a.api.data<Page>('GET', '/team/activity', { query: { kind: 'MONEY' } });
    expect(money.items.map((item) => item.summary)).toEqual([expect.stringMatching(/^卡片充值/)]);
    const byMember = await a.api.data<Page>('GET', '/team/activity', { query: { member_id: a.info.member_id } });
    expect(byMember.total).toBe(4);
    const nobody = await a.api.data<Page>('GET', '/team/activity', { query: { member_id: '00000000-0000-4000-8000-000000000000' } });
    expect(nobody.total).toBe(0);
    const future = await a.api.data<Page>('GET', '/team/activity', { query: { from: '2099-01-01' } });
    expect(future.total).toBe(0);
    const card = await a.api.data<Page>('GET', `/card/${a.cardId}/activity`);
    expect(card.items.map((item) => item.card_id)).toEqual([a.cardId, a.cardId, a.cardId]);
  });

  it('refused and failed calls write nothing', async () => {
    const before = (await a.api.data<Page>('GET', '/team/activity')).total;
    const refused = await a.api.post(`/card/${a.cardId}/recharge`, { amount: '99999.00' }, { headers: { 'idempotency-key': key() } });
    expect(refused.code).not.toBe(0);
    expect((await a.api.data<Page>('GET', '/team/activity')).total).toBe(before);
  });

  it("writes a money call's entry in the money's own transaction: no entry, no money moved, and the other way round", async () => {
    const b = await owner();
    const walletOf = async () => (await b.api.data<Array<{ currency: string; available: string }>>('GET', '/balance/account-balance')).find((x) => x.currency === 'USD');
    const entries = async () => (await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from activity_log where account_id = ${b.info.id}`))[0]?.n;
    const invited = await b.api.data<{ id: string }>('POST', '/team/invitations', { body: { email: `pending.${Date.now()}@example.com`, role: 'VIEWER' } });
    // the log refuses this account's entries for a while (as a crash between the change and its entry would lose one)
    await t.database.db.execute(
      sql.raw(`create or replace function refuse_activity() returns trigger language plpgsql as $$ begin
        if new.account_id = '${b.info.id}' then raise exception 'activity log unavailable'; end if; return new; end $$`),
    );
    await t.database.db.execute(sql.raw('create trigger refuse_activity before insert on activity_log for each row execute function refuse_activity()'));
    const wallet = await walletOf();
    const count = await entries();
    try {
      const headers = () => ({ 'idempotency-key': key() });
      expect((await b.api.post(`/card/${b.cardId}/recharge`, { amount: '5.00' }, { headers: headers() })).code).not.toBe(0);
      expect((await b.api.post(`/card/${b.cardId}/withdraw`, { amount: '5.00' }, { headers: headers() })).code).not.toBe(0);
      const { products } = await b.api.data<OpenedAvailableAnswer>('GET', '/card/opened-available');
      const product = products.find((p) => p.name === '订阅支付卡');
      expect((await b.api.post('/card', { product_id: product?.id, amount: '20.00', nickname: '第二张' }, { headers: headers() })).code).not.toBe(0);
      expect(
        (await b.api.post('/batch-create-card', { product_id: product?.id, quantity: 2, amount: '10.00', nickname_prefix: 'B' }, { headers: headers() })).code,
      ).not.toBe(0);
      // the card's, the team's and a member's changes too
      const viewer = await memberOf(b.merchantId, b.info.id, 'VIEWER');
      expect((await b.api.put(`/team/members/${viewer.id}`, { role: 'FINANCE' })).code).not.toBe(0);
      expect((await b.api.put('/team/name', { name: '改不了' })).code).not.toBe(0);
      expect((await b.api.delete(`/team/invitations/${invited.id}`)).code).not.toBe(0);
      expect((await b.api.data<{ items: Array<{ id: string }> }>('GET', '/team/invitations')).items.map((item) => item.id)).toEqual([invited.id]);
      expect((await b.api.request('PATCH', `/card/${b.cardId}`, { body: { nickname: '改不了' } })).code).not.toBe(0);
      expect(await walletOf()).toEqual(wallet);
      expect(await b.api.data<CardItem>('GET', `/card/${b.cardId}`)).toMatchObject({ balance: '20.00', nickname: '投放卡' });
      expect((await queryRows(t.database.db, sql`select role from members where id = ${viewer.id}`))[0]?.role).toBe('VIEWER');
      expect((await b.api.data<AccountInfo>('GET', '/account/info')).account_name).not.toBe('改不了');
      expect((await queryRows(t.database.db, sql`select id from cards where account_id = ${b.info.id}`)).length).toBe(1);
      expect(await entries()).toBe(count);
    } finally {
      await t.database.db.execute(sql.raw('drop trigger refuse_activity on activity_log'));
    }
    expect((await b.api.post(`/card/${b.cardId}/withdraw`, { amount: '5.00' }, { headers: { 'idempotency-key': key() } })).code).toBe(0);
    expect(await entries()).toBe(Number(count) + 1);
  });

  it('exports the filtered log as .xlsx with real times and amounts', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/v1/team/activity/export',
      query: { kind: 'MONEY' },
      headers: { host: 'localhost', authorization: `Bearer ${a.api.token}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(XLSX_CONTENT_TYPE);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    const rows = sheet?.getSheetValues().filter(Boolean).map((row) => (row as unknown[]).slice(1)) ?? [];
    expect(rows[0]).toEqual(['时间', '操作人', '类别', '操作', '金额', '币种', 'IP', '设备']);
    expect(rows).toHaveLength(2);
    expect(rows[1]?.[0]).toBeInstanceOf(Date);
    expect(rows[1]?.slice(2, 6)).toEqual(['资金', expect.stringMatching(/^卡片充值/), 12.34, 'USD']);
  });

  it("is the team's alone: another account sees nothing of it, and its card's entries are no card of theirs", async () => {
    const other = await signUp(t);
    const api = t.api('localhost', other.token);
    expect((await api.data<Page>('GET', '/team/activity')).total).toBe(0);
    const card = await api.get(`/card/${a.cardId}/activity`);
    expect(card.code).toBe(CardErrorCode.CARD_NOT_FOUND);
  });

  it('is read by the roles the role table lets read it; a MEMBER is refused, and sees only the cards they hold', async () => {
    for (const role of ['ADMIN', 'FINANCE', 'VIEWER']) {
      const member = await memberOf(a.merchantId, a.info.id, role);
      expect((await member.api.data<Page>('GET', '/team/activity')).total, role).toBeGreaterThanOrEqual(3);
    }
    const buyer = await memberOf(a.merchantId, a.info.id, 'MEMBER');
    const refused = await buyer.api.get('/team/activity');
    expect([refused.status, refused.code]).toEqual([403, TeamErrorCode.PERMISSION_DENIED]);
    expect(refused.message).toBe('权限不足：查看操作日志需要所有者、管理员、财务或观察员角色');
    expect((await buyer.api.get(`/card/${a.cardId}/activity`)).code).toBe(CardErrorCode.CARD_NOT_FOUND);
  });
});

describe("each call's entry, written with its change and once", () => {
  const actionsOf = async (accountId: string) =>
    (await queryRows<{ action: string; card_id: string | null }>(t.database.db, sql`select action, card_id from activity_log where account_id = ${accountId} order by at, id`)).map(
      (row) => row.action,
    );
  const countOf = (actions: string[], action: string) => actions.filter((each) => each === action).length;
  const productOf = async (api: Awaited<ReturnType<typeof owner>>['api']) => {
    const { products } = await api.data<OpenedAvailableAnswer>('GET', '/card/opened-available');
    const product = products.find((p) => p.name === '订阅支付卡');
    if (!product) throw new Error('no 订阅支付卡');
    return product;
  };

  it('a money call replayed with the same Idempotency-Key answers as the first and writes no second entry', async () => {
    const c = await owner();
    const product = await productOf(c.api);
    const before = await actionsOf(c.info.id);
    const twice = async (path: string, body: Record<string, unknown>) => {
      const headers = { 'idempotency-key': key() };
      const first = await c.api.post<Record<string, unknown>>(path, body, { headers });
      const again = await c.api.post<Record<string, unknown>>(path, body, { headers });
      expect([first.code, again.code], first.message).toEqual([0, 0]);
      return [first.data, again.data];
    };
    await twice(`/card/${c.cardId}/recharge`, { amount: '3.00' });
    await twice(`/card/${c.cardId}/withdraw`, { amount: '2.00' });
    const [opened, reopened] = await twice('/card', { product_id: product.id, amount: '10.00', nickname: '重放卡' });
    expect(reopened?.id).toBe(opened?.id);
    const [batch, rebatch] = await twice('/batch-create-card', { product_id: product.id, quantity: 2, amount: '10.00', nickname_prefix: 'R' });
    expect(rebatch?.batch_id).toBe(batch?.batch_id);
    const after = await actionsOf(c.info.id);
    for (const action of ['CARD_RECHARGE', 'CARD_WITHDRAW', 'CARD_OPEN', 'CARD_BATCH_OPEN']) {
      expect(countOf(after, action) - countOf(before, action), action).toBe(1);
    }
  });

  it('writes an entry for freezing, unfreezing, a new holder, a reveal, an export, verification, an invitation, ending sessions and cancelling', async () => {
    const c = await owner();
    const admin = await memberOf(c.merchantId, c.info.id, 'ADMIN');
    const done = async (answer: Promise<{ code: number; message: string }>) => {
      const { code, message } = await answer;
      expect(code, message).toBe(0);
    };
    await done(c.api.put(`/card/${c.cardId}/status`, { action: 'FREEZE' }));
    expect((await issuer.frozen(c.cardId)).status).toBe(200);
    await done(c.api.put(`/card/${c.cardId}/status`, { action: 'UNFREEZE' }));
    expect((await issuer.unfrozen(c.cardId)).status).toBe(200);
    await done(c.api.put(`/card/${c.cardId}/holder`, { holder_member_id: admin.id }));
    await c.api.post('/account/send/code-auto', { send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_ACCESS' });
    await done(c.api.post(`/card/${c.cardId}/reveal`, { captcha: await lastCode(t, phoneTo(c.phone)) }));
    await done(c.api.post('/card/batch-export', { filters: {} }));
    await done(c.api.put('/card/verification', { latin_name: 'Zhang San', website: 'https://shop.example.com' }));
    await done(c.api.post('/team/invitations', { email: freshEmail('invited'), role: 'FINANCE' }));
    await done(c.api.delete('/account/sessions', { query: { others: 'true' } }));
    await done(c.api.delete(`/card/${c.cardId}`));
    const entries = await queryRows<{ action: string; card_id: string | null; summary: string; member_id: string }>(
      t.database.db,
      sql`select action, card_id, summary, member_id from activity_log where account_id = ${c.info.id} order by at, id`,
    );
    expect(entries.map((entry) => entry.action)).toEqual([
      'VERIFICATION_SAVE',
      'CARD_OPEN',
      'CARD_FREEZE',
      'CARD_UNFREEZE',
      'CARD_HOLDER',
      'CARD_REVEAL',
      'CARD_EXPORT',
      'VERIFICATION_SAVE',
      'MEMBER_INVITE',
      'SESSIONS_END',
      'CARD_CANCEL',
    ]);
    const onCard = entries.filter((entry) => entry.card_id === c.cardId).map((entry) => entry.action);
    expect(onCard).toEqual(['CARD_OPEN', 'CARD_FREEZE', 'CARD_UNFREEZE', 'CARD_HOLDER', 'CARD_REVEAL', 'CARD_CANCEL']);
    expect(entries.find((entry) => entry.action === 'CARD_HOLDER')?.summary).toMatch(
      new RegExp(`^更换持卡成员 投放卡（\\*{4}\\d{4}） → ${admin.phone.slice(0, 3)}\\*{4}${admin.phone.slice(-4)}（管理员）$`),
    );
    expect(new Set(entries.map((entry) => entry.member_id))).toEqual(new Set([c.info.member_id]));
  });

  it("writes them inside the change's transaction: when the entry cannot be written, the change is not made", async () => {
    const c = await owner();
    const admin = await memberOf(c.merchantId, c.info.id, 'ADMIN');
    const count = (await actionsOf(c.info.id)).length;
    await t.database.db.execute(
      sql.raw(`create or replace function refuse_activity_of_one() returns trigger language plpgsql as $$ begin
        if new.account_id = '${c.info.id}' then raise exception 'activity log unavailable'; end if; return new; end $$`),
    );
    await t.database.db.execute(sql.raw('create trigger refuse_activity_of_one before insert on activity_log for each row execute function refuse_activity_of_one()'));
    try {
      expect((await c.api.put(`/card/${c.cardId}/status`, { action: 'FREEZE' })).code).not.toBe(0);
      expect((await c.api.put(`/card/${c.cardId}/holder`, { holder_member_id: admin.id })).code).not.toBe(0);
      expect((await c.api.delete(`/card/${c.cardId}`)).code).not.toBe(0);
      expect((await c.api.post('/team/invitations', { email: freshEmail('refused'), role: 'VIEWER' })).code).not.toBe(0);
      expect((await c.api.put('/card/verification', { latin_name: 'Li Si', website: 'https://li.example.com' })).code).not.toBe(0);
      expect(await c.api.data<CardItem>('GET', `/card/${c.cardId}`)).toMatchObject({ status: 'NORMAL', holder_member_id: c.info.member_id, frozen_by: null });
      expect((await c.api.data<{ items: unknown[] }>('GET', '/team/invitations')).items).toEqual([]);
      expect((await c.api.data<{ secondary: unknown }>('GET', '/card/verification')).secondary).toBeNull();
      expect(issuer.requests.filter((request) => request.cardId === c.cardId).map((request) => request.kind)).toEqual(['open']);
    } finally {
      await t.database.db.execute(sql.raw('drop trigger refuse_activity_of_one on activity_log'));
    }
    expect((await actionsOf(c.info.id)).length).toBe(count);
  });

  it('a refused call writes none, and one the card issuer does not take leaves no entry behind', async () => {
    const c = await owner();
    const buyer = await memberOf(c.merchantId, c.info.id, 'MEMBER');
    const count = (await actionsOf(c.info.id)).length;
    // another member's card, a status that does not allow it, a role that may not
    expect((await buyer.api.put(`/card/${c.cardId}/status`, { action: 'FREEZE' })).code).toBe(CardErrorCode.CARD_NOT_FOUND);
    expect((await c.api.put(`/card/${c.cardId}/status`, { action: 'UNFREEZE' })).code).toBe(CardErrorCode.CARD_ACTION_NOT_ALLOWED);
    expect((await buyer.api.put(`/card/${c.cardId}/holder`, { holder_member_id: buyer.id })).code).toBe(TeamErrorCode.PERMISSION_DENIED);
    expect((await buyer.api.post('/team/invitations', { email: freshEmail('nope'), role: 'VIEWER' })).code).toBe(TeamErrorCode.PERMISSION_DENIED);
    // the issuer does not take the freeze, nor the cancellation: the card is as it was, and so is the log
    issuer.state.refusing.add(c.cardId);
    try {
      expect((await c.api.put(`/card/${c.cardId}/status`, { action: 'FREEZE' })).code).toBe(CardErrorCode.ISSUER_UNAVAILABLE);
      expect((await c.api.delete(`/card/${c.cardId}`)).code).toBe(CardErrorCode.ISSUER_UNAVAILABLE);
    } finally {
      issuer.state.refusing.delete(c.cardId);
    }
    expect(await c.api.data<CardItem>('GET', `/card/${c.cardId}`)).toMatchObject({ status: 'NORMAL', balance: '20.00' });
    expect((await actionsOf(c.info.id)).length).toBe(count);
  });
});

describe('GET /team/activity/members', () => {
  it('names every member the log can be filtered by, for a FINANCE too: the team now and a removed member the log names', async () => {
    const c = await owner();
    const finance = await memberOf(c.merchantId, c.info.id, 'FINANCE');
    const viewer = await memberOf(c.merchantId, c.info.id, 'VIEWER');
    const leaving = await memberOf(c.merchantId, c.info.id, 'MEMBER');
    // the member leaving leaves an entry behind, then is removed
    expect((await leaving.api.delete('/account/sessions', { query: { others: 'true' } })).code).toBe(0);
    expect((await c.api.delete(`/team/members/${leaving.id}`, { body: {} })).code).toBe(0);
    const label = (phone: string, role: string) => `${phone.slice(0, 3)}****${phone.slice(-4)}（${role}）`;
    const answer = await finance.api.data<{ items: Array<{ id: string; label: string }> }>('GET', '/team/activity/members');
    expect(answer.items).toEqual([
      { id: c.info.member_id, label: label(c.phone, '所有者') },
      { id: finance.id, label: label(finance.phone, '财务') },
      { id: viewer.id, label: label(viewer.phone, '观察员') },
      { id: leaving.id, label: label(leaving.phone, '成员') },
    ]);
    const refused = await leaving.api.get('/team/activity/members');
    expect(refused.code).not.toBe(0);
    const buyer = await memberOf(c.merchantId, c.info.id, 'MEMBER');
    expect((await buyer.api.get('/team/activity/members')).code).toBe(TeamErrorCode.PERMISSION_DENIED);
    const other = await signUp(t);
    const theirs = await t.api('localhost', other.token).data<{ items: Array<{ id: string }> }>('GET', '/team/activity/members');
    expect(theirs.items.map((item) => item.id)).not.toContain(finance.id);
  });
});
