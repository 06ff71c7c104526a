/**
 * Operators kept in the console: an ADMIN adds, disables and resets another operator with their own
 * authenticator code, each an audit row; no other role may, no ADMIN acts on themself or on another
 * merchant's operator; and any operator changes their own password with the current one and a code.
 */
import type { ConsoleLoginAnswer, OperatorPasswordAnswer, OperatorView } from '@portal/contract/console';
import { ConsoleErrorCode } from '@portal/contract/console-errors';
import { ErrorCode } from '@portal/contract/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { auditOf, C, type ConsoleOperator, consoleOperators } from '../helpers/console.ts';
import { expectUnchanged } from '../helpers/unchanged.ts';

const clock = new ManualClock(new Date('2026-12-02T06:00:10Z'));
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t?.close());

const { operator, code } = consoleOperators(() => t, clock, 'adm');

let admin: ConsoleOperator;
let orangeAdmin: ConsoleOperator;
const others = {} as Record<'SUPPORT' | 'FINANCE' | 'RISK', ConsoleOperator>;
beforeAll(async () => {
  admin = await operator('localhost', 'ADMIN');
  orangeAdmin = await operator('orange.localhost', 'ADMIN');
  for (const role of ['SUPPORT', 'FINANCE', 'RISK'] as const) others[role] = await operator('localhost', role);
});

const operatorsOf = async (who: ConsoleOperator) => (await who.api.data<{ items: OperatorView[] }>('GET', C('/operators'))).items;
const login = (host: string, email: string, password: string) => t.api(host).post<ConsoleLoginAnswer>(C('/auth/login'), { email, password });
const uniqueEmail = (tag: string) => `${tag}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@ops.example`;

describe('an ADMIN keeps the operators in the console', () => {
  it('adds an operator whose answered password signs in, and the row names who did it', async () => {
    const email = uniqueEmail('new');
    const added = await admin.api.post<OperatorPasswordAnswer>(C('/operators'), { email: email.toUpperCase(), name: '新客服', role: 'SUPPORT', totp: await code(admin) });
    expect(added.code, added.message).toBe(0);
    expect(added.data.operator).toMatchObject({ email, name: '新客服', role: 'SUPPORT', status: 'ACTIVE', totp_enrolled: false });
    expect(added.data.password).toMatch(/^[\w-]{20}$/);
    const first = await login('localhost', email, added.data.password);
    expect(first.code, first.message).toBe(0);
    expect(first.data.totp_enrolment).toBeDefined();

    const [row] = (await auditOf(admin, 'OPERATOR_CREATED')).filter((item) => item.target === email);
    expect(row).toMatchObject({ channel: 'CONSOLE', actor: admin.email, after: { email, name: '新客服', role: 'SUPPORT' } });
    expect(JSON.stringify(row)).not.toContain(added.data.password);

    const taken = await admin.api.post(C('/operators'), { email, role: 'RISK', totp: await code(admin) });
    expect(taken.code).toBe(ConsoleErrorCode.EMAIL_TAKEN);
  });

  it('disables an operator: their session ends at once and sign-in is refused', async () => {
    const victim = await operator('localhost', 'FINANCE');
    const done = await admin.api.post<OperatorView>(C(`/operators/${(await operatorsOf(admin)).find((o) => o.email === victim.email)?.id}/disable`), { totp: await code(admin) });
    expect(done.code, done.message).toBe(0);
    expect(done.data.status).toBe('DISABLED');
    expect((await victim.api.get(C('/me'))).code).toBe(ConsoleErrorCode.SESSION_INVALID);
    expect((await login('localhost', victim.email, victim.password)).code).toBe(ConsoleErrorCode.OPERATOR_DISABLED);
    const [row] = (await auditOf(admin, 'OPERATOR_DISABLED')).filter((item) => item.target === victim.email);
    expect(row).toMatchObject({ channel: 'CONSOLE', actor: admin.email, before: { status: 'ACTIVE' }, after: { status: 'DISABLED', sessions_ended: 1 } });
  });

  it('resets an operator: the old password fails, the new one signs in to enrol again', async () => {
    const victim = await operator('localhost', 'RISK');
    const id = (await operatorsOf(admin)).find((o) => o.email === victim.email)?.id as string;
    const reset = await admin.api.post<OperatorPasswordAnswer>(C(`/operators/${id}/reset`), { totp: await code(admin) });
    expect(reset.code, reset.message).toBe(0);
    expect(reset.data.operator.totp_enrolled).toBe(false);
    expect((await victim.api.get(C('/me'))).code).toBe(ConsoleErrorCode.SESSION_INVALID);
    expect((await login('localhost', victim.email, victim.password)).code).toBe(ConsoleErrorCode.BAD_CREDENTIALS);
    const again = await login('localhost', victim.email, reset.data.password);
    expect(again.code, again.message).toBe(0);
    expect(again.data.totp_enrolment).toBeDefined();
    expect((await auditOf(admin, 'OPERATOR_RESET')).filter((item) => item.target === victim.email)).toHaveLength(1);
  });

  it('refuses a wrong code, the ADMIN themself, an unknown id and bad input, changing nothing', async () => {
    const victim = await operator('localhost', 'SUPPORT');
    const id = (await operatorsOf(admin)).find((o) => o.email === victim.email)?.id as string;
    const mine = (await operatorsOf(admin)).find((o) => o.email === admin.email)?.id as string;
    const snapshot = async () => JSON.stringify(await operatorsOf(admin));
    await expectUnchanged(snapshot, async () => {
      expect((await admin.api.post(C(`/operators/${id}/disable`), { totp: '000000' })).code).toBe(ConsoleErrorCode.TOTP_WRONG);
      expect((await admin.api.post(C(`/operators/${mine}/disable`), { totp: await code(admin) })).code).toBe(ConsoleErrorCode.OPERATOR_SELF);
      expect((await admin.api.post(C(`/operators/${mine}/reset`), { totp: await code(admin) })).code).toBe(ConsoleErrorCode.OPERATOR_SELF);
      expect((await admin.api.post(C('/operators/00000000-0000-4000-8000-000000000000/reset'), { totp: await code(admin) })).code).toBe(ConsoleErrorCode.OPERATOR_NOT_FOUND);
      const bad = await admin.api.post(C('/operators'), { email: 'not-an-email', role: 'BOSS', totp: '12' });
      expect(bad.code).toBe(ErrorCode.VALIDATION);
    });
    // an ADMIN of another merchant finds no such operator
    expect((await orangeAdmin.api.post(C(`/operators/${id}/disable`), { totp: await code(orangeAdmin) })).code).toBe(ConsoleErrorCode.OPERATOR_NOT_FOUND);
    expect((await operatorsOf(orangeAdmin)).map((o) => o.email)).not.toContain(victim.email);
  });

  it('refuses every other role each call', async () => {
    const id = (await operatorsOf(admin)).find((o) => o.email === admin.email)?.id as string;
    for (const who of Object.values(others)) {
      expect((await who.api.get(C('/operators'))).code).toBe(ConsoleErrorCode.ROLE_DENIED);
      expect((await who.api.post(C('/operators'), { email: uniqueEmail('x'), role: 'ADMIN', totp: await code(who) })).code).toBe(ConsoleErrorCode.ROLE_DENIED);
      expect((await who.api.post(C(`/operators/${id}/disable`), { totp: await code(who) })).code).toBe(ConsoleErrorCode.ROLE_DENIED);
      expect((await who.api.post(C(`/operators/${id}/reset`), { totp: await code(who) })).code).toBe(ConsoleErrorCode.ROLE_DENIED);
    }
  });
});

describe("an operator's own password", () => {
  it('changes with the current password and a code; other sessions end, this one stays; the row holds no password', async () => {
    for (const role of ['SUPPORT', 'ADMIN'] as const) {
      const who = await operator('localhost', role);
      const elsewhere = await login('localhost', who.email, who.password);
      const other = t.api('localhost', (await t.api('localhost', elsewhere.data.token).post<{ token: string }>(C('/auth/totp'), { code: await code(who) })).data.token);
      expect((await other.get(C('/me'))).code).toBe(0);
      const fresh = `Nouveau${role}Pass2026`;
      const changed = await who.api.put(C('/auth/password'), { current_password: who.password, new_password: fresh, totp: await code(who) });
      expect(changed.code, changed.message).toBe(0);
      expect((await who.api.get(C('/me'))).code).toBe(0);
      expect((await other.get(C('/me'))).code).toBe(ConsoleErrorCode.SESSION_INVALID);
      expect((await login('localhost', who.email, who.password)).code).toBe(ConsoleErrorCode.BAD_CREDENTIALS);
      expect((await login('localhost', who.email, fresh)).code).toBe(0);
      const [row] = (await auditOf(admin, 'PASSWORD_CHANGED')).filter((item) => item.target === who.email);
      expect(row).toMatchObject({ channel: 'CONSOLE', actor: who.email, after: { password: 'NEW', other_sessions_ended: 1 } });
      expect(JSON.stringify(row)).not.toContain(fresh);
    }
  });

  it('refuses a wrong current password, a weak or unchanged new one and a wrong code, keeping the old password', async () => {
    const who = await operator('localhost', 'FINANCE');
    // each body's code is made just before it is sent: a code is good for its step and the one either side
    const refusals: Array<[Record<string, string>, number]> = [
      [{ current_password: 'wrong-password-1', new_password: 'Another2026Pass' }, ConsoleErrorCode.PASSWORD_WRONG],
      [{ current_password: who.password, new_password: 'short1' }, ErrorCode.VALIDATION],
      [{ current_password: who.password, new_password: 'onlyletterslong' }, ErrorCode.VALIDATION],
      [{ current_password: who.password, new_password: who.password }, ConsoleErrorCode.PASSWORD_SAME],
      [{ current_password: who.password, new_password: 'Another2026Pass', totp: '000000' }, ConsoleErrorCode.TOTP_WRONG],
    ];
    for (const [body, expected] of refusals) {
      const answer = await who.api.put(C('/auth/password'), { totp: await code(who), ...body });
      expect(answer.code, JSON.stringify(body)).toBe(expected);
    }
    expect((await login('localhost', who.email, who.password)).code).toBe(0);
    expect(await auditOf(admin, 'PASSWORD_CHANGED').then((rows) => rows.filter((row) => row.target === who.email))).toHaveLength(0);
  });
});

describe("the audit log's operator filter", () => {
  it("every role reads its own merchant's operators by e-mail and name, and the log filtered by one holds only theirs", async () => {
    for (const who of [others.SUPPORT, others.RISK, admin]) {
      const listed = await who.api.data<{ items: Array<{ id: string; email: string; name: string }> }>('GET', C('/audit/operators'));
      expect(listed.items.map((item) => item.email)).toEqual(expect.arrayContaining([admin.email, others.SUPPORT.email]));
      expect(listed.items.map((item) => item.email)).not.toContain(orangeAdmin.email);
      expect(Object.keys(listed.items[0] ?? {}).sort()).toEqual(['email', 'id', 'name']);
    }
    const support = (await others.SUPPORT.api.data<{ items: Array<{ id: string; email: string }> }>('GET', C('/audit/operators'))).items.find(
      (item) => item.email === others.SUPPORT.email,
    );
    const rows = await others.SUPPORT.api.data<{ items: Array<{ operator_id: string | null; actor: string }>; total: number }>('GET', C('/audit'), {
      query: { operator_id: support?.id as string, page_size: '100' },
    });
    expect(rows.total).toBeGreaterThan(0);
    for (const row of rows.items) expect(row).toMatchObject({ operator_id: support?.id, actor: others.SUPPORT.email });
  });
});
