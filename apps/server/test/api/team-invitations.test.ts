import type { AccountInfo } from '@portal/contract/account';
import { ErrorCode } from '@portal/contract/errors';
import type { TeamMember } from '@portal/contract/team';
import { TeamErrorCode } from '@portal/contract/team-errors';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.ts';
import { sha256 } from '../../src/lib/crypto.ts';
import { freshEmail, freshPhone, lastMessage, PASSWORD, phoneTo, signUp } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { queryRows } from '../helpers/sql.ts';
import { invitationToken, joinTeam, registerWith, type Teammate, teamOwner } from '../helpers/team.ts';
import { expectUnchanged } from '../helpers/unchanged.ts';

const clock = new ManualClock(new Date('2026-11-25T02:00:00Z'));
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t?.close());

const HOUR = 60 * 60_000;

interface Pending {
  id: string;
  sent_to: string;
  channel: string;
  role: string;
  monthly_budget: string | null;
  invited_by: string;
  expires_at: string;
}
const pending = (who: Teammate) => who.api.data<{ items: Pending[] }>('GET', '/team/invitations').then((answer) => answer.items);
const invite = (who: Teammate, body: Record<string, unknown>) => who.api.post<{ id: string; expires_at: string }>('/team/invitations', body);
const preview = (host: string, token: string) => t.api(host).get<Record<string, unknown>>(`/team/invitations/by-token/${token}`);
const teamState = (accountId: string) => async () =>
  JSON.stringify([
    await queryRows(t.database.db, sql`select id, role, status from members where account_id = ${accountId} order by id`),
    await queryRows(t.database.db, sql`select id, accepted_at, revoked_at from invitations where account_id = ${accountId} order by id`),
  ]);

describe('POST /team/invitations', () => {
  it('sends a link by e-mail naming who invited, the company and the role; only its hash is kept; it is listed', async () => {
    const owner = await teamOwner(t);
    await owner.api.data('PUT', '/team/name', { body: { name: '出海科技' } });
    const email = freshEmail('invitee');
    const created = await invite(owner, { email, role: 'FINANCE' });
    expect(created.code, created.message).toBe(0);
    expect(new Date(created.data.expires_at).getTime() - clock.now().getTime()).toBe(72 * HOUR);
    const mail = await lastMessage(t, email);
    const token = await invitationToken(t, email);
    expect(mail.text).toContain(`http://localhost:3000/sign-up?invitation=${token}`);
    expect(`${mail.subject}${mail.text}`).toContain('出海科技');
    expect(mail.text).toContain('财务');
    expect(mail.text).toContain(`${owner.phone.slice(0, 3)}****${owner.phone.slice(-4)}`);
    const [row] = await queryRows<{ token_hash: string }>(t.database.db, sql`select token_hash from invitations where id = ${created.data.id}`);
    expect(row?.token_hash).toBe(sha256(token));

    const items = await pending(owner);
    expect(items).toEqual([
      expect.objectContaining({ id: created.data.id, sent_to: email, channel: 'EMAIL', role: 'FINANCE', monthly_budget: null, expires_at: created.data.expires_at }),
    ]);
    expect(await preview('localhost', token)).toMatchObject({
      code: 0,
      data: { account_name: '出海科技', role: 'FINANCE', phone_masked: null, expires_at: created.data.expires_at },
    });
  });

  it('sends an SMS invitation; sign-up must use that phone', async () => {
    const owner = await teamOwner(t);
    const phone = freshPhone();
    expect((await invite(owner, { phone_info: { phone, phone_prefix: '86' }, role: 'VIEWER' })).code).toBe(0);
    const token = await invitationToken(t, phoneTo(phone));
    expect((await pending(owner))[0]).toMatchObject({ channel: 'SMS', sent_to: `+86 ${phone.slice(0, 3)}****${phone.slice(-4)}` });
    expect((await preview('localhost', token)).data).toMatchObject({ phone_masked: `${phone.slice(0, 3)}****${phone.slice(-4)}`, email: null });
    await expectUnchanged(teamState(owner.accountId), async () => {
      const wrong = await registerWith(t, 'localhost', token);
      expect(wrong.answer.code).toBe(TeamErrorCode.INVITATION_INVALID);
      expect(wrong.answer.message).toContain('手机号');
    });
    const right = await registerWith(t, 'localhost', token, phone);
    expect(right.answer.code, right.answer.message).toBe(0);
    expect(right.answer.data).toMatchObject({ signed_in: false });
    // no e-mail yet: the new member binds one, as every sign-up does
    expect((await t.api('localhost', right.answer.data.token).get('/account/info')).code).toBe(ErrorCode.EMAIL_REQUIRED);
  });

  it('refuses someone already in a team here, and a second pending one to the same address', async () => {
    const owner = await teamOwner(t);
    const other = await signUp(t);
    await expectUnchanged(teamState(owner.accountId), async () => {
      expect((await invite(owner, { phone_info: { phone: other.phone, phone_prefix: '86' }, role: 'VIEWER' })).code).toBe(TeamErrorCode.ALREADY_IN_TEAM);
      expect((await invite(owner, { email: other.email.toUpperCase(), role: 'VIEWER' })).code).toBe(TeamErrorCode.ALREADY_IN_TEAM);
      expect((await invite(owner, { phone_info: { phone: owner.phone, phone_prefix: '86' }, role: 'ADMIN' })).code).toBe(TeamErrorCode.ALREADY_IN_TEAM);
      expect((await invite(owner, { email: freshEmail(), role: 'OWNER' })).code).toBe(ErrorCode.VALIDATION);
      expect((await invite(owner, { role: 'VIEWER' })).code).toBe(ErrorCode.VALIDATION);
    });
    const email = freshEmail();
    expect((await invite(owner, { email, role: 'VIEWER' })).code).toBe(0);
    await expectUnchanged(teamState(owner.accountId), async () => {
      expect((await invite(owner, { email, role: 'ADMIN' })).code).toBe(TeamErrorCode.INVITATION_PENDING);
    });
    // an expired pending one is revoked when the address is invited again
    clock.advance(73 * HOUR);
    expect((await invite(owner, { email, role: 'ADMIN' })).code).toBe(0);
    expect((await pending(owner)).map((item) => item.role)).toEqual(['ADMIN']);
  });

  it('limits how many invitations go to one address a day', async () => {
    const owner = await teamOwner(t);
    const email = freshEmail();
    for (let i = 0; i < 5; i++) {
      const sent = await invite(owner, { email, role: 'VIEWER' });
      expect(sent.code, sent.message).toBe(0);
      await owner.api.data('DELETE', `/team/invitations/${sent.data.id}`);
    }
    const refused = await invite(owner, { email, role: 'VIEWER' });
    expect(refused.code).toBe(ErrorCode.RATE_LIMITED);
    expect(refused.status).toBe(429);
  });

  it('limits how many invitations an account sends a day, and lets it send again a day later', async () => {
    const owner = await teamOwner(t);
    for (let i = 0; i < 50; i++) expect((await invite(owner, { email: freshEmail(`cap${i}`), role: 'VIEWER' })).code).toBe(0);
    await expectUnchanged(teamState(owner.accountId), async () => {
      const refused = await invite(owner, { email: freshEmail(), role: 'VIEWER' });
      expect(refused.code).toBe(ErrorCode.RATE_LIMITED);
      expect((refused.data as unknown as { retry_after: number }).retry_after).toBeGreaterThan(0);
    });
    const wait = (await invite(owner, { email: freshEmail(), role: 'VIEWER' })).data as unknown as { retry_after: number };
    clock.advance(wait.retry_after * 1000);
    expect((await invite(owner, { email: freshEmail(), role: 'VIEWER' })).code).toBe(0);
  });
});

describe('an invitation link', () => {
  it('is refused once revoked, used, expired, or when it is another merchant’s or none', async () => {
    const owner = await teamOwner(t);
    const revokedTo = freshEmail();
    const revoked = await invite(owner, { email: revokedTo, role: 'VIEWER' });
    const revokedToken = await invitationToken(t, revokedTo);
    await owner.api.data('DELETE', `/team/invitations/${revoked.data.id}`);
    expect((await owner.api.delete(`/team/invitations/${revoked.data.id}`)).code).toBe(TeamErrorCode.INVITATION_NOT_FOUND);
    expect((await owner.api.delete('/team/invitations/nonsense')).code).toBe(TeamErrorCode.INVITATION_NOT_FOUND);
    expect(await pending(owner)).toEqual([]);
    expect((await preview('localhost', revokedToken)).code).toBe(TeamErrorCode.INVITATION_REVOKED);
    await expectUnchanged(teamState(owner.accountId), async () => {
      expect((await registerWith(t, 'localhost', revokedToken)).answer.code).toBe(TeamErrorCode.INVITATION_REVOKED);
    });

    const usedTo = freshEmail();
    await invite(owner, { email: usedTo, role: 'VIEWER' });
    const usedToken = await invitationToken(t, usedTo);
    expect((await registerWith(t, 'localhost', usedToken)).answer.code).toBe(0);
    expect((await preview('localhost', usedToken)).code).toBe(TeamErrorCode.INVITATION_USED);
    await expectUnchanged(teamState(owner.accountId), async () => {
      expect((await registerWith(t, 'localhost', usedToken)).answer.code).toBe(TeamErrorCode.INVITATION_USED);
    });

    const lateTo = freshEmail();
    await invite(owner, { email: lateTo, role: 'VIEWER' });
    const lateToken = await invitationToken(t, lateTo);
    clock.advance(72 * HOUR);
    expect((await preview('localhost', lateToken)).code).toBe(TeamErrorCode.INVITATION_EXPIRED);
    await expectUnchanged(teamState(owner.accountId), async () => {
      expect((await registerWith(t, 'localhost', lateToken)).answer.code).toBe(TeamErrorCode.INVITATION_EXPIRED);
    });
    expect(await pending(owner)).toEqual([]);

    const elsewhereTo = freshEmail();
    await invite(owner, { email: elsewhereTo, role: 'VIEWER' });
    const elsewhereToken = await invitationToken(t, elsewhereTo);
    expect((await preview('orange.localhost', elsewhereToken)).code).toBe(TeamErrorCode.INVITATION_INVALID);
    expect((await preview('localhost', 'no-such-token')).code).toBe(TeamErrorCode.INVITATION_INVALID);
    await expectUnchanged(teamState(owner.accountId), async () => {
      expect((await registerWith(t, 'orange.localhost', elsewhereToken)).answer.code).toBe(TeamErrorCode.INVITATION_INVALID);
    });
  });

  it('signs the invitee up into that team: the same account, the role and budget given, the e-mail it went to', async () => {
    const owner = await teamOwner(t);
    const member = await joinTeam(t, owner, 'MEMBER', '88.00');
    const info = await member.api.data<AccountInfo>('GET', '/account/info');
    expect(info).toMatchObject({ id: owner.accountId, role: 'MEMBER', email: member.email });
    expect(info.member_id).not.toBe(owner.memberId);
    const seen = await owner.api.data<{ items: TeamMember[] }>('GET', '/team/members');
    expect(seen.items.find((m) => m.id === member.memberId)).toMatchObject({ role: 'MEMBER', monthly_budget: '88.00', email: member.email });
    const [row] = await queryRows<{ invited_by: string }>(t.database.db, sql`select invited_by from members where id = ${member.memberId}`);
    expect(row?.invited_by).toBe(owner.memberId);
    // no account of their own was made
    expect(await queryRows(t.database.db, sql`select account_id from members where phone = ${member.phone}`)).toEqual([{ account_id: owner.accountId }]);
  });

  it('answers a sign-up by an e-mail invitation as signed in: the e-mail is the one the link went to', async () => {
    const owner = await teamOwner(t);
    const email = freshEmail('signed-in');
    expect((await invite(owner, { email, role: 'VIEWER' })).code).toBe(0);
    const { answer } = await registerWith(t, 'localhost', await invitationToken(t, email));
    expect(answer.code, answer.message).toBe(0);
    expect(answer.data).toMatchObject({ signed_in: true });
    expect((await t.api('localhost', answer.data.token).get('/account/info')).code).toBe(0);
  });

  it('refuses to sign up by invitation a phone that is already a member here', async () => {
    const owner = await teamOwner(t);
    const someone = await signUp(t);
    const email = freshEmail();
    await invite(owner, { email, role: 'VIEWER' });
    const token = await invitationToken(t, email);
    await expectUnchanged(teamState(owner.accountId), async () => {
      // (a code for a registered phone is refused before: the sign-up is refused whatever code it carries)
      const body = { phone_prefix: '86', phone: someone.phone, password: PASSWORD, captcha: '000000', invitation_code: null, invitation: token };
      expect((await t.api().post('/account/register', body)).code).toBe(TeamErrorCode.ALREADY_IN_TEAM);
    });
    expect((await preview('localhost', token)).code).toBe(0);
  });

  it('is used once when two sign up with it at once', async () => {
    const owner = await teamOwner(t);
    const email = freshEmail();
    await invite(owner, { email, role: 'VIEWER' });
    const token = await invitationToken(t, email);
    const results = await Promise.all([registerWith(t, 'localhost', token), registerWith(t, 'localhost', token)]);
    const codes = results.map((r) => r.answer.code).sort();
    expect(codes[0]).toBe(0);
    expect([TeamErrorCode.INVITATION_USED, TeamErrorCode.ALREADY_IN_TEAM]).toContain(codes[1]);
    const [count] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from members where account_id = ${owner.accountId}`);
    expect(count?.n).toBe(2);
  });
});

describe('a member who sent invitations is removed or suspended', () => {
  it('revokes their pending invitations in the same change; the others stay', async () => {
    const owner = await teamOwner(t);
    const leaving = await joinTeam(t, owner, 'ADMIN');
    const paused = await joinTeam(t, owner, 'ADMIN');
    const fromLeaving = freshEmail('from-leaving');
    const fromPaused = freshEmail('from-paused');
    const fromOwner = freshEmail('from-owner');
    expect((await invite(leaving, { email: fromLeaving, role: 'VIEWER' })).code).toBe(0);
    expect((await invite(paused, { email: fromPaused, role: 'VIEWER' })).code).toBe(0);
    expect((await invite(owner, { email: fromOwner, role: 'VIEWER' })).code).toBe(0);
    const leavingToken = await invitationToken(t, fromLeaving);
    const pausedToken = await invitationToken(t, fromPaused);

    await owner.api.data('PUT', `/team/members/${paused.memberId}`, { body: { status: 'SUSPENDED' } });
    await owner.api.data('DELETE', `/team/members/${leaving.memberId}`, { body: {} });

    expect((await pending(owner)).map((item) => item.sent_to)).toEqual([fromOwner]);
    expect((await preview('localhost', leavingToken)).code).toBe(TeamErrorCode.INVITATION_REVOKED);
    expect((await preview('localhost', pausedToken)).code).toBe(TeamErrorCode.INVITATION_REVOKED);
    const rows = await queryRows<{ invited_by: string; revoked: boolean }>(
      t.database.db,
      sql`select invited_by, revoked_at is not null as revoked from invitations where account_id = ${owner.accountId}`,
    );
    expect(rows.filter((row) => row.revoked).map((row) => row.invited_by).sort()).toEqual([leaving.memberId, paused.memberId].sort());
    expect(rows.find((row) => row.invited_by === owner.memberId)?.revoked).toBe(false);
  });
});
