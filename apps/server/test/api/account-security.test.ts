import type { AccountSession, LoginAttempt, SecurityOverview } from '@portal/contract/account';
import { messages } from '@portal/contract/rules';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.ts';
import { LOGIN_ATTEMPTS_KEPT } from '../../src/modules/accounts/store.ts';
import { freshEmail, freshIp, freshPhone, lastCode, lastMessage, PASSWORD, phoneTo, signIn, signUp } from '../helpers/accounts.ts';
import type { ApiClient } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { queryRows } from '../helpers/sql.ts';
import { openEventStream } from '../helpers/sse.ts';

let t: TestApp;
let base: string;
// 10:00 in Beijing
const clock = new ManualClock(new Date('2026-11-25T02:00:00Z'));
beforeAll(async () => {
  t = await createTestApp({ clock });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
});
afterAll(() => t.close());

const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const NEW_PASSWORD = 'Changed1Pass';

const phoneLogin = (phone: string, password = PASSWORD) => ({ phone_info: { phone, phone_prefix: '86' }, password });
const login = (body: object, options: { host?: string; headers?: Record<string, string>; ip?: string } = {}) =>
  t.api(options.host ?? 'localhost').post<{ token: string; check: boolean }>('/account/login', body, {
    headers: options.headers ?? {},
    remoteAddress: options.ip ?? freshIp(),
  });

/** The station messages of a session's account, newest first. */
async function stationMessages(client: ApiClient) {
  const page = await client.data<{ items: { title: string; content: string }[] }>('GET', '/msg-center/station-msg/list', {
    query: { kind: 'message', page: 1, page_size: 50 },
  });
  return page.items;
}

/** A code of a change, sent to a phone or an e-mail; answers the code from the outbox. */
async function changeCode(client: ApiClient, mark: 'MARK_TYPE_CHANGE_EMAIL' | 'MARK_TYPE_CHANGE_PHONE', to: { email?: string; phone?: string }) {
  const body = to.email
    ? { send_type: 'SEND_TYPE_EMAIL', mark_type: mark, email: to.email }
    : { send_type: 'SEND_TYPE_PHONE', mark_type: mark, phone_info: { phone: to.phone, phone_prefix: '86' } };
  const sent = await client.post('/account/send/code', body, { remoteAddress: freshIp() });
  expect(sent.code, sent.message).toBe(0);
  return lastCode(t, to.email?.toLowerCase() ?? phoneTo(to.phone as string));
}

/** "2026-11-25 10:00", the minute of the test clock in Beijing, as the notices say it. */
const beijingMinute = () => new Date(clock.now().getTime() + 8 * 3600_000).toISOString().slice(0, 16).replace('T', ' ');

const fieldsOf = (answer: { data: unknown }) => ((answer.data as { fields?: { field: string; message: string }[] } | null)?.fields ?? []).map((f) => [f.field, f.message]);

describe('GET /account/security', () => {
  it('shows the masked phone, e-mail, id, creation, invitation manager, trade password, devices, sessions and last sign-in', async () => {
    const who = await signUp(t, 'localhost', { invitation: 'BL01' });
    const client = t.api('localhost', who.token);
    const first = await client.data<SecurityOverview>('GET', '/account/security');
    const me = await client.data<{ id: string }>('GET', '/account/info');
    expect(first).toMatchObject({
      id: me.id,
      phone: `${who.phone.slice(0, 3)}****${who.phone.slice(-4)}`,
      phone_prefix: '86',
      email: who.email,
      created_at: expect.any(String),
      trx_password_set: false,
      trusted_devices: 0,
      sessions: 1,
      last_sign_in: null,
    });
    expect(first.manager?.invitation_code).toBe('BL01');
    expect(first.manager?.name).toEqual(expect.any(String));

    // a sign-in on a trusted device, and a trade password set by the e-mailed link
    const signedIn = await signIn(t, 'localhost', { phone: who.phone }, { thirtyDay: true });
    const signedInAt = clock.now().toISOString();
    clock.advance(61_000);
    await t.api().post('/account/forget-password/code', { email: who.email, type: 'FORGET_TRX_PASSWORD' }, { remoteAddress: freshIp() });
    expect((await t.api().put('/account/forget-trx-password', { email: who.email, trx_password: 'Trade123', captcha: await lastCode(t, who.email) })).code).toBe(0);
    const after = await t.api('localhost', signedIn.token).data<SecurityOverview>('GET', '/account/security');
    expect(after).toMatchObject({ trx_password_set: true, trusted_devices: 1, sessions: 2 });
    expect(after.last_sign_in).toMatchObject({ at: signedInAt, ip: expect.any(String), device: expect.any(String) });
  });

  it('needs the full session: a session at its second verification is refused', async () => {
    const who = await signUp(t);
    const pending = await login(phoneLogin(who.phone));
    expect(pending.data.check).toBe(true);
    const refused = await t.api('localhost', pending.data.token).get('/account/security');
    expect([refused.status, refused.code]).toEqual([403, 2011]);
    const code = await t.api('localhost', pending.data.token).post('/account/send/code', { send_type: 'SEND_TYPE_EMAIL', mark_type: 'MARK_TYPE_CHANGE_EMAIL', email: freshEmail() });
    expect(code.code).toBe(2011);
  });
});

describe('PUT /account/password', () => {
  it('changes the password, ends every other session (their streams told 608 at once), keeps this one, and tells the account', async () => {
    const who = await signUp(t);
    const others = [await signIn(t, 'localhost', { phone: who.phone }), await signIn(t, 'localhost', { email: who.email })];
    const tab = await openEventStream(base, 'localhost', others[0]?.token as string);
    await tab.next((e) => e.type === 'UNREAD_QUANTITY');
    const mine = await openEventStream(base, 'localhost', who.token);
    await mine.next((e) => e.type === 'UNREAD_QUANTITY');
    try {
      const client = t.api('localhost', who.token);
      const changed = await client.put<{ ended_sessions: number }>('/account/password', { old_password: PASSWORD, password: NEW_PASSWORD });
      expect([changed.code, changed.data]).toEqual([0, { ended_sessions: 2 }]);

      expect(await tab.next((e) => e.type === 'SESSION_ENDED')).toMatchObject({ error_code: 608, message: '登录已失效，请重新登录' });
      await tab.untilEnded();
      for (const other of others) {
        const refused = await t.api('localhost', other.token).get('/account/info');
        expect([refused.status, refused.code]).toEqual([401, 608]);
      }
      expect((await client.get('/account/info')).code).toBe(0);
      // this session's own stream goes on, and hears the station message
      const notice = await mine.next((e) => e.title === '登录密码已修改');
      expect(notice.content).toBe(`您的登录密码已于 ${beijingMinute()}（北京时间）修改，其他设备上的登录已全部退出。如非本人操作，请立即通过“忘记密码”重置登录密码并联系客服。`);
      expect(mine.ended).toBe(false);

      const mail = await lastMessage(t, who.email);
      expect(mail.subject).toBe('【蓝鲸卡】账户安全提醒：登录密码已修改');
      expect(mail.text).toContain(`${beijingMinute()}（北京时间）`);

      expect((await login(phoneLogin(who.phone))).code).toBe(2009);
      expect((await login(phoneLogin(who.phone, NEW_PASSWORD))).code).toBe(0);
    } finally {
      tab.close();
      mine.close();
    }
  });

  it('refuses a wrong old password (counted toward the sign-in lock), the same password, and a new one that breaks the rule', async () => {
    const who = await signUp(t);
    const client = t.api('localhost', who.token);
    const change = (old_password: string, password: string) => client.put('/account/password', { old_password, password });

    const same = await change(PASSWORD, PASSWORD);
    expect([same.code, same.message, fieldsOf(same)]).toEqual([2112, '新密码不能与原密码相同', [['password', '新密码不能与原密码相同']]]);

    for (const [password, message] of [
      ['Ab1', messages.passwordTooShort],
      ['Abcdefgh12345678X', messages.passwordTooLong],
      ['abcdefgh1', messages.passwordPattern],
      ['', messages.required],
    ] as const) {
      const broken = await change(PASSWORD, password);
      expect([broken.status, broken.code, broken.message], password).toEqual([400, 1001, message]);
    }
    const missing = await client.put('/account/password', { password: NEW_PASSWORD });
    expect([missing.code, missing.message]).toEqual([1001, messages.required]);

    const refusals = [];
    for (let i = 0; i < 4; i++) {
      const wrong = await change('Wrong1234', NEW_PASSWORD);
      refusals.push([wrong.code, wrong.message, fieldsOf(wrong)[0]?.[0]]);
    }
    expect(refusals).toEqual([
      [2111, '原密码错误', 'old_password'],
      [2111, '原密码错误', 'old_password'],
      [2111, '原密码错误，再错2次将锁定15分钟', 'old_password'],
      [2111, '原密码错误，再错1次将锁定15分钟', 'old_password'],
    ]);
    const fifth = await change('Wrong1234', NEW_PASSWORD);
    expect([fifth.status, fifth.code]).toEqual([429, 2010]);
    // the lock holds for sign-in and for the change alike, even with the right password
    expect((await login(phoneLogin(who.phone))).code).toBe(2010);
    expect((await change(PASSWORD, NEW_PASSWORD)).code).toBe(2010);
    clock.advance(15 * 60_000 + 1000);
    expect((await change(PASSWORD, NEW_PASSWORD)).code).toBe(0);
    // nothing was ended: this was the only session
    expect((await client.get('/account/info')).code).toBe(0);
  });

  it('a right old password clears the wrong tries before it', async () => {
    const who = await signUp(t);
    const client = t.api('localhost', who.token);
    for (let i = 0; i < 4; i++) expect((await client.put('/account/password', { old_password: 'Wrong1234', password: NEW_PASSWORD })).code).toBe(2111);
    expect((await client.put('/account/password', { old_password: PASSWORD, password: PASSWORD })).code).toBe(2112);
    expect((await login(phoneLogin(who.phone, 'Wrong1234'))).message).toBe('账号或密码错误');
  });
});

describe('PUT /account/forget-password', () => {
  /** The security messages of an account, oldest first: its sessions have all ended, so read from the table. */
  const securityMessages = (accountId: string) =>
    queryRows<{ title: string; content: string }>(t.database.db, sql`select title, content from station_messages where account_id = ${accountId} and type = 'SECURITY' order by created_at`);

  it('a reset by the phone ticket or by the e-mailed code tells the account by a station message and an e-mail', async () => {
    const who = await signUp(t);
    const { id } = await t.api('localhost', who.token).data<{ id: string }>('GET', '/account/info');
    const phoneInfo = { phone: who.phone, phone_prefix: '86' };

    expect((await t.api().post('/account/forget-password/code', { phone_info: phoneInfo }, { remoteAddress: freshIp() })).code).toBe(0);
    const checked = await t.api().post<{ ticket: string }>('/account/forget-password/check', { phone_info: phoneInfo, captcha: await lastCode(t, phoneTo(who.phone)) });
    const byPhone = await t.api().put('/account/forget-password', { phone_info: phoneInfo, password: NEW_PASSWORD, ticket: checked.data.ticket });
    expect(byPhone.code, byPhone.message).toBe(0);
    const phoneSentence = `您的登录密码已于 ${beijingMinute()}（北京时间）通过手机验证码重置，所有设备上的登录已全部退出。如非本人操作，请立即通过“忘记密码”重置登录密码并联系客服。`;
    expect(await securityMessages(id)).toEqual([{ title: '登录密码已重置', content: `<p>${phoneSentence}</p>` }]);
    const phoneMail = await lastMessage(t, who.email);
    expect(phoneMail.subject).toBe('【蓝鲸卡】账户安全提醒：登录密码已重置');
    expect(phoneMail.text).toContain(phoneSentence);

    clock.advance(61_000);
    expect((await t.api().post('/account/forget-password/code', { email: who.email, type: 'FORGET_PASSWORD' }, { remoteAddress: freshIp() })).code).toBe(0);
    const byEmail = await t.api().put('/account/forget-password', { email: who.email, password: PASSWORD, captcha: await lastCode(t, who.email) });
    expect(byEmail.code, byEmail.message).toBe(0);
    const emailSentence = `您的登录密码已于 ${beijingMinute()}（北京时间）通过邮箱重置，所有设备上的登录已全部退出。如非本人操作，请立即通过“忘记密码”重置登录密码并联系客服。`;
    expect((await securityMessages(id)).map((m) => m.content)).toEqual([`<p>${phoneSentence}</p>`, `<p>${emailSentence}</p>`]);
    expect((await lastMessage(t, who.email)).text).toContain(emailSentence);
    expect((await login(phoneLogin(who.phone))).code).toBe(0);
  });

  it('a refused reset tells nobody', async () => {
    const who = await signUp(t);
    const { id } = await t.api('localhost', who.token).data<{ id: string }>('GET', '/account/info');
    const refused = await t.api().put('/account/forget-password', { phone_info: { phone: who.phone, phone_prefix: '86' }, password: NEW_PASSWORD, ticket: 'x'.repeat(43) });
    expect(refused.code).toBe(2016);
    expect(await securityMessages(id)).toEqual([]);
    expect((await lastMessage(t, who.email)).subject).not.toContain('账户安全提醒');
  });
});

describe('POST /account/email/change', () => {
  it('changes the e-mail with a code to the old address and one to the new; both addresses are told', async () => {
    const who = await signUp(t);
    const client = t.api('localhost', who.token);
    const next = freshEmail('moved');
    const oldCode = await changeCode(client, 'MARK_TYPE_CHANGE_EMAIL', { email: who.email });
    expect((await lastMessage(t, who.email)).text).toContain('用于更换账户绑定的邮箱');
    const newCode = await changeCode(client, 'MARK_TYPE_CHANGE_EMAIL', { email: next.toUpperCase() });
    const changed = await client.post<{ email: string }>('/account/email/change', { email: next, old_captcha: oldCode, captcha: newCode });
    expect([changed.code, changed.data]).toEqual([0, { email: next }]);
    expect((await client.data<{ email: string }>('GET', '/account/info')).email).toBe(next);

    for (const to of [who.email, next]) expect((await lastMessage(t, to)).subject).toBe('【蓝鲸卡】账户安全提醒：绑定邮箱已更换');
    expect((await stationMessages(client))[0]).toMatchObject({
      title: '绑定邮箱已更换',
      content: `<p>您账户绑定的邮箱已于 ${beijingMinute()}（北京时间）更换。如非本人操作，请立即修改登录密码并联系客服。</p>`,
    });
    expect((await login({ email: next, password: PASSWORD })).code).toBe(0);
    expect((await login({ email: who.email, password: PASSWORD })).code).toBe(2009);
    // the codes are spent
    expect((await client.post('/account/email/change', { email: freshEmail(), old_captcha: oldCode, captcha: newCode })).code).not.toBe(0);
  });

  it('refuses missing and wrong codes on their own field; a wrong new code leaves the old one good', async () => {
    const who = await signUp(t);
    const client = t.api('localhost', who.token);
    const next = freshEmail('next');

    const none = await client.post('/account/email/change', { email: next, old_captcha: '123456', captcha: '123456' });
    expect([none.code, none.message, fieldsOf(none)]).toEqual([2018, '请先获取验证码', [['old_captcha', '请先获取验证码']]]);

    const oldCode = await changeCode(client, 'MARK_TYPE_CHANGE_EMAIL', { email: who.email });
    const noNew = await client.post('/account/email/change', { email: next, old_captcha: oldCode, captcha: '123456' });
    expect([noNew.code, fieldsOf(noNew)[0]?.[0]]).toEqual([2018, 'captcha']);

    const newCode = await changeCode(client, 'MARK_TYPE_CHANGE_EMAIL', { email: next });
    const wrongNew = await client.post('/account/email/change', { email: next, old_captcha: oldCode, captcha: newCode === '000000' ? '111111' : '000000' });
    expect([wrongNew.code, wrongNew.message, fieldsOf(wrongNew)[0]?.[0]]).toEqual([2001, '验证码错误，还可尝试4次', 'captcha']);
    const wrongOld = await client.post('/account/email/change', { email: next, old_captcha: oldCode === '000000' ? '111111' : '000000', captcha: newCode });
    expect([wrongOld.code, fieldsOf(wrongOld)[0]?.[0]]).toEqual([2001, 'old_captcha']);
    // a code of the old address does not stand for the new one's
    expect((await client.post('/account/email/change', { email: next, old_captcha: oldCode, captcha: oldCode })).code).not.toBe(0);

    const malformed = await client.post('/account/email/change', { email: 'not-an-email', old_captcha: oldCode, captcha: newCode });
    expect([malformed.code, malformed.message]).toEqual([1001, messages.emailFormat]);
    const shortCode = await client.post('/account/email/change', { email: next, old_captcha: '12', captcha: newCode });
    expect([shortCode.code, shortCode.message]).toEqual([1001, messages.code]);

    expect((await client.post('/account/email/change', { email: next, old_captcha: oldCode, captcha: newCode })).code).toBe(0);
  });

  it("refuses the account's own e-mail and one that another account has, when sending the code and when changing", async () => {
    const who = await signUp(t);
    const other = await signUp(t);
    const client = t.api('localhost', who.token);
    const taken = await client.post('/account/send/code', { send_type: 'SEND_TYPE_EMAIL', mark_type: 'MARK_TYPE_CHANGE_EMAIL', email: other.email }, { remoteAddress: freshIp() });
    expect([taken.code, taken.message, fieldsOf(taken)]).toEqual([2008, '该邮箱已被其他账户绑定', [['email', '该邮箱已被其他账户绑定']]]);
    const oldCode = await changeCode(client, 'MARK_TYPE_CHANGE_EMAIL', { email: who.email });
    const change = await client.post('/account/email/change', { email: other.email, old_captcha: oldCode, captcha: '123456' });
    expect(change.code).toBe(2008);
    const same = await client.post('/account/email/change', { email: who.email.toUpperCase(), old_captcha: oldCode, captcha: oldCode });
    expect([same.code, same.message]).toEqual([2113, '新邮箱不能与当前邮箱相同']);
    // a change's code goes by the kind it changes
    const byPhone = await client.post('/account/send/code', { send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_CHANGE_EMAIL', phone_info: { phone: who.phone, phone_prefix: '86' } });
    expect(byPhone.code).toBe(1001);
    // the same address at another merchant is another person's business: it may be taken
    const orange = await signUp(t, 'orange.localhost');
    const elsewhere = await changeCode(t.api('orange.localhost', orange.token), 'MARK_TYPE_CHANGE_EMAIL', { email: who.email });
    expect(elsewhere).toMatch(/^\d{6}$/);
  });
});

describe('POST /account/phone/change', () => {
  it('changes the phone with a code to the old phone and one to the new; sign-in goes by the new phone', async () => {
    const who = await signUp(t);
    const client = t.api('localhost', who.token);
    const next = freshPhone();
    const oldCode = await changeCode(client, 'MARK_TYPE_CHANGE_PHONE', { phone: who.phone });
    expect((await lastMessage(t, phoneTo(who.phone))).text).toContain('用于更换账户绑定的手机号');
    const newCode = await changeCode(client, 'MARK_TYPE_CHANGE_PHONE', { phone: next });
    const changed = await client.post('/account/phone/change', { phone_info: { phone: next, phone_prefix: '86' }, old_captcha: oldCode, captcha: newCode });
    expect([changed.code, changed.data]).toEqual([0, { phone: `${next.slice(0, 3)}****${next.slice(-4)}`, phone_prefix: '86' }]);
    expect((await client.data<{ phone: string }>('GET', '/account/info')).phone).toBe(next);
    expect((await stationMessages(client))[0]?.title).toBe('绑定手机号已更换');
    expect((await lastMessage(t, who.email)).subject).toBe('【蓝鲸卡】账户安全提醒：绑定手机号已更换');
    expect((await login(phoneLogin(next))).code).toBe(0);
    expect((await login(phoneLogin(who.phone))).code).toBe(2009);
  });

  it("the current phone's or e-mail's code can be asked for without naming it (send/code-auto): it goes to the address the account has now", async () => {
    const who = await signUp(t);
    const client = t.api('localhost', who.token);
    const current = (mark: string, send_type: string) => client.post<{ masked_target: string }>('/account/send/code-auto', { send_type, mark_type: mark }, { remoteAddress: freshIp() });

    const first = await current('MARK_TYPE_CHANGE_PHONE', 'SEND_TYPE_PHONE');
    expect([first.code, first.data.masked_target]).toEqual([0, `+86 ${who.phone.slice(0, 3)}****${who.phone.slice(-4)}`]);
    expect((await lastMessage(t, phoneTo(who.phone))).text).toContain('用于更换账户绑定的手机号');
    const next = freshPhone();
    const newCode = await changeCode(client, 'MARK_TYPE_CHANGE_PHONE', { phone: next });
    const changed = await client.post('/account/phone/change', { phone_info: { phone: next, phone_prefix: '86' }, old_captcha: await lastCode(t, phoneTo(who.phone)), captcha: newCode });
    expect(changed.code, changed.message).toBe(0);

    // a screen that still holds the old phone asks the same way, and the code goes to the new one
    clock.advance(61_000);
    const after = await current('MARK_TYPE_CHANGE_PHONE', 'SEND_TYPE_PHONE');
    expect([after.code, after.data.masked_target]).toEqual([0, `+86 ${next.slice(0, 3)}****${next.slice(-4)}`]);
    expect((await lastMessage(t, phoneTo(next))).text).toContain('用于更换账户绑定的手机号');

    const byMail = await current('MARK_TYPE_CHANGE_EMAIL', 'SEND_TYPE_EMAIL');
    expect(byMail.code, byMail.message).toBe(0);
    expect((await lastMessage(t, who.email)).text).toContain('用于更换账户绑定的邮箱');
    // each change's code goes by the kind it changes
    expect((await current('MARK_TYPE_CHANGE_EMAIL', 'SEND_TYPE_PHONE')).code).toBe(1001);
    expect((await current('MARK_TYPE_CHANGE_PHONE', 'SEND_TYPE_EMAIL')).code).toBe(1001);
    // a session at its second verification may ask for its access code, not for a change's
    const pending = await login(phoneLogin(next));
    expect(pending.data.check).toBe(true);
    const early = await t.api('localhost', pending.data.token).post('/account/send/code-auto', { send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_CHANGE_PHONE' }, { remoteAddress: freshIp() });
    expect(early.code).toBe(2011);
  });

  it('refuses a phone of another account, the same phone, a malformed one, and wrong codes', async () => {
    const who = await signUp(t);
    const other = await signUp(t);
    const client = t.api('localhost', who.token);
    const taken = await client.post('/account/send/code', { send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_CHANGE_PHONE', phone_info: { phone: other.phone, phone_prefix: '86' } }, { remoteAddress: freshIp() });
    expect([taken.code, taken.message, fieldsOf(taken)]).toEqual([2115, '该手机号已被其他账户使用', [['phone_info.phone', '该手机号已被其他账户使用']]]);
    const oldCode = await changeCode(client, 'MARK_TYPE_CHANGE_PHONE', { phone: who.phone });
    expect((await client.post('/account/phone/change', { phone_info: { phone: other.phone, phone_prefix: '86' }, old_captcha: oldCode, captcha: '123456' })).code).toBe(2115);
    const same = await client.post('/account/phone/change', { phone_info: { phone: who.phone, phone_prefix: '86' }, old_captcha: oldCode, captcha: oldCode });
    expect([same.code, same.message]).toEqual([2114, '新手机号不能与当前手机号相同']);
    for (const [phone, message] of [
      ['12345678901', messages.phoneFormat],
      ['1381234567', messages.phoneFormat],
      ['', messages.required],
    ]) {
      const bad = await client.post('/account/phone/change', { phone_info: { phone, phone_prefix: '86' }, old_captcha: oldCode, captcha: '123456' });
      expect([bad.code, bad.message], phone).toEqual([1001, message]);
    }
    const hongKong = await client.post('/account/phone/change', { phone_info: { phone: freshPhone(), phone_prefix: '852' }, old_captcha: oldCode, captcha: '123456' });
    expect(hongKong.code).toBe(1001);
    const next = freshPhone();
    const newCode = await changeCode(client, 'MARK_TYPE_CHANGE_PHONE', { phone: next });
    const wrongOld = await client.post('/account/phone/change', { phone_info: { phone: next, phone_prefix: '86' }, old_captcha: oldCode === '000000' ? '111111' : '000000', captcha: newCode });
    expect([wrongOld.code, fieldsOf(wrongOld)[0]?.[0]]).toEqual([2001, 'old_captcha']);
    expect((await client.post('/account/phone/change', { phone_info: { phone: next, phone_prefix: '86' }, old_captcha: oldCode, captcha: newCode })).code).toBe(0);
  });
});

describe('the lookup cap of the changes', () => {
  it('an e-mail or phone refused at the change because another account has it counts toward the IP cap, as its code request does', async () => {
    const who = await signUp(t);
    const other = await signUp(t);
    const client = t.api('localhost', who.token);
    const ip = freshIp();
    const changeEmail = () => client.post('/account/email/change', { email: other.email, old_captcha: '123456', captcha: '123456' }, { remoteAddress: ip });
    const changePhone = () =>
      client.post('/account/phone/change', { phone_info: { phone: other.phone, phone_prefix: '86' }, old_captcha: '123456', captcha: '123456' }, { remoteAddress: ip });
    for (let i = 0; i < 15; i++) expect((await changeEmail()).code).toBe(2008);
    for (let i = 0; i < 15; i++) expect((await changePhone()).code).toBe(2115);
    // thirty asked: from here every answer is the cap's, at the change and at the code request alike
    for (const answer of [
      await changeEmail(),
      await changePhone(),
      await client.post('/account/send/code', { send_type: 'SEND_TYPE_EMAIL', mark_type: 'MARK_TYPE_CHANGE_EMAIL', email: freshEmail() }, { remoteAddress: ip }),
    ]) {
      expect([answer.status, answer.code]).toEqual([429, 2006]);
    }
    // another address is not held back by this one
    expect((await client.post('/account/email/change', { email: other.email, old_captcha: '123456', captcha: '123456' }, { remoteAddress: freshIp() })).code).toBe(2008);
  });
});

describe('sessions', () => {
  it('lists the live sessions with device, address and times, this one marked; ends one and then all others', async () => {
    const who = await signUp(t);
    const client = t.api('localhost', who.token);
    const iphone = await signIn(t, 'localhost', { phone: who.phone });
    const windows = await t.api().post<{ token: string; check: boolean }>('/account/login', phoneLogin(who.phone), { headers: { 'user-agent': CHROME_WINDOWS }, remoteAddress: '203.0.113.9' });
    // still at its second verification: listed as such
    expect(windows.data.check).toBe(true);

    const list = await client.data<AccountSession[]>('GET', '/account/sessions');
    expect(list).toHaveLength(3);
    expect(list.filter((s) => s.current)).toHaveLength(1);
    const pending = list.find((s) => s.stage === 'VERIFY');
    expect(pending).toMatchObject({ device: 'Chrome 131 · Windows', ip: '203.0.113.9', current: false });
    expect(list.every((s) => !Number.isNaN(Date.parse(s.created_at)) && !Number.isNaN(Date.parse(s.last_active_at)))).toBe(true);

    const other = list.find((s) => !s.current && s.stage === 'FULL') as AccountSession;
    const tab = await openEventStream(base, 'localhost', iphone.token);
    await tab.next((e) => e.type === 'UNREAD_QUANTITY');
    try {
      expect((await client.delete(`/account/sessions/${other.id}`)).code).toBe(0);
      expect(await tab.next((e) => e.type === 'SESSION_ENDED')).toMatchObject({ error_code: 608 });
      await tab.untilEnded();
    } finally {
      tab.close();
    }
    expect((await t.api('localhost', iphone.token).get('/account/info')).code).toBe(608);
    const again = await client.delete(`/account/sessions/${other.id}`);
    expect([again.status, again.code, again.message]).toEqual([404, 2116, '该登录会话不存在或已结束']);
    expect((await stationMessages(client))[0]?.title).toBe('登录会话已结束');

    // messages of one instant have no order among them
    clock.advance(1000);
    const all = await client.delete<{ ended_sessions: number }>('/account/sessions', { query: { others: 'true' } });
    expect([all.code, all.data]).toEqual([0, { ended_sessions: 1 }]);
    expect((await t.api('localhost', windows.data.token).post('/account/send/code-auto', { send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_ACCESS' })).code).toBe(608);
    expect((await client.data<AccountSession[]>('GET', '/account/sessions')).map((s) => s.current)).toEqual([true]);
    expect((await stationMessages(client))[0]?.title).toBe('其他登录会话已结束');
    // nothing more to end: nothing said
    expect((await client.delete<{ ended_sessions: number }>('/account/sessions', { query: { others: 'true' } })).data).toEqual({ ended_sessions: 0 });
    expect((await stationMessages(client))[0]?.title).toBe('其他登录会话已结束');
    expect((await stationMessages(client)).filter((m) => m.title === '其他登录会话已结束')).toHaveLength(1);

    const bare = await client.delete('/account/sessions');
    expect(bare.code).toBe(1001);
    expect((await client.get('/account/info')).code).toBe(0);
  });

  it('a session idle past the expiry is not ended again: 2116, and nothing is written or told', async () => {
    const who = await signUp(t);
    const client = t.api('localhost', who.token);
    await signIn(t, 'localhost', { phone: who.phone });
    const idle = (await client.data<AccountSession[]>('GET', '/account/sessions')).find((s) => !s.current) as AccountSession;
    const before = await stationMessages(client);
    // this session stays active, the other is left idle for 8 days (sessions expire after 7)
    clock.advance(4 * 24 * 3600_000);
    expect((await client.get('/account/info')).code).toBe(0);
    clock.advance(4 * 24 * 3600_000);
    expect((await client.data<AccountSession[]>('GET', '/account/sessions')).map((s) => s.current)).toEqual([true]);

    const refused = await client.delete(`/account/sessions/${idle.id}`);
    expect([refused.status, refused.code, refused.message]).toEqual([404, 2116, '该登录会话不存在或已结束']);
    expect(await queryRows(t.database.db, sql`select revoked_at, revoke_reason from sessions where id = ${idle.id}`)).toEqual([{ revoked_at: null, revoke_reason: null }]);
    expect(await stationMessages(client)).toEqual(before);
  });

  it("neither lists nor ends another account's sessions", async () => {
    const who = await signUp(t);
    const other = await signUp(t);
    const theirs = await t.api('localhost', other.token).data<AccountSession[]>('GET', '/account/sessions');
    const client = t.api('localhost', who.token);
    const mine = await client.data<AccountSession[]>('GET', '/account/sessions');
    expect(mine.map((s) => s.id)).not.toContain(theirs[0]?.id);
    const refused = await client.delete(`/account/sessions/${theirs[0]?.id}`);
    expect([refused.status, refused.code]).toEqual([404, 2116]);
    expect((await t.api('localhost', other.token).get('/account/info')).code).toBe(0);
    // ending all others ends none of theirs
    await client.delete('/account/sessions', { query: { others: 'true' } });
    expect((await t.api('localhost', other.token).get('/account/info')).code).toBe(0);
    const malformed = await client.delete('/account/sessions/not-a-uuid');
    expect([malformed.code, malformed.message]).toEqual([1001, '该登录会话不存在或已结束']);
  });
});

describe('trusted devices', () => {
  it('names the device from its browser and its address; revoking one tells the account and asks for the check again', async () => {
    const who = await signUp(t);
    const ip = '198.51.100.7';
    const first = await t.api().post<{ token: string }>('/account/login', phoneLogin(who.phone), { headers: { 'user-agent': SAFARI_IPHONE }, remoteAddress: ip });
    const verifying = t.api('localhost', first.data.token);
    await verifying.post('/account/send/code-auto', { send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_ACCESS' }, { remoteAddress: ip });
    const checked = await verifying.post<{ token: string }>(
      '/account/login/code/check',
      { captcha: await lastCode(t, phoneTo(who.phone)), thirty_day: true, send_type: 'SEND_TYPE_PHONE' },
      { headers: { 'user-agent': SAFARI_IPHONE }, remoteAddress: ip },
    );
    const cookie = String(checked.headers['set-cookie']).split(';')[0] as string;
    const client = t.api('localhost', checked.data.token);
    const [device] = await client.data<{ id: string; device: string; ip: string; current: boolean }[]>('GET', '/account/devices', { headers: { cookie } });
    expect(device).toMatchObject({ device: 'Safari 17.5 · iOS', ip, current: true });

    // another account cannot touch it
    const other = await signUp(t);
    expect((await t.api('localhost', other.token).delete(`/account/devices/${device?.id}`)).code).toBe(2019);
    const malformed = await client.delete('/account/devices/not-a-uuid');
    expect([malformed.status, malformed.code, malformed.message]).toEqual([400, 1001, '该设备不存在或已移除']);
    expect((await login(phoneLogin(who.phone), { headers: { cookie } })).data.check).toBe(false);

    expect((await client.delete(`/account/devices/${device?.id}`)).code).toBe(0);
    expect((await stationMessages(client))[0]).toMatchObject({
      title: '受信任设备已移除',
      content: `<p>您账户的一台受信任设备已于 ${beijingMinute()}（北京时间）移除，该设备下次登录时需重新完成安全验证。如非本人操作，请立即修改登录密码并联系客服。</p>`,
    });
    expect((await lastMessage(t, who.email)).subject).toBe('【蓝鲸卡】账户安全提醒：受信任设备已移除');
    expect((await login(phoneLogin(who.phone), { headers: { cookie } })).data.check).toBe(true);
  });
});

describe('GET /account/login-history', () => {
  it('records each kind of attempt of the account, newest first, and none of an unknown account', async () => {
    const who = await signUp(t);
    const step = () => clock.advance(1000);
    const wrong = await login(phoneLogin(who.phone, 'Wrong1234'), { ip: '192.0.2.1' });
    expect(wrong.code).toBe(2009);
    step();
    const pending = await t.api().post<{ token: string }>('/account/login', { email: who.email, password: PASSWORD }, { headers: { 'user-agent': CHROME_WINDOWS }, remoteAddress: '192.0.2.2' });
    step();
    const verifying = t.api('localhost', pending.data.token);
    expect((await verifying.post('/account/login/code/check', { captcha: '123456', thirty_day: false, send_type: 'SEND_TYPE_EMAIL' })).code).toBe(2018);
    step();
    await verifying.post('/account/send/code-auto', { send_type: 'SEND_TYPE_EMAIL', mark_type: 'MARK_TYPE_ACCESS' }, { remoteAddress: freshIp() });
    const code = await lastCode(t, who.email);
    expect((await verifying.post('/account/login/code/check', { captcha: code === '000000' ? '111111' : '000000', thirty_day: false, send_type: 'SEND_TYPE_EMAIL' })).code).toBe(2001);
    step();
    const checked = await verifying.post<{ token: string }>('/account/login/code/check', { captcha: code, thirty_day: false, send_type: 'SEND_TYPE_EMAIL' });
    expect(checked.code).toBe(0);
    step();
    // the right password of the e-mail sign-in cleared the first failure: five more lock
    for (let i = 0; i < 5; i++) await login(phoneLogin(who.phone, 'Wrong1234'));
    step();
    expect((await login(phoneLogin(who.phone))).code).toBe(2010);

    const before = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from login_attempts`);
    expect((await login(phoneLogin('13100000000'))).code).toBe(2009);
    expect((await login({ email: 'nobody@mail.example', password: PASSWORD })).code).toBe(2009);
    expect(await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from login_attempts`)).toEqual(before);

    const history = await t.api('localhost', checked.data.token).data<LoginAttempt[]>('GET', '/account/login-history');
    expect(history.map((a) => [a.method, a.result])).toEqual([
      ['PASSWORD_PHONE', 'LOCKED'],
      ['PASSWORD_PHONE', 'WRONG_PASSWORD'],
      ['PASSWORD_PHONE', 'WRONG_PASSWORD'],
      ['PASSWORD_PHONE', 'WRONG_PASSWORD'],
      ['PASSWORD_PHONE', 'WRONG_PASSWORD'],
      ['PASSWORD_PHONE', 'WRONG_PASSWORD'],
      ['VERIFY_EMAIL', 'SUCCESS'],
      ['VERIFY_EMAIL', 'WRONG_CODE'],
      ['VERIFY_EMAIL', 'CODE_EXPIRED'],
      ['PASSWORD_EMAIL', 'VERIFICATION_REQUIRED'],
      ['PASSWORD_PHONE', 'WRONG_PASSWORD'],
    ]);
    expect(history.at(-1)).toMatchObject({ ip: '192.0.2.1' });
    expect(history.at(-2)).toMatchObject({ ip: '192.0.2.2', device: 'Chrome 131 · Windows' });

    // the overview's last sign-in is the newest success
    expect((await t.api('localhost', checked.data.token).data<SecurityOverview>('GET', '/account/security')).last_sign_in?.at).toBe(history[6]?.at);

    // another account sees only its own
    const other = await signUp(t);
    expect(await t.api('localhost', other.token).data<LoginAttempt[]>('GET', '/account/login-history')).toEqual([]);
  });

  it('answers the newest 50 and keeps the newest 200 of an account', async () => {
    const who = await signUp(t);
    for (let i = 0; i < LOGIN_ATTEMPTS_KEPT + 10; i++) {
      clock.advance(1000);
      await login(phoneLogin(who.phone, 'Wrong1234'));
    }
    const kept = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from login_attempts where account_id = (select account_id from members where phone = ${who.phone})`,
    );
    expect(kept[0]?.n).toBe(LOGIN_ATTEMPTS_KEPT);
    const history = await t.api('localhost', who.token).data<LoginAttempt[]>('GET', '/account/login-history');
    expect(history).toHaveLength(50);
    expect(history[0]?.at).toBe(clock.now().toISOString());
    clock.advance(15 * 60_000);
  });
});
