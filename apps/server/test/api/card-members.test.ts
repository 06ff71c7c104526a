import { randomUUID } from 'node:crypto';
import { type BatchExportStatus, type BatchStatusAnswer, CardBatchErrorCode } from '@portal/contract/card-batches';
import { CardErrorCode } from '@portal/contract/card-errors';
import { type CardItem, type CardPage, type CardSummaryAnswer, type OpenedAvailableAnswer, openingCost, rechargeCost } from '@portal/contract/cards';
import type { Role } from '@portal/contract/enums';
import { fromMinorUnits, toMinorUnits } from '@portal/contract/money';
import { TeamErrorCode } from '@portal/contract/team-errors';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.ts';
import { budgetMonth } from '../../src/modules/budgets/service.ts';
import { lastCode, phoneTo, signUp } from '../helpers/accounts.ts';
import type { ApiClient } from '../helpers/api.ts';
import { scriptedIssuerApp } from '../helpers/issuer.ts';
import { expectSoundBooks } from '../helpers/ledger.ts';
import { addMember } from '../helpers/members.ts';
import { until } from '../helpers/until.ts';

const clock = new ManualClock(new Date('2026-11-24T08:00:00Z'));
const { t, issuer } = scriptedIssuerApp(clock);

let serial = 0;
const key = () => `members-${Date.now().toString(36)}-${++serial}`;
const rows = async (query: ReturnType<typeof sql>) => ((await t.database.db.execute(query)) as unknown as { rows: Array<Record<string, unknown>> }).rows;

interface Team {
  accountId: string;
  owner: ApiClient;
  ownerPhone: string;
  member: (role: Role, budget?: string | null) => Promise<{ id: string; phone: string; token: string; api: ApiClient }>;
  subscription: OpenedAvailableAnswer['products'][number];
}

/** A verified account with 1000.00 USD in its wallet, and a way to add members of any role to it. */
async function team(): Promise<Team> {
  const who = await signUp(t);
  const owner = t.api('localhost', who.token);
  const { id: accountId } = await owner.data<{ id: string }>('GET', '/account/info');
  await owner.data('PUT', '/card/verification', { body: { real_name: '张三', id_number: '11010519491231002X' } });
  const merchantId = String((await rows(sql`select merchant_id from accounts where id = ${accountId}`))[0]?.merchant_id);
  await t.services.ledger.recharge({ merchantId, accountId, currency: 'USD', amount: 1000_00n, key: `fund-${accountId}` });
  const { products } = await owner.data<OpenedAvailableAnswer>('GET', '/card/opened-available');
  const subscription = products.find((product) => product.name === '订阅支付卡');
  if (!subscription) throw new Error('no 订阅支付卡');
  return {
    accountId,
    owner,
    ownerPhone: who.phone,
    subscription,
    member: async (role, budget = null) => {
      const added = await addMember(t.database.db, t.services.sessions, accountId, role, { budget: budget === null ? null : toMinorUnits(budget) });
      return { ...added, api: t.api('localhost', added.token) };
    },
  };
}

const open = (api: ApiClient, productId: string, amount = '20.00', nickname = '成员卡') =>
  api.post<CardItem>('/card', { product_id: productId, amount, nickname }, { headers: { 'idempotency-key': key() } });

async function issuedCard(api: ApiClient, productId: string, amount = '20.00', nickname = '成员卡') {
  const opened = await open(api, productId, amount, nickname);
  expect(opened.code, opened.message).toBe(0);
  await issuer.issue(opened.data.id);
  return opened.data;
}

const money = (api: ApiClient, id: string, path: 'recharge' | 'withdraw', amount: string) =>
  api.post<{ card: CardItem }>(`/card/${id}/${path}`, { amount }, { headers: { 'idempotency-key': key() } });

const walletUsd = async (api: ApiClient) =>
  (await api.data<Array<{ currency: string; available: string; anew: string }>>('GET', '/balance/account-balance')).find((item) => item.currency === 'USD');

const usedOf = async (memberId: string) => {
  const [row] = await rows(sql`select used::text as used from budget_usage where member_id = ${memberId} and month = ${budgetMonth(clock.now())}`);
  return row ? fromMinorUnits(BigInt(String(row.used))) : null;
};

describe('a MEMBER sees and acts only on the cards they hold', () => {
  let crew: Team;
  let ownersCard: CardItem;
  let membersCard: CardItem;
  let member: Awaited<ReturnType<Team['member']>>;

  beforeAll(async () => {
    crew = await team();
    member = await crew.member('MEMBER');
    ownersCard = await issuedCard(crew.owner, crew.subscription.id, '30.00', '所有者卡');
    membersCard = await issuedCard(member.api, crew.subscription.id, '20.00', '成员卡');
  });

  it('lists, counts and sums only their cards; an ADMIN sees every card of the account, each naming its holder', async () => {
    const mine = await member.api.data<CardPage>('GET', '/card');
    expect(mine.items.map((card) => card.id)).toEqual([membersCard.id]);
    expect(mine.total).toBe(1);
    expect(mine.items[0]).toMatchObject({ holder_member_id: member.id, holder_label: `${member.phone.slice(0, 3)}****${member.phone.slice(-4)}（成员）` });
    // asking for another holder's cards finds none of them
    const owners = await member.api.data<CardPage>('GET', '/card', { query: { holder_member_id: crew.accountId } });
    expect(owners).toMatchObject({ items: [], total: 0 });

    const summary = await member.api.data<CardSummaryAnswer>('GET', '/card/summary');
    expect(summary.total).toBe(1);
    expect(summary.by_status.NORMAL).toBe(1);
    expect(summary.amounts.find((item) => item.currency === 'USD')?.amount).toBe('20.00');
    const amounts = await member.api.data<Array<{ currency: string; amount: string }>>('GET', '/balance/card-amount');
    expect(amounts.find((item) => item.currency === 'USD')?.amount).toBe('20.00');

    const admin = await crew.member('ADMIN');
    const all = await admin.api.data<CardPage>('GET', '/card');
    expect(all.items.map((card) => card.id).sort()).toEqual([ownersCard.id, membersCard.id].sort());
    expect(all.items.find((card) => card.id === ownersCard.id)).toMatchObject({ holder_member_id: crew.accountId, holder_label: expect.stringMatching(/^\d{3}\*{4}\d{4}（所有者）$/) });
    const held = await admin.api.data<CardPage>('GET', '/card', { query: { holder_member_id: member.id } });
    expect(held.items.map((card) => card.id)).toEqual([membersCard.id]);
    expect((await admin.api.data<CardSummaryAnswer>('GET', '/card/summary')).total).toBe(2);
    const adminAmounts = await admin.api.data<Array<{ currency: string; amount: string }>>('GET', '/balance/card-amount');
    expect(adminAmounts.find((item) => item.currency === 'USD')?.amount).toBe('50.00');
  });

  it("answers CARD_NOT_FOUND for every call on a card they do not hold, and changes nothing", async () => {
    const id = ownersCard.id;
    const api = member.api;
    const calls = [
      api.get(`/card/${id}`),
      api.get(`/card/${id}/transactions`),
      api.get(`/card/${id}/transactions/export`),
      api.get(`/card/${id}/controls`),
      api.put(`/card/${id}/controls`, { single_limit: '5.00', daily_limit: null, monthly_limit: null, blocked_categories: [], allowed_countries: [] }),
      api.post(`/card/${id}/reveal`, {}),
      api.request('PATCH', `/card/${id}`, { body: { nickname: '改名' } }),
      api.put(`/card/${id}/status`, { action: 'FREEZE' }),
      api.delete(`/card/${id}`),
      money(api, id, 'recharge', '5.00'),
      money(api, id, 'withdraw', '5.00'),
    ];
    for (const answer of await Promise.all(calls)) expect(answer.code, answer.message).toBe(CardErrorCode.CARD_NOT_FOUND);
    expect(await crew.owner.data<CardItem>('GET', `/card/${id}`)).toMatchObject({ nickname: '所有者卡', status: 'NORMAL', balance: '30.00' });
    // their own card answers them
    expect((await api.get(`/card/${membersCard.id}/controls`)).code).toBe(0);
    expect((await api.request('PATCH', `/card/${membersCard.id}`, { body: { nickname: '我的卡' } })).code).toBe(0);
  });

  it('puts only the cards they hold in a batch export, whichever cards they choose', async () => {
    const answer = await member.api.post<{ export_id: string }>('/card/batch-export', { filters: {}, ids: [ownersCard.id, membersCard.id], columns: ['id'] });
    expect(answer.code, answer.message).toBe(0);
    const status = await until('the export written', async () => {
      const now = await member.api.data<BatchExportStatus>('GET', '/card/batch-export-status', { query: { export_id: answer.data.export_id } });
      return now.status === 'DONE' ? now : undefined;
    });
    expect(status).toMatchObject({ done: 1, total: 1 });
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/v1/card/batch-export/${answer.data.export_id}/file`,
      headers: { host: 'localhost', authorization: `Bearer ${member.token}` },
    });
    expect(response.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const ids: string[] = [];
    workbook.worksheets[0]?.eachRow((row, index) => {
      if (index > 1) ids.push(String((row.values as unknown[])[1]));
    });
    expect(ids).toEqual([membersCard.id]);

    // another member's export of the account's cards is not theirs to see or take
    const owners = await crew.owner.post<{ export_id: string }>('/card/batch-export', { filters: {}, columns: ['id'] });
    expect(owners.code, owners.message).toBe(0);
    const listed = await member.api.data<{ items: Array<{ export_id: string }> }>('GET', '/card/batch-exports');
    expect(listed.items.map((item) => item.export_id)).toEqual([answer.data.export_id]);
    expect((await member.api.get('/card/batch-export-status', { query: { export_id: owners.data.export_id } })).code).toBe(CardBatchErrorCode.EXPORT_NOT_FOUND);
    expect((await member.api.get(`/card/batch-export/${owners.data.export_id}/file`)).code).toBe(CardBatchErrorCode.EXPORT_NOT_FOUND);
    expect((await member.api.data<BatchExportStatus>('GET', '/card/batch-export-status')).export_id).toBe(answer.data.export_id);
  });

  it('lets FINANCE top up any card, and a VIEWER read a card but not its numbers', async () => {
    const finance = await crew.member('FINANCE');
    for (const card of [ownersCard, membersCard]) expect((await money(finance.api, card.id, 'recharge', '1.00')).code).toBe(0);
    const viewer = await crew.member('VIEWER');
    expect(await viewer.api.data<CardItem>('GET', `/card/${membersCard.id}`)).toMatchObject({ id: membersCard.id });
    expect((await viewer.api.post(`/card/${membersCard.id}/reveal`, {})).code).toBe(TeamErrorCode.PERMISSION_DENIED);
  });

  it("keeps each member's reveal window their own: another member's access code does not end it", async () => {
    const admin = await crew.member('ADMIN');
    const reveal = (api: ApiClient, body: Record<string, unknown> = {}) => api.post<{ pan: string }>(`/card/${ownersCard.id}/reveal`, body);
    const codeFor = async (api: ApiClient, phone: string) => {
      clock.advance(61_000);
      await api.post('/account/send/code-auto', { send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_ACCESS' });
      return lastCode(t, phoneTo(phone));
    };
    expect((await reveal(crew.owner, { captcha: await codeFor(crew.owner, crew.ownerPhone) })).code).toBe(0);
    expect((await reveal(admin.api)).code).toBe(CardErrorCode.REVEAL_CODE_REQUIRED);
    expect((await reveal(admin.api, { captcha: await codeFor(admin.api, admin.phone) })).code).toBe(0);
    expect((await reveal(admin.api)).code).toBe(0);
    expect((await reveal(crew.owner)).code).toBe(0);
  });

  it('keeps full numbers out of the exports of the roles that may not reveal a card, before any code is asked', async () => {
    const sensitive = { filters: {}, include_sensitive: true, columns: ['nickname', 'card_number'] };
    for (const role of ['VIEWER', 'FINANCE'] as const) {
      const reader = await crew.member(role);
      const before = await rows(sql`select count(*)::int as n from card_exports where account_id = ${crew.accountId}`);
      const refused = await reader.api.post('/card/batch-export', sensitive);
      expect(refused.code, role).toBe(TeamErrorCode.PERMISSION_DENIED);
      expect(refused.message).toContain('查看完整卡号');
      expect(await rows(sql`select count(*)::int as n from card_exports where account_id = ${crew.accountId}`)).toEqual(before);
    }
    // a MEMBER may see their own cards' numbers: asked for the code, as the owner is
    expect((await member.api.post('/card/batch-export', sensitive)).code).toBe(CardBatchErrorCode.EXPORT_CODE_REQUIRED);
  });

  it("keeps another account's cards from every member of this one", async () => {
    const other = await team();
    const stranger = await other.member('ADMIN');
    expect((await stranger.api.get(`/card/${membersCard.id}`)).code).toBe(CardErrorCode.CARD_NOT_FOUND);
    expect((await stranger.api.data<CardPage>('GET', '/card', { query: { holder_member_id: member.id } })).total).toBe(0);
  });
});

describe("a MEMBER's monthly budget", () => {
  it('passes an opening that uses exactly the budget, and refuses the next cent with what is left, nothing changed', async () => {
    const crew = await team();
    const cost = openingCost(crew.subscription, '20.00').total;
    const member = await crew.member('MEMBER', cost);
    const card = await issuedCard(member.api, crew.subscription.id);
    expect(await usedOf(member.id)).toBe(cost);

    const wallet = await walletUsd(crew.owner);
    const refused = await money(member.api, card.id, 'recharge', '0.01');
    expect(refused.code).toBe(TeamErrorCode.BUDGET_EXCEEDED);
    expect(refused.data).toEqual({ left: '0.00', currency: 'USD' });
    expect(refused.message).toBe('超出本月预算：本月剩余0.00 USD');
    expect(await walletUsd(crew.owner)).toEqual(wallet);
    expect(await member.api.data<CardItem>('GET', `/card/${card.id}`)).toMatchObject({ balance: '20.00' });
    expect(await usedOf(member.id)).toBe(cost);

    // the holder's budget bounds the card whoever tops it up
    const finance = await crew.member('FINANCE');
    expect((await money(finance.api, card.id, 'recharge', '1.00')).code).toBe(TeamErrorCode.BUDGET_EXCEEDED);
    await expectSoundBooks(t.database.db);
  });

  it('refuses an opening one cent over the budget, saying what is left, with no card made and no money held', async () => {
    const crew = await team();
    const cost = openingCost(crew.subscription, '20.00').total;
    const budget = fromMinorUnits(toMinorUnits(cost) - 1n);
    const member = await crew.member('MEMBER', budget);
    const wallet = await walletUsd(crew.owner);
    const refused = await open(member.api, crew.subscription.id);
    expect(refused.code).toBe(TeamErrorCode.BUDGET_EXCEEDED);
    expect(refused.data).toEqual({ left: budget, currency: 'USD' });
    expect(await walletUsd(crew.owner)).toEqual(wallet);
    expect((await crew.owner.data<CardPage>('GET', '/card')).total).toBe(0);
    expect(await usedOf(member.id)).toBeNull();
  });

  it('frees what a withdrawal takes back, and gives back what a failed opening held', async () => {
    const crew = await team();
    const cost = openingCost(crew.subscription, '20.00').total;
    const member = await crew.member('MEMBER', cost);
    const card = await issuedCard(member.api, crew.subscription.id);
    expect((await money(member.api, card.id, 'withdraw', '5.00')).code).toBe(0);
    expect(await usedOf(member.id)).toBe(fromMinorUnits(toMinorUnits(cost) - 500n));
    const topUp = rechargeCost(crew.subscription, '4.00');
    expect(toMinorUnits(topUp.total)).toBeLessThanOrEqual(500n);
    expect((await money(member.api, card.id, 'recharge', '4.00')).code).toBe(0);
    expect(await usedOf(member.id)).toBe(fromMinorUnits(toMinorUnits(cost) - 500n + toMinorUnits(topUp.total)));

    const second = await crew.member('MEMBER', cost);
    const opened = await open(second.api, crew.subscription.id);
    expect(opened.code, opened.message).toBe(0);
    expect(await usedOf(second.id)).toBe(cost);
    await issuer.fail(opened.data.id, '发卡机构拒绝');
    expect(await usedOf(second.id)).toBe('0.00');
    expect((await open(second.api, crew.subscription.id)).code).toBe(0);
    await expectSoundBooks(t.database.db);
  });

  it("counts a cancelled card's balance, returned to the wallet, as a withdrawal of this month's budget", async () => {
    const crew = await team();
    const cost = openingCost(crew.subscription, '20.00').total;
    const member = await crew.member('MEMBER', cost);
    const card = await issuedCard(member.api, crew.subscription.id);
    expect(await usedOf(member.id)).toBe(cost);
    expect((await member.api.delete(`/card/${card.id}`)).code).toBe(0);
    // nothing is given back before the money is: the issuer has not confirmed yet
    expect(await usedOf(member.id)).toBe(cost);
    expect((await issuer.closed(card.id)).status).toBe(200);
    expect(await member.api.data<CardItem>('GET', `/card/${card.id}`)).toMatchObject({ status: 'DELETE', balance: '0.00' });
    expect(await usedOf(member.id)).toBe(fromMinorUnits(toMinorUnits(cost) - 20_00n));
    // what came back is what is left to spend
    const refused = await open(member.api, crew.subscription.id);
    expect(refused.code).toBe(TeamErrorCode.BUDGET_EXCEEDED);
    expect(refused.data).toEqual({ left: '20.00', currency: 'USD' });
    await expectSoundBooks(t.database.db);
  });

  it('passes a top-up that uses exactly what is left and refuses one a cent over, nothing changed', async () => {
    const crew = await team();
    const opening = toMinorUnits(openingCost(crew.subscription, '20.00').total);
    const topUp = toMinorUnits(rechargeCost(crew.subscription, '10.00').total);
    const member = await crew.member('MEMBER', fromMinorUnits(opening + topUp - 1n));
    const card = await issuedCard(member.api, crew.subscription.id);
    const wallet = await walletUsd(crew.owner);
    const over = await money(member.api, card.id, 'recharge', '10.00');
    expect(over.code).toBe(TeamErrorCode.BUDGET_EXCEEDED);
    expect(over.data).toEqual({ left: fromMinorUnits(topUp - 1n), currency: 'USD' });
    expect(await walletUsd(crew.owner)).toEqual(wallet);
    expect(await usedOf(member.id)).toBe(fromMinorUnits(opening));

    // a withdrawal of a cent frees exactly what the top-up lacked
    expect((await money(member.api, card.id, 'withdraw', '0.01')).code).toBe(0);
    expect(await usedOf(member.id)).toBe(fromMinorUnits(opening - 1n));
    expect((await money(member.api, card.id, 'recharge', '10.00')).code).toBe(0);
    expect(await usedOf(member.id)).toBe(fromMinorUnits(opening + topUp - 1n));
    expect((await money(member.api, card.id, 'recharge', '0.01')).code).toBe(TeamErrorCode.BUDGET_EXCEEDED);
    await expectSoundBooks(t.database.db);
  });

  it('refuses a batch one cent over the budget, with no card made and no money held', async () => {
    const crew = await team();
    const perCard = toMinorUnits(openingCost(crew.subscription, '10.00').total);
    const member = await crew.member('MEMBER', fromMinorUnits(perCard * 2n - 1n));
    const wallet = await walletUsd(crew.owner);
    const refused = await member.api.post<{ batch_id: string }>(
      '/batch-create-card',
      { product_id: crew.subscription.id, quantity: 2, amount: '10.00', nickname_prefix: 'B' },
      { headers: { 'idempotency-key': key() } },
    );
    expect(refused.code).toBe(TeamErrorCode.BUDGET_EXCEEDED);
    expect(refused.data).toEqual({ left: fromMinorUnits(perCard * 2n - 1n), currency: 'USD' });
    expect(await walletUsd(crew.owner)).toEqual(wallet);
    expect((await crew.owner.data<CardPage>('GET', '/card')).total).toBe(0);
    expect(await usedOf(member.id)).toBeNull();
  });

  it("uses a batch's whole held cost, gives back each failed card's share, and bounds no other role", async () => {
    const crew = await team();
    const perCard = openingCost(crew.subscription, '10.00').total;
    const member = await crew.member('MEMBER', fromMinorUnits(toMinorUnits(perCard) * 2n));
    const accepted = await member.api.post<{ batch_id: string }>(
      '/batch-create-card',
      { product_id: crew.subscription.id, quantity: 2, amount: '10.00', nickname_prefix: 'B' },
      { headers: { 'idempotency-key': key() } },
    );
    expect(accepted.code, accepted.message).toBe(0);
    expect(await usedOf(member.id)).toBe(fromMinorUnits(toMinorUnits(perCard) * 2n));
    const cards = await until('the batch cards asked of the issuer', async () => {
      const page = await member.api.data<CardPage>('GET', '/card');
      return page.total === 2 ? page.items : undefined;
    });
    await issuer.fail((cards[0] as CardItem).id, '发卡机构拒绝');
    expect(await usedOf(member.id)).toBe(perCard);

    // a budget on another role, and a member without one, count nothing
    const admin = await crew.member('ADMIN', '0.00');
    expect((await open(admin.api, crew.subscription.id)).code).toBe(0);
    const free = await crew.member('MEMBER');
    expect((await open(free.api, crew.subscription.id)).code).toBe(0);
    expect(await usedOf(admin.id)).toBeNull();
    expect(await usedOf(free.id)).toBeNull();
  });
});

describe('GET /card/batch-create-card-status in a team', () => {
  it("shows a MEMBER only the batches they started; the roles that see every card see the team's", async () => {
    const crew = await team();
    const starter = await crew.member('MEMBER');
    const other = await crew.member('MEMBER');
    const started = await starter.api.post<{ batch_id: string }>(
      '/batch-create-card',
      { product_id: crew.subscription.id, quantity: 2, amount: '10.00', nickname_prefix: 'M' },
      { headers: { 'idempotency-key': key() } },
    );
    expect(started.code, started.message).toBe(0);
    const statusOf = (api: ApiClient) => api.data<BatchStatusAnswer>('GET', '/card/batch-create-card-status');
    expect(await statusOf(starter.api)).toMatchObject({ exist: true, batch_id: started.data.batch_id, status: 'RUNNING', total_count: 2 });
    expect(await statusOf(other.api)).toMatchObject({ exist: false, batch_id: null, status: null, total_count: 0 });
    for (const role of ['ADMIN', 'FINANCE', 'VIEWER'] as const) {
      expect(await statusOf((await crew.member(role)).api), role).toMatchObject({ exist: true, batch_id: started.data.batch_id });
    }
    expect(await statusOf(crew.owner)).toMatchObject({ exist: true, batch_id: started.data.batch_id });
    // ended, it is still the starter's latest and still no batch of the other's
    const cardIds = (await rows(sql`select id from cards where batch_id = ${started.data.batch_id}`)).map((row) => String(row.id));
    await until('the batch cards asked of the issuer', async () => cardIds.every((id) => issuer.requests.some((request) => request.kind === 'open' && request.cardId === id)) || undefined);
    for (const id of cardIds) await issuer.issue(id);
    expect(await statusOf(starter.api)).toMatchObject({ exist: false, batch_id: started.data.batch_id, status: 'SUCCESS', success_count: 2 });
    expect(await statusOf(other.api)).toMatchObject({ batch_id: null });
  });
});

describe("a card's messages once it has a new holder", () => {
  it('go to the new holder and the owner and admins, no longer to the member who held it before', async () => {
    const crew = await team();
    const before = await crew.member('MEMBER');
    const after = await crew.member('MEMBER');
    const admin = await crew.member('ADMIN');
    const card = await issuedCard(before.api, crew.subscription.id, '20.00', '转交卡');
    const moved = await crew.owner.put<CardItem>(`/card/${card.id}/holder`, { holder_member_id: after.id });
    expect(moved.code, moved.message).toBe(0);

    // a decline (more than the card holds), a 3-D Secure code, and the platform freezing the card
    const declined = await issuer.send('authorization.request', {
      id: `auth_${randomUUID()}`,
      card_id: card.id,
      amount: '500.00',
      currency: 'USD',
      merchant_name: 'Meta Ads',
      mcc: '7311',
      country: 'US',
    });
    expect((declined.body as unknown as { approved: boolean }).approved).toBe(false);
    const code = await issuer.send('3ds.otp', {
      id: `otp_${randomUUID()}`,
      card_id: card.id,
      code: '246810',
      merchant_name: 'Meta Ads',
      amount: '9.99',
      currency: 'USD',
      expires_at: new Date(clock.now().getTime() + 300_000).toISOString(),
    });
    expect(code.status).toBe(200);
    const row = await t.services.cards.find(card.id);
    if (!row) throw new Error('the card vanished');
    await t.services.cards.operatorFreeze(row, '风险排查');

    const titlesOf = async (api: ApiClient) =>
      (await api.data<{ items: Array<{ type: string; content: string }> }>('GET', '/msg-center/station-msg/list', { query: { kind: 'message', page_size: 50 } })).items
        .filter((item) => item.content.includes('转交卡'))
        .map((item) => item.type)
        .sort();
    // all three at the same instant of the test's clock: compared as a set
    const later = ['CARD_3DS', 'CARD_DECLINED', 'CARD_FROZEN'];
    expect(await titlesOf(after.api)).toEqual(later);
    expect(await titlesOf(crew.owner)).toEqual(later);
    expect(await titlesOf(admin.api)).toEqual(later);
    expect(await titlesOf(before.api)).toEqual([]);
  });
});
