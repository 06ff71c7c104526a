import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { aliyunSmsEnv, startAliyunSms } from '../helpers/aliyun-sms.ts';
import { freshIp, freshPhone } from '../helpers/accounts.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { startSmtpServer } from '../helpers/smtp.ts';
import { queryRows } from '../helpers/sql.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const SECRET = 'test-access-key-secret';

/** Production's other settings, all present. */
const base = {
  NODE_ENV: 'production',
  SMTP_URL: 'smtp://127.0.0.1:1',
  CARD_DATA_KEY: 'dGVzdC1vbmx5LWNhcmQtZGF0YS1rZXktMzItYnl0ZXM=',
  ISSUER_WEBHOOK_SECRET: 'test-only-issuer-webhook-secret-of-32-chars',
  ISSUER_URL: 'https://issuer.example',
  CODE_HASH_KEY: 'test-only-code-hash-key-of-32-characters',
};
const aliyunComplete = aliyunSmsEnv('http://127.0.0.1:1/', SECRET);

/** Starts the server with this environment (by default with a data folder it cannot use) until it exits. */
async function startServer(env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: '0', HOST: '127.0.0.1', DATA_DIR: '/nonexistent/portal-data', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    // it started after all: not the refusal looked for
    if (stdout.includes('portal ready')) child.kill('SIGKILL');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  // nor one that never gets that far
  const stop = setTimeout(() => child.kill('SIGKILL'), 90_000);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearTimeout(stop);
  return { code, stdout, stderr, lines: stderr.trimEnd().split('\n') };
}

/** The configuration error loadConfig throws for this environment. */
function refusal(env: NodeJS.ProcessEnv) {
  try {
    loadConfig(env);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the configuration was accepted');
}

describe('production refuses the development providers', () => {
  it('names the SMS settings to give when SMS_PROVIDER is dev or not set', () => {
    for (const env of [base, { ...base, SMS_PROVIDER: 'dev' }]) {
      const message = refusal(env);
      expect(message).not.toContain('\n');
      expect(message).toMatch(/SMS_PROVIDER=dev/);
      expect(message).toContain(
        'set SMS_PROVIDER=aliyun with ALIYUN_SMS_ACCESS_KEY_ID, ALIYUN_SMS_ACCESS_KEY_SECRET, ALIYUN_SMS_SIGN_NAME, ALIYUN_SMS_TEMPLATE_REGISTER, ALIYUN_SMS_TEMPLATE_ACCESS, ALIYUN_SMS_TEMPLATE_RESET_PASSWORD, ALIYUN_SMS_TEMPLATE_INVITATION',
      );
    }
  });

  it('names the missing Aliyun settings, in production and out of it', () => {
    const partial = { ...aliyunComplete, ALIYUN_SMS_SIGN_NAME: '', ALIYUN_SMS_TEMPLATE_ACCESS: undefined };
    expect(refusal({ ...base, ...partial })).toBe('Invalid configuration: SMS_PROVIDER=aliyun needs ALIYUN_SMS_SIGN_NAME, ALIYUN_SMS_TEMPLATE_ACCESS');
    expect(refusal({ NODE_ENV: 'development', ...partial })).toBe('Invalid configuration: SMS_PROVIDER=aliyun needs ALIYUN_SMS_SIGN_NAME, ALIYUN_SMS_TEMPLATE_ACCESS');
  });

  it('sends the number and the code over https only (http to this machine alone, for tests)', () => {
    expect(refusal({ ...base, ...aliyunComplete, ALIYUN_SMS_ENDPOINT: 'http://192.0.2.1/' })).toMatch(/ALIYUN_SMS_ENDPOINT must be an https:\/\/ address/);
    expect(refusal({ ...base, ...aliyunComplete, ALIYUN_SMS_ENDPOINT: 'not a url' })).toMatch(/ALIYUN_SMS_ENDPOINT/);
    expect(loadConfig({ ...base, ...aliyunComplete, ALIYUN_SMS_ENDPOINT: 'https://192.0.2.1/' }).aliyunSms?.endpoint).toBe('https://192.0.2.1/');
  });

  it('asks for SMTP_URL for mail', () => {
    const { SMTP_URL: _, ...withoutSmtp } = base;
    expect(refusal({ ...withoutSmtp, ...aliyunComplete })).toBe('Invalid configuration: SMTP_URL is required in production');
  });

  it('asks for the issuer webhook secret, of 32 characters at least', () => {
    const { ISSUER_WEBHOOK_SECRET: _, ...withoutSecret } = base;
    expect(refusal({ ...withoutSecret, ...aliyunComplete })).toBe('Invalid configuration: ISSUER_WEBHOOK_SECRET is required in production');
    expect(refusal({ ...base, ...aliyunComplete, ISSUER_WEBHOOK_SECRET: 'short' })).toMatch(/ISSUER_WEBHOOK_SECRET must be at least 32 characters/);
  });

  it('takes a card data key of 32 bytes only, as base64 or hex', () => {
    for (const key of ['short', 'k'.repeat(32), Buffer.alloc(16, 1).toString('base64')]) {
      expect(refusal({ ...base, ...aliyunComplete, CARD_DATA_KEY: key })).toBe('Invalid configuration: CARD_DATA_KEY: CARD_DATA_KEY must be 32 bytes, base64 or 64 hex digits');
    }
    expect(loadConfig({ ...base, ...aliyunComplete, CARD_DATA_KEY: 'ab'.repeat(32) }).cardDataKey).toBe('ab'.repeat(32));
  });

  it('starts with Aliyun SMS and SMTP', () => {
    const config = loadConfig({ ...base, ...aliyunComplete });
    expect(config.smsProvider).toBe('aliyun');
    expect(config.aliyunSms).toMatchObject({ accessKeyId: 'test-access-key-id', signName: '蓝鲸卡', templates: { register: 'SMS_100000001' } });
  });

  it('the server exits 1 with one line naming the settings, before it opens any database', { timeout: 60_000 }, async () => {
    for (const [env, wanted] of [
      [base, /^Invalid configuration: .*set SMS_PROVIDER=aliyun with ALIYUN_SMS_ACCESS_KEY_ID/],
      [{ ...base, ...aliyunComplete, ALIYUN_SMS_TEMPLATE_REGISTER: '' }, /^Invalid configuration: SMS_PROVIDER=aliyun needs ALIYUN_SMS_TEMPLATE_REGISTER$/],
    ] as const) {
      const { code, stdout, lines, stderr } = await startServer(env);
      expect(code, stderr).toBe(1);
      expect(stdout).toBe('');
      expect(lines, stderr).toHaveLength(1);
      expect(lines[0]).toMatch(wanted);
    }
  });

  it('a malformed provider setting: one line naming it, exit 1, no stack', { timeout: 180_000 }, async () => {
    // each one through the process: SMTP_URL=garbage had got past the start's checks and crashed with a stack
    const cases = [
      [{ SMTP_URL: 'garbage' }, /^Invalid configuration: SMTP_URL: SMTP_URL must be an smtp:\/\/ or smtps:\/\/ address/],
      [{ MAIL_FROM: 'nobody' }, /^Invalid configuration: MAIL_FROM: MAIL_FROM must be an e-mail address/],
    ] as const;
    // and the others' message, in the process's own words
    for (const [setting, wanted] of [
      [{ SMTP_URL: 'http://mail.example' }, /^Invalid configuration: SMTP_URL: SMTP_URL must be/],
      [{ SMTP_URL: 'smtp://user:pa%ss@mail.example' }, /^Invalid configuration: SMTP_URL: SMTP_URL must be/],
      [{ DATABASE_URL: 'postgres://db.example:99999/portal' }, /^Invalid configuration: DATABASE_URL: DATABASE_URL must be a postgres:\/\/ URL$/],
    ] as const) {
      expect(refusal({ ...base, ...aliyunComplete, ...setting })).toMatch(wanted);
    }
    expect(loadConfig({ ...base, ...aliyunComplete, SMTP_URL: 'smtps://us%40er:p%25ss@mail.example:465', MAIL_FROM: '蓝鲸卡 <no-reply@bluewhale.example>' }).smtpUrl).toBe(
      'smtps://us%40er:p%25ss@mail.example:465',
    );
    // a data folder it could use: nothing but the setting stops it
    const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-config-'));
    // one after another: five servers starting at once on a small machine take longer than any guard
    const ended: Array<Awaited<ReturnType<typeof startServer>>> = [];
    for (const [index, [setting]] of cases.entries()) ended.push(await startServer({ ...base, ...aliyunComplete, DATA_DIR: path.join(dataDir, String(index)), ...setting }));
    rmSync(dataDir, { recursive: true, force: true });
    cases.forEach(([, wanted], index) => {
      const { code, stdout, lines, stderr } = ended[index] as (typeof ended)[number];
      expect(code, stderr).toBe(1);
      expect(stdout).toBe('');
      expect(lines, stderr).toHaveLength(1);
      expect(lines[0]).toMatch(wanted);
    });
    expect(refusal({ ...base, ...aliyunComplete, SMTP_URL: 'garbage' })).not.toContain('garbage');
  });
});

describe('a production server', () => {
  let database: TestDatabase;
  let aliyun: Awaited<ReturnType<typeof startAliyunSms>>;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let production: TestApp;
  beforeAll(async () => {
    database = await createTestDatabase();
    aliyun = await startAliyunSms({ accessKeyId: 'test-access-key-id', accessKeySecret: SECRET });
    smtp = await startSmtpServer();
    production = await createTestApp({ database, env: { ...base, ...aliyunSmsEnv(aliyun.endpoint, SECRET), SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await production?.close();
    await database?.close();
    await aliyun?.close();
    await smtp?.close();
  });

  it('is not built with a development provider, even from a configuration that names one', async () => {
    for (const forced of [{ smsProvider: 'dev' as const, aliyunSms: undefined }, { smtpUrl: undefined }]) {
      const config = { ...production.config, ...forced };
      await expect(buildApp({ config, database, logger: false })).rejects.toThrow(/^Invalid configuration: .*(SMS_PROVIDER=dev|SMTP_URL is required)/);
    }
  });

  it('sends codes by SMS and e-mail and never writes the development outbox', async () => {
    const phone = freshPhone();
    const sent = await production
      .api()
      .post('/account/send/code', { send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_REGISTER', phone_info: { phone, phone_prefix: '86' } }, { remoteAddress: freshIp() });
    expect(sent.code, sent.message).toBe(0);
    const registered = await production
      .api()
      .post<{ token: string }>('/account/register', { phone_prefix: '86', phone, password: 'Passw0rd1', captcha: aliyun.lastCodeTo(phone), invitation_code: null });
    expect(registered.code, registered.message).toBe(0);
    const email = `p${Date.now()}@mail.example`;
    const bind = await production
      .api(undefined, registered.data.token)
      .post('/account/send/code', { send_type: 'SEND_TYPE_EMAIL', mark_type: 'MARK_TYPE_BIND_EMAIL', email }, { remoteAddress: freshIp() });
    expect(bind.code, bind.message).toBe(0);
    await smtp.mailTo(email);
    const rows = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from dev_outbox`);
    expect(rows[0]?.n).toBe(0);
  });
});
