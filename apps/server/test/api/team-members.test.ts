import type { AccountInfo } from '@portal/contract/account';
import { CardErrorCode } from '@portal/contract/card-errors';
import type { CardItem } from '@portal/contract/cards';
import { ErrorCode } from '@portal/contract/errors';
import type { TeamBudget, TeamMember } from '@portal/contract/team';
import { TeamErrorCode } from '@portal/contract/team-errors';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshIp, PASSWORD, signIn } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { scriptedIssuer } from '../helpers/issuer.ts';
import { queryRows } from '../helpers/sql.ts';
import { openEventStream } from '../helpers/sse.ts';
import { issuedCard, joinTeam, readyForCards, type Teammate, teamOwner } from '../helpers/team.ts';
import { expectUnchanged } from '../helpers/unchanged.ts';

const issuer = scriptedIssuer();
let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp({ issuer: issuer.port });
  issuer.attach(t);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  base = typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : '';
});
afterAll(() => t?.close());

const members = (who: Teammate) => who.api.data<{ items: TeamMember[] }>('GET', '/team/members').then((answer) => answer.items);
const memberRows = (accountId: string) =>
  queryRows(t.database.db, sql`select id, role, status, monthly_budget::text, removed_at is not null as removed from members where account_id = ${accountId} order by id`);
const snapshot = (accountId: string) => async () =>
  JSON.stringify([
    await memberRows(accountId),
    await queryRows(t.database.db, sql`select id, holder_member_id, status from cards where account_id = ${accountId} order by id`),
    await queryRows(t.database.db, sql`select id, revoked_at from sessions where account_id = ${accountId} order by id`),
    await queryRows(t.database.db, sql`select name from accounts where id = ${accountId}`),
  ]);

describe('GET /team/members', () => {
  it('lists the active and suspended members, phones masked, budgets, cards held and who is me', async () => {
    await t.app.ready();
    const owner = await teamOwner(t);
    await readyForCards(t, owner);
    const buyer = await joinTeam(t, owner, 'MEMBER', '300.00');
    const viewer = await joinTeam(t, owner, 'VIEWER');
    await issuedCard(buyer, issuer);
    await issuedCard(buyer, issuer);
    const month = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 7);
    // what the buyer's cards used this month, set to a figure the answers can be checked against
    await t.database.db.execute(
      sql`insert into budget_usage (member_id, month, used) values (${buyer.memberId}, ${month}, 4250) on conflict (member_id, month) do update set used = excluded.used`,
    );
    await owner.api.data('PUT', `/team/members/${viewer.memberId}`, { body: { status: 'SUSPENDED' } });

    const items = await members(owner);
    expect(items.map((m) => m.role)).toEqual(['OWNER', 'MEMBER', 'VIEWER']);
    const mine = items.find((m) => m.id === owner.memberId);
    expect(mine).toMatchObject({ is_me: true, phone_masked: `${owner.phone.slice(0, 3)}****${owner.phone.slice(-4)}`, cards_held: 0, monthly_budget: null, budget_used: '0.00' });
    expect(items.find((m) => m.id === buyer.memberId)).toMatchObject({ is_me: false, role: 'MEMBER', status: 'ACTIVE', monthly_budget: '300.00', budget_used: '42.50', budget_currency: 'USD', cards_held: 2, email: buyer.email });
    expect(items.find((m) => m.id === viewer.memberId)).toMatchObject({ status: 'SUSPENDED' });
    expect(JSON.stringify(items)).not.toContain(owner.phone);

    const budget = await buyer.api.data<TeamBudget>('GET', '/team/budget');
    expect(budget).toEqual({ monthly_budget: '300.00', used: '42.50', left: '257.50', currency: 'USD' });
    expect(await owner.api.data<TeamBudget>('GET', '/team/budget')).toEqual({ monthly_budget: null, used: '0.00', left: null, currency: 'USD' });
  });
});

describe('PUT /team/members/{id}', () => {
  it('changes role and budget; the new role holds from the next call', async () => {
    const owner = await teamOwner(t);
    const admin = await joinTeam(t, owner, 'ADMIN');
    const viewer = await joinTeam(t, owner, 'VIEWER');
    expect((await viewer.api.put('/team/name', { name: '观察' })).code).toBe(TeamErrorCode.PERMISSION_DENIED);
    const changed = await admin.api.data<TeamMember>('PUT', `/team/members/${viewer.memberId}`, { body: { role: 'ADMIN' } });
    expect(changed).toMatchObject({ id: viewer.memberId, role: 'ADMIN', monthly_budget: null, is_me: false });
    // the same session, its next call: the role is read per request
    expect((await viewer.api.put('/team/name', { name: '新名字' })).code).toBe(0);
    expect((await viewer.api.data<AccountInfo>('GET', '/account/info')).role).toBe('ADMIN');
    await admin.api.data('PUT', `/team/members/${viewer.memberId}`, { body: { role: 'VIEWER', monthly_budget: null } });
    expect((await viewer.api.put('/team/name', { name: '再改' })).code).toBe(TeamErrorCode.PERMISSION_DENIED);
  });

  it("gives a monthly budget to a MEMBER only: another role's is refused on its field, and a member moved off MEMBER loses theirs", async () => {
    const owner = await teamOwner(t);
    const viewer = await joinTeam(t, owner, 'VIEWER');
    await expectUnchanged(snapshot(owner.accountId), async () => {
      for (const body of [{ monthly_budget: '5.00' }, { role: 'FINANCE', monthly_budget: '5.00' }, { role: 'ADMIN', monthly_budget: '0.00' }]) {
        const refused = await owner.api.put(`/team/members/${viewer.memberId}`, body);
        expect([refused.code, refused.message], JSON.stringify(body)).toEqual([TeamErrorCode.BUDGET_MEMBER_ONLY, '只有“成员”角色可以设置月度预算']);
        expect((refused.data as { fields?: Array<{ field: string }> }).fields?.map((field) => field.field)).toEqual(['monthly_budget']);
      }
      const invited = await owner.api.post('/team/invitations', { email: `budget.${Date.now()}@example.com`, role: 'FINANCE', monthly_budget: '50.00' });
      expect(invited.code).toBe(TeamErrorCode.BUDGET_MEMBER_ONLY);
      expect((invited.data as { fields?: Array<{ field: string }> }).fields?.map((field) => field.field)).toEqual(['monthly_budget']);
    });
    expect((await owner.api.data<{ items: unknown[] }>('GET', '/team/invitations')).items).toEqual([]);
    // no budget is no budget, whatever the role
    expect((await owner.api.put(`/team/members/${viewer.memberId}`, { monthly_budget: null })).code).toBe(0);
    const invited = await owner.api.post('/team/invitations', { email: `buyer.${Date.now()}@example.com`, role: 'MEMBER', monthly_budget: '50.00' });
    expect(invited.code, invited.message).toBe(0);
    const buyer = await owner.api.data<TeamMember>('PUT', `/team/members/${viewer.memberId}`, { body: { role: 'MEMBER', monthly_budget: '5.00' } });
    expect(buyer).toMatchObject({ role: 'MEMBER', monthly_budget: '5.00' });
    expect(await owner.api.data<TeamMember>('PUT', `/team/members/${viewer.memberId}`, { body: { monthly_budget: '7.50' } })).toMatchObject({ monthly_budget: '7.50' });
    expect(await owner.api.data<TeamMember>('PUT', `/team/members/${viewer.memberId}`, { body: { role: 'FINANCE' } })).toMatchObject({ role: 'FINANCE', monthly_budget: null });
  });

  it('refuses the owner, yourself, an unknown id, OWNER as a role, and changes nothing', async () => {
    const owner = await teamOwner(t);
    const admin = await joinTeam(t, owner, 'ADMIN');
    const other = await joinTeam(t, owner, 'ADMIN');
    await expectUnchanged(snapshot(owner.accountId), async () => {
      expect((await admin.api.put(`/team/members/${owner.memberId}`, { status: 'SUSPENDED' })).code).toBe(TeamErrorCode.LAST_OWNER);
      expect((await admin.api.put(`/team/members/${owner.memberId}`, { role: 'VIEWER' })).code).toBe(TeamErrorCode.LAST_OWNER);
      expect((await admin.api.put(`/team/members/${admin.memberId}`, { role: 'VIEWER' })).code).toBe(TeamErrorCode.NOT_YOURSELF);
      expect((await owner.api.put(`/team/members/${owner.memberId}`, { monthly_budget: '1.00' })).code).toBe(TeamErrorCode.NOT_YOURSELF);
      const made = await admin.api.put(`/team/members/${other.memberId}`, { role: 'OWNER' });
      expect(made.code).toBe(TeamErrorCode.OWNER_BY_TRANSFER);
      expect(made.message).toBe('不能直接将成员设为所有者：所有权只能通过“转让所有权”移交');
      expect((await owner.api.put(`/team/members/${other.memberId}`, { role: 'OWNER' })).code).toBe(TeamErrorCode.OWNER_BY_TRANSFER);
      expect((await admin.api.put(`/team/members/${other.memberId}`, { role: 'KING' })).code).toBe(ErrorCode.VALIDATION);
      // the one owner is never demoted, suspended or removed, whoever asks
      expect((await owner.api.put(`/team/members/${owner.memberId}`, { role: 'ADMIN' })).code).toBe(TeamErrorCode.NOT_YOURSELF);
      expect((await admin.api.put(`/team/members/${owner.memberId}`, { role: 'OWNER' })).code).toBe(TeamErrorCode.LAST_OWNER);
      expect((await admin.api.delete(`/team/members/${owner.memberId}`, { body: {} })).code).toBe(TeamErrorCode.LAST_OWNER);
      expect((await admin.api.put('/team/members/00000000-0000-4000-8000-000000000000', { role: 'VIEWER' })).code).toBe(TeamErrorCode.MEMBER_NOT_FOUND);
      expect((await admin.api.put('/team/members/nonsense', { role: 'VIEWER' })).code).toBe(TeamErrorCode.MEMBER_NOT_FOUND);
    });
  });

  it('suspending ends the member’s event stream at once; their next call and sign-in are refused', async () => {
    const owner = await teamOwner(t);
    const finance = await joinTeam(t, owner, 'FINANCE');
    const tab = await openEventStream(base, 'localhost', finance.token);
    await tab.next((e) => e.type === 'UNREAD_QUANTITY');
    const ownTab = await openEventStream(base, 'localhost', owner.token);
    await ownTab.next((e) => e.type === 'UNREAD_QUANTITY');
    try {
      await owner.api.data('PUT', `/team/members/${finance.memberId}`, { body: { status: 'SUSPENDED' } });
      await tab.untilEnded();
      expect(ownTab.ended).toBe(false);
      expect((await finance.api.get('/account/info')).code).toBe(ErrorCode.SESSION_REVOKED);
      const login = await t.api().post('/account/login', { phone_info: { phone: finance.phone, phone_prefix: '86' }, password: PASSWORD }, { remoteAddress: freshIp() });
      expect(login.code).toBe(TeamErrorCode.MEMBER_SUSPENDED);
      // back to ACTIVE: they sign in again
      await owner.api.data('PUT', `/team/members/${finance.memberId}`, { body: { status: 'ACTIVE' } });
      const again = await signIn(t, 'localhost', { phone: finance.phone });
      expect((await t.api('localhost', again.token).data<AccountInfo>('GET', '/account/info')).role).toBe('FINANCE');
    } finally {
      tab.close();
      ownTab.close();
    }
  });
});

describe('DELETE /team/members/{id}', () => {
  it('removes a member: sessions end, their cards go to the owner, frozen when asked', async () => {
    const owner = await teamOwner(t);
    await readyForCards(t, owner);
    const buyer = await joinTeam(t, owner, 'MEMBER');
    const kept = await joinTeam(t, owner, 'MEMBER');
    const card = await issuedCard(buyer, issuer);
    const keptCard = await issuedCard(kept, issuer);

    await owner.api.data('DELETE', `/team/members/${buyer.memberId}`, { body: { freeze_cards: true } });
    expect((await buyer.api.get('/account/info')).code).toBe(ErrorCode.SESSION_REVOKED);
    const [row] = await queryRows<{ status: string; removed: boolean }>(t.database.db, sql`select status, removed_at is not null as removed from members where id = ${buyer.memberId}`);
    expect(row).toEqual({ status: 'REMOVED', removed: true });
    const items = await members(owner);
    expect(items.map((m) => m.id)).not.toContain(buyer.memberId);
    expect(items.find((m) => m.id === owner.memberId)?.cards_held).toBe(1);
    expect((await owner.api.data<CardItem>('GET', `/card/${card.id}`)).status).toBe('FREEZING');
    expect(issuer.requests.filter((r) => r.kind === 'freeze' && r.cardId === card.id)).toHaveLength(1);

    // without freeze_cards the cards stay as they are
    await owner.api.data('DELETE', `/team/members/${kept.memberId}`, { body: {} });
    expect((await owner.api.data<CardItem>('GET', `/card/${keptCard.id}`)).status).toBe('NORMAL');
    expect((await members(owner)).find((m) => m.id === owner.memberId)?.cards_held).toBe(2);

    // their phone is free again: signing in with it finds no one
    const login = await t.api().post('/account/login', { phone_info: { phone: buyer.phone, phone_prefix: '86' }, password: PASSWORD }, { remoteAddress: freshIp() });
    expect(login.code).toBe(2009);
  });

  it('removes a member though the issuer does not freeze one of their cards: the others are frozen, the remover is told which', async () => {
    const owner = await teamOwner(t);
    await readyForCards(t, owner);
    const buyer = await joinTeam(t, owner, 'MEMBER');
    const admin = await joinTeam(t, owner, 'ADMIN');
    const cards = [await issuedCard(buyer, issuer, '采购卡一'), await issuedCard(buyer, issuer, '采购卡二'), await issuedCard(buyer, issuer, '采购卡三')];
    const refused = cards[1] as CardItem;
    issuer.state.refusing.add(refused.id);
    try {
      expect((await admin.api.delete(`/team/members/${buyer.memberId}`, { body: { freeze_cards: true } })).code).toBe(0);
    } finally {
      issuer.state.refusing.delete(refused.id);
    }
    expect((await memberRows(owner.accountId)).find((m) => m.id === buyer.memberId)).toMatchObject({ status: 'REMOVED', removed: true });
    const statuses = await Promise.all(cards.map(async (card) => (await owner.api.data<CardItem>('GET', `/card/${card.id}`)).status));
    expect(statuses).toEqual(['FREEZING', 'NORMAL', 'FREEZING']);
    expect((await members(owner)).find((m) => m.id === owner.memberId)?.cards_held).toBe(3);
    // the remover alone is told which card is still in use
    const told = await queryRows<{ member_id: string; title: string; content: string }>(
      t.database.db,
      sql`select member_id, title, content from station_messages where account_id = ${owner.accountId} and title like '%未能冻结%'`,
    );
    expect(told).toHaveLength(1);
    expect(told[0]?.member_id).toBe(admin.memberId);
    expect(told[0]?.content).toContain('采购卡二');
    expect(told[0]?.content).not.toContain('采购卡一');
    // and freezes it from the card's page
    expect((await admin.api.data<CardItem>('PUT', `/card/${refused.id}/status`, { body: { action: 'FREEZE' } })).status).toBe('FREEZING');
  });

  it('refuses the owner and yourself, and changes nothing', async () => {
    const owner = await teamOwner(t);
    const admin = await joinTeam(t, owner, 'ADMIN');
    await expectUnchanged(snapshot(owner.accountId), async () => {
      expect((await admin.api.delete(`/team/members/${owner.memberId}`, { body: {} })).code).toBe(TeamErrorCode.LAST_OWNER);
      expect((await admin.api.delete(`/team/members/${admin.memberId}`, { body: {} })).code).toBe(TeamErrorCode.NOT_YOURSELF);
      expect((await owner.api.delete(`/team/members/${owner.memberId}`, { body: {} })).code).toBe(TeamErrorCode.NOT_YOURSELF);
    });
  });
});

describe('POST /team/ownership', () => {
  it('hands ownership over with the trade password: the member becomes OWNER, the owner an ADMIN', async () => {
    const owner = await teamOwner(t);
    const admin = await joinTeam(t, owner, 'ADMIN');
    const suspended = await joinTeam(t, owner, 'VIEWER');
    await owner.api.data('PUT', `/team/members/${suspended.memberId}`, { body: { status: 'SUSPENDED' } });
    // without a trade password set, ownership is not handed over: one must be set first
    await expectUnchanged(snapshot(owner.accountId), async () => {
      for (const body of [{ member_id: admin.memberId }, { member_id: admin.memberId, trx_password: 'Trade1234' }]) {
        const refused = await owner.api.post('/team/ownership', body);
        expect(refused).toMatchObject({ code: ErrorCode.TRX_PASSWORD_REQUIRED, message: '请先在账户设置中设置交易密码', data: { set: false } });
      }
    });
    expect((await owner.api.put('/account/trx-password', { trx_password: 'Trade1234', password: PASSWORD })).code).toBe(0);
    await expectUnchanged(snapshot(owner.accountId), async () => {
      expect((await owner.api.post('/team/ownership', { member_id: admin.memberId })).code).toBe(ErrorCode.TRX_PASSWORD_REQUIRED);
      expect((await owner.api.post('/team/ownership', { member_id: admin.memberId, trx_password: 'Wrong9999' })).code).toBe(ErrorCode.TRX_PASSWORD_WRONG);
      expect((await owner.api.post('/team/ownership', { member_id: owner.memberId, trx_password: 'Trade1234' })).code).toBe(TeamErrorCode.NOT_YOURSELF);
      expect((await owner.api.post('/team/ownership', { member_id: suspended.memberId, trx_password: 'Trade1234' })).code).toBe(TeamErrorCode.MEMBER_NOT_FOUND);
      expect((await admin.api.post('/team/ownership', { member_id: admin.memberId })).code).toBe(TeamErrorCode.PERMISSION_DENIED);
    });
    expect((await owner.api.post('/team/ownership', { member_id: admin.memberId, trx_password: 'Trade1234' })).code).toBe(0);
    expect((await admin.api.data<AccountInfo>('GET', '/account/info')).role).toBe('OWNER');
    expect((await owner.api.data<AccountInfo>('GET', '/account/info')).role).toBe('ADMIN');
    expect((await memberRows(owner.accountId)).filter((m) => m.role === 'OWNER')).toHaveLength(1);
    // the new owner may now change the old one
    expect((await admin.api.put(`/team/members/${owner.memberId}`, { role: 'FINANCE' })).code).toBe(0);
  });
});

describe('PUT /team/name and PUT /card/{id}/holder', () => {
  it('renames the company, as /account/info shows it', async () => {
    const owner = await teamOwner(t);
    await owner.api.data('PUT', '/team/name', { body: { name: '  出海科技  ' } });
    expect((await owner.api.data<AccountInfo>('GET', '/account/info')).account_name).toBe('出海科技');
    expect((await owner.api.put('/team/name', { name: '   ' })).code).toBe(ErrorCode.VALIDATION);
  });

  it('gives a card to an active member of the team only', async () => {
    const owner = await teamOwner(t);
    await readyForCards(t, owner);
    const buyer = await joinTeam(t, owner, 'MEMBER');
    const paused = await joinTeam(t, owner, 'MEMBER');
    await owner.api.data('PUT', `/team/members/${paused.memberId}`, { body: { status: 'SUSPENDED' } });
    const card = await issuedCard(owner, issuer);
    const moved = await owner.api.data<CardItem>('PUT', `/card/${card.id}/holder`, { body: { holder_member_id: buyer.memberId } });
    expect(moved).toEqual(await owner.api.data<CardItem>('GET', `/card/${card.id}`));
    expect((await members(owner)).find((m) => m.id === buyer.memberId)?.cards_held).toBe(1);
    const stranger = await teamOwner(t);
    await expectUnchanged(snapshot(owner.accountId), async () => {
      expect((await owner.api.put(`/card/${card.id}/holder`, { holder_member_id: paused.memberId })).code).toBe(TeamErrorCode.HOLDER_INVALID);
      expect((await owner.api.put(`/card/${card.id}/holder`, { holder_member_id: stranger.memberId })).code).toBe(TeamErrorCode.HOLDER_INVALID);
      expect((await owner.api.put(`/card/${card.id}/holder`, { holder_member_id: 'x' })).code).toBe(TeamErrorCode.HOLDER_INVALID);
    });
  });
});

describe('another team', () => {
  it('never sees or changes this team’s members, invitations or cards', async () => {
    const owner = await teamOwner(t);
    await readyForCards(t, owner);
    const buyer = await joinTeam(t, owner, 'MEMBER');
    const card = await issuedCard(buyer, issuer);
    const email = `pending-${Date.now()}@mail.example`;
    const invited = await owner.api.data<{ id: string }>('POST', '/team/invitations', { body: { email, role: 'VIEWER' } });
    // another account at the same merchant, and one at another merchant
    for (const other of [await teamOwner(t), await teamOwner(t, 'orange.localhost')]) {
      await readyForCards(t, other);
      const theirs = await joinTeam(t, other, 'MEMBER');
      expect((await other.api.put('/account/trx-password', { trx_password: 'Trade1234', password: PASSWORD })).code).toBe(0);
      await expectUnchanged(snapshot(owner.accountId), async () => {
        const seen = await other.api.data<{ items: TeamMember[] }>('GET', '/team/members');
        expect(seen.items.map((m) => m.id).sort()).toEqual([other.memberId, theirs.memberId].sort());
        const pending = await other.api.data<{ items: Array<{ id: string }> }>('GET', '/team/invitations');
        expect(pending.items).toEqual([]);
        expect((await other.api.put(`/team/members/${buyer.memberId}`, { role: 'VIEWER' })).code).toBe(TeamErrorCode.MEMBER_NOT_FOUND);
        expect((await other.api.delete(`/team/members/${buyer.memberId}`, { body: {} })).code).toBe(TeamErrorCode.MEMBER_NOT_FOUND);
        expect((await other.api.delete(`/team/invitations/${invited.id}`)).code).toBe(TeamErrorCode.INVITATION_NOT_FOUND);
        expect((await other.api.post('/team/ownership', { member_id: buyer.memberId, trx_password: 'Trade1234' })).code).toBe(TeamErrorCode.MEMBER_NOT_FOUND);
        expect((await other.api.put(`/card/${card.id}/holder`, { holder_member_id: theirs.memberId })).code).toBe(CardErrorCode.CARD_NOT_FOUND);
        expect((await other.api.put(`/card/${card.id}/holder`, { holder_member_id: buyer.memberId })).code).toBe(TeamErrorCode.HOLDER_INVALID);
        expect((await other.api.get(`/card/${card.id}`)).code).not.toBe(0);
        await other.api.data('PUT', '/team/name', { body: { name: '别家' } });
        expect((await other.api.data<TeamBudget>('GET', '/team/budget')).used).toBe('0.00');
      });
      // and no card of theirs is given to this team's member
      const theirCard = await issuedCard(theirs, issuer);
      expect((await other.api.put(`/card/${theirCard.id}/holder`, { holder_member_id: buyer.memberId })).code).toBe(TeamErrorCode.HOLDER_INVALID);
    }
  });
});
