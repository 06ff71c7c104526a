import { ErrorCode } from '@portal/contract/errors';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, logCollector, type TestApp } from '../helpers/app.ts';
import { aliyunSmsEnv, startAliyunSms } from '../helpers/aliyun-sms.ts';
import { freshIp, freshPhone } from '../helpers/accounts.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { queryRows } from '../helpers/sql.ts';

const SECRET = 'test-access-key-secret';
let aliyun: Awaited<ReturnType<typeof startAliyunSms>>;
let database: TestDatabase;
let t: TestApp;
const log = logCollector();

beforeAll(async () => {
  aliyun = await startAliyunSms({ accessKeyId: 'test-access-key-id', accessKeySecret: SECRET });
  database = await createTestDatabase();
  t = await createTestApp({ database, env: aliyunSmsEnv(aliyun.endpoint, SECRET), logStream: log.stream });
});
afterAll(async () => {
  await t?.close();
  await database?.close();
  await aliyun?.close();
});

const sendSignUpCode = (app: TestApp, phone: string) =>
  app
    .api()
    .post('/account/send/code', { send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_REGISTER', phone_info: { phone, phone_prefix: '86' } }, { remoteAddress: freshIp() });

const register = (app: TestApp, phone: string, captcha: string) =>
  app.api().post('/account/register', { phone_prefix: '86', phone, password: 'Passw0rd1', captcha, invitation_code: null });

async function outboxRows() {
  return queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from dev_outbox`);
}

describe('SMS through Aliyun SMS (SendSms)', () => {
  it('sends a signed SendSms request with the template of each purpose and the code as {"code"}; the code it carries works', async () => {
    const phone = freshPhone();
    const sent = await sendSignUpCode(t, phone);
    expect(sent.code, sent.message).toBe(0);
    const request = aliyun.received.at(-1) as Record<string, string>;
    expect(request).toMatchObject({
      Action: 'SendSms',
      Version: '2017-05-25',
      Format: 'JSON',
      SignatureMethod: 'HMAC-SHA1',
      SignatureVersion: '1.0',
      AccessKeyId: 'test-access-key-id',
      PhoneNumbers: phone,
      SignName: '蓝鲸卡',
      TemplateCode: 'SMS_100000001',
    });
    expect(request.TemplateParam).toMatch(/^\{"code":"\d{6}"\}$/);
    expect(request.Timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(Math.abs(Date.parse(request.Timestamp as string) - Date.now())).toBeLessThan(60_000);
    expect(request.SignatureNonce).toMatch(/^[\w-]{16,}$/);
    expect(Object.keys(request).sort()).toEqual(
      ['AccessKeyId', 'Action', 'Format', 'PhoneNumbers', 'SignName', 'Signature', 'SignatureMethod', 'SignatureNonce', 'SignatureVersion', 'TemplateCode', 'TemplateParam', 'Timestamp', 'Version'].sort(),
    );

    const registered = await register(t, phone, aliyun.lastCodeTo(phone));
    expect(registered.code, registered.message).toBe(0);

    // the second verification and the password recovery use their own templates, each with a new nonce
    const login = await t.api().post<{ token: string }>('/account/login', { phone_info: { phone, phone_prefix: '86' }, password: 'Passw0rd1' });
    const access = await t.api(undefined, login.data.token).post('/account/send/code-auto', { send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_ACCESS' }, { remoteAddress: freshIp() });
    expect(access.code, access.message).toBe(0);
    expect(aliyun.received.at(-1)?.TemplateCode).toBe('SMS_100000002');
    const recovery = await t.api().post('/account/forget-password/code', { phone_info: { phone, phone_prefix: '86' }, type: 'FORGET_PASSWORD' }, { remoteAddress: freshIp() });
    expect(recovery.code, recovery.message).toBe(0);
    expect(aliyun.received.at(-1)?.TemplateCode).toBe('SMS_100000003');
    const checked = await t.api().post('/account/forget-password/check', { phone_info: { phone, phone_prefix: '86' }, captcha: aliyun.lastCodeTo(phone) });
    expect(checked.code, checked.message).toBe(0);
    const nonces = aliyun.received.slice(-3).map((params) => params.SignatureNonce);
    expect(new Set(nonces).size).toBe(3);

    // nothing went to the development outbox, and the log names the number masked only
    expect((await outboxRows())[0]?.n).toBe(0);
    const text = log.text();
    expect(text).toContain(`SMS sent to +86 ${phone.slice(0, 3)}****${phone.slice(-4)}`);
    expect(text).not.toContain(`"${phone}"`);
  });

  it('sends a team invitation in its own template, with who invited, the team, the role and the link; the link signs the invitee up', async () => {
    const phone = freshPhone();
    expect((await sendSignUpCode(t, phone)).code).toBe(0);
    const registered = await register(t, phone, aliyun.lastCodeTo(phone));
    expect(registered.code, registered.message).toBe(0);
    // a session past the second verification and the e-mail binding, as the team's calls ask
    const [me] = await queryRows<{ id: string; account_id: string; merchant_id: string }>(database.db, sql`select id, account_id, merchant_id from members where phone = ${phone}`);
    const full = await t.services.sessions.open(database.db, { merchantId: String(me?.merchant_id), accountId: String(me?.account_id), memberId: String(me?.id), stage: 'FULL', userAgent: 'test', ip: '127.0.0.1' });
    const owner = t.api(undefined, full.token);
    const invitee = freshPhone();
    const invited = await owner.post('/team/invitations', { phone_info: { phone: invitee, phone_prefix: '86' }, role: 'VIEWER' });
    expect(invited.code, invited.message).toBe(0);
    const request = aliyun.received.at(-1) as Record<string, string>;
    expect(request).toMatchObject({ PhoneNumbers: invitee, TemplateCode: 'SMS_100000004', SignName: '蓝鲸卡' });
    const variables = JSON.parse(String(request.TemplateParam)) as Record<string, string>;
    expect(Object.keys(variables).sort()).toEqual(['inviter', 'link', 'role', 'team']);
    expect(variables.inviter).toBe(`${phone.slice(0, 3)}****${phone.slice(-4)}（所有者）`);
    expect(variables.role).toBe('观察员');
    expect(variables.link).toMatch(/\/sign-up\?invitation=[\w-]+$/);
    const token = /invitation=([\w-]+)$/.exec(String(variables.link))?.[1];
    // the link is a credential: sending it writes it to no log line
    expect(log.text()).not.toContain(String(token));
    expect((await t.api().get(`/team/invitations/by-token/${token}`)).code).toBe(0);
  });

  it('takes a refusal (Code other than OK) as a failed delivery: 2021, the code withdrawn, logged without number or code', async () => {
    const phone = freshPhone();
    aliyun.refuse.add(phone);
    try {
      const sent = await sendSignUpCode(t, phone);
      expect(sent.code).toBe(ErrorCode.CODE_NOT_DELIVERED);
      expect(sent.status).toBe(502);
      expect(sent.message).toBe('验证码发送失败，请稍后重试');
      const code = aliyun.lastCodeTo(phone);
      // the code that was refused is not usable: there is none
      expect((await register(t, phone, code)).code).toBe(ErrorCode.CODE_NOT_SENT);
      const line = log.records().find((record) => String(record.msg).includes('isv.BUSINESS_LIMIT_CONTROL'));
      expect(line).toMatchObject({ level: 40, channel: 'sms', provider: 'aliyun', providerCode: 'isv.BUSINESS_LIMIT_CONTROL' });
      expect(String(line?.msg)).toContain(`SMS to +86 ${phone.slice(0, 3)}****${phone.slice(-4)} not delivered`);
      expect(log.text()).not.toContain(phone);
      expect(log.text()).not.toMatch(new RegExp(`(?<!\\d)${code}(?!\\d)`));
    } finally {
      aliyun.refuse.delete(phone);
    }
    // withdrawn, so it holds back no new code: the next one goes out at once and works
    const again = await sendSignUpCode(t, phone);
    expect(again.code, again.message).toBe(0);
    expect((await register(t, phone, aliyun.lastCodeTo(phone))).code).toBe(0);
  });

  it('refuses a request signed with the wrong secret (the service says SignatureDoesNotMatch): no usable code, nothing secret in the log', async () => {
    const wrongLog = logCollector();
    const wrong = await createTestApp({ database, seed: false, env: aliyunSmsEnv(aliyun.endpoint, 'not-the-secret'), logStream: wrongLog.stream });
    try {
      const phone = freshPhone();
      const sent = await sendSignUpCode(wrong, phone);
      expect(sent.code).toBe(ErrorCode.CODE_NOT_DELIVERED);
      const code = aliyun.lastCodeTo(phone);
      expect((await register(wrong, phone, code)).code).toBe(ErrorCode.CODE_NOT_SENT);
      const text = wrongLog.text();
      expect(text).toContain('SignatureDoesNotMatch');
      // the service quoted its string to sign, with the number and the code: neither reaches the log, nor the secret
      expect(text).not.toContain(phone);
      expect(text).not.toMatch(new RegExp(`(?<!\\d)${code}(?!\\d)`));
      expect(text).not.toContain('not-the-secret');
    } finally {
      await wrong.close();
    }
  });

  it('takes no answer (nothing listens at the endpoint) as a failed delivery too', async () => {
    const closed = await startAliyunSms({ accessKeyId: 'x', accessKeySecret: 'y' });
    await closed.close();
    const silentLog = logCollector();
    const silent = await createTestApp({ database, seed: false, env: aliyunSmsEnv(closed.endpoint, SECRET), logStream: silentLog.stream });
    try {
      const phone = freshPhone();
      const sent = await sendSignUpCode(silent, phone);
      expect(sent.code).toBe(ErrorCode.CODE_NOT_DELIVERED);
      expect(silentLog.text()).toContain('no answer from the SMS service');
      expect(silentLog.text()).not.toContain(phone);
      // withdrawn: a new code may be asked for at once
      const again = await sendSignUpCode(silent, phone);
      expect(again.code).toBe(ErrorCode.CODE_NOT_DELIVERED);
    } finally {
      await silent.close();
    }
  });
});
