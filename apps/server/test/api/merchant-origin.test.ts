import { ErrorCode } from '@portal/contract/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.ts';
import { listMerchantsWithHosts } from '../../src/modules/merchants/store.ts';
import { createTestApp, logCollector, type TestApp } from '../helpers/app.ts';
import { aliyunSmsEnv } from '../helpers/aliyun-sms.ts';
import { freshIp, lastMessage } from '../helpers/accounts.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { runOpsOn } from '../helpers/ops.ts';
import { mailText, startSmtpServer } from '../helpers/smtp.ts';

const clock = new ManualClock();
let database: TestDatabase;
/** a server reached directly */
let direct: TestApp;
/** a server behind a load balancer (TRUST_PROXY=true): it believes X-Forwarded-* */
let proxied: TestApp;

beforeAll(async () => {
  database = await createTestDatabase();
  direct = await createTestApp({ database, clock });
  proxied = await createTestApp({ database, clock, seed: false, env: { TRUST_PROXY: 'true' } });
});
afterAll(async () => {
  await proxied?.close();
  await direct?.close();
  await database?.close();
});

const BLUE = 'demo@bluewhale.example';
const ORANGE = 'demo@orangecard.example';

/** Asks for a reset link by e-mail and answers the link that was mailed. */
async function resetLink(app: TestApp, host: string, email: string, headers: Record<string, string> = {}) {
  // past the minute between two codes to the same address
  clock.advance(61_000);
  const sent = await app.api(host).post('/account/forget-password/code', { email, type: 'FORGET_PASSWORD' }, { remoteAddress: freshIp(), headers });
  expect(sent.code, sent.message).toBe(0);
  const link = /(\S+\/reset-password\?\S+)/.exec((await lastMessage(direct, email)).text)?.[1];
  expect(link).toBeTruthy();
  return new URL(link as string);
}

const ops = async (...argv: string[]) => {
  const run = await runOpsOn(database, argv);
  // every server drops its cached merchants at once (as the NOTIFY the command sends makes them do)
  direct.services.merchants.forget();
  proxied.services.merchants.forget();
  return run;
};

const snapshot = async () => JSON.stringify(await listMerchantsWithHosts(database.db));

describe('the origin of a mailed reset link', () => {
  it("is the merchant's, whatever the request's Host, X-Forwarded-Proto or X-Forwarded-Host say", async () => {
    // a merchant without an origin, outside production: its localhost name on the configured PORT (3000)
    const hostile: Array<[TestApp, Record<string, string>]> = [
      [direct, {}],
      [direct, { host: 'localhost:31337' }],
      [proxied, { 'x-forwarded-proto': 'https://evil.example/#' }],
      [proxied, { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' }],
      [proxied, { host: 'localhost:31337', 'x-forwarded-host': 'evil.example:443' }],
    ];
    for (const [app, headers] of hostile) {
      const link = await resetLink(app, 'localhost', BLUE, headers);
      expect(link.origin, JSON.stringify(headers)).toBe('http://localhost:3000');
      expect(link.pathname).toBe('/reset-password');
      expect(link.searchParams.get('email')).toBe(BLUE);
      expect(link.searchParams.get('code')).toMatch(/^\d{6}$/);
    }
    expect((await resetLink(proxied, 'orange.localhost', ORANGE, { 'x-forwarded-proto': 'https://evil.example/#' })).origin).toBe(
      'http://orange.localhost:3000',
    );
  });

  it('is set by merchant:set --origin, shown by merchant:list, and cleared by --origin ""', async () => {
    const set = await ops('merchant:set', '--host', 'localhost', '--add-host', 'portal.bluewhale.example', '--origin', 'HTTPS://Portal.BlueWhale.example:443/');
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain('origin');
    expect(set.stdout).toContain('"" → https://portal.bluewhale.example');

    const listed = await ops('merchant:list');
    expect(listed.stdout).toMatch(/^blue\s.*portal\.bluewhale\.example\s+https:\/\/portal\.bluewhale\.example$/m);
    const json = JSON.parse((await ops('merchant:list', '--json')).stdout) as Array<{ slug: string; origin: string }>;
    expect(json.find((m) => m.slug === 'blue')?.origin).toBe('https://portal.bluewhale.example');
    expect(json.find((m) => m.slug === 'orange')?.origin).toBe('');

    for (const [app, headers] of [
      [direct, { host: 'localhost:31337' }],
      [proxied, { 'x-forwarded-proto': 'https://evil.example/#', 'x-forwarded-host': 'evil.example' }],
    ] as const) {
      expect((await resetLink(app, 'localhost', BLUE, headers)).origin).toBe('https://portal.bluewhale.example');
    }

    // a port is kept; another of its hosts may be named
    expect((await ops('merchant:set', '--slug', 'blue', '--origin', 'http://blue.localhost:5173')).code).toBe(0);
    expect((await resetLink(direct, 'localhost', BLUE)).origin).toBe('http://blue.localhost:5173');

    const cleared = await ops('merchant:set', '--slug', 'blue', '--origin', '', '--remove-host', 'portal.bluewhale.example');
    expect(cleared.code, cleared.stderr).toBe(0);
    expect((await resetLink(direct, 'localhost', BLUE)).origin).toBe('http://localhost:3000');
  });

  it('refuses a bad origin with the reason, and changes nothing', async () => {
    const refusals: Array<[string, RegExp]> = [
      ['portal.bluewhale.example', /scheme:\/\/host\[:port\].*without a path, query or fragment/],
      ['https://localhost/reset-password', /without a path, query or fragment/],
      ['https://localhost?next=1', /without a path, query or fragment/],
      ['https://localhost#top', /without a path, query or fragment/],
      ['https://user:secret@localhost', /no user name or password/],
      ['https://evil.example@localhost', /no user name or password/],
      ['https://localhost\\@evil.example', /no user name or password/],
      ['https://local host', /does not name a valid host/],
      ['https://localhost:99999', /not a valid address/],
      ['javascript://localhost', /starts with https:\/\//],
      ['ftp://localhost', /starts with https:\/\//],
      ['http://shop.bluewhale.example', /http:\/\/ is only for names of this machine/],
      ['https://evil.example', /names evil\.example, which is not a host of merchant blue .*--add-host evil\.example/],
    ];
    for (const [origin, reason] of refusals) {
      const before = await snapshot();
      const run = await ops('merchant:set', '--host', 'localhost', '--name', '改名了', '--origin', origin);
      expect(run.code, `${origin}\n${run.stderr}`).toBe(1);
      expect(run.stderr).toMatch(/^error: --origin/m);
      expect(run.stderr, origin).toMatch(reason);
      expect(run.stderr).toContain('Nothing was changed.');
      expect(run.stdout).toBe('');
      expect(await snapshot()).toBe(before);
    }
    // nor may the host an origin names be taken away from under it
    expect((await ops('merchant:set', '--slug', 'orange', '--add-host', 'shop.orangecard.example', '--origin', 'https://shop.orangecard.example')).code).toBe(0);
    const before = await snapshot();
    const removed = await ops('merchant:set', '--slug', 'orange', '--remove-host', 'shop.orangecard.example');
    expect(removed.code).toBe(1);
    expect(removed.stderr).toMatch(/cannot remove shop\.orangecard\.example: the origin of merchant orange, https:\/\/shop\.orangecard\.example, names it/);
    expect(await snapshot()).toBe(before);
    expect((await ops('merchant:set', '--slug', 'orange', '--remove-host', 'shop.orangecard.example', '--origin', '')).code).toBe(0);
    // a new merchant's origin names one of the hosts it is created with
    const created = await runOpsOn(database, ['merchant:set', '--create', '--slug', 'acme', '--name', '极光卡', '--host', 'acme.localhost', '--origin', 'https://shop.acme.example']);
    expect(created.code).toBe(1);
    expect(created.stderr).toMatch(/not a host of merchant acme/);
  });

  it('is https only in production', async () => {
    const production = { NODE_ENV: 'production', SMTP_URL: 'smtp://127.0.0.1:1', CARD_DATA_KEY: 'dGVzdC1vbmx5LWNhcmQtZGF0YS1rZXktMzItYnl0ZXM=', ISSUER_WEBHOOK_SECRET: 'test-only-issuer-webhook-secret-of-32-chars', ISSUER_URL: 'https://issuer.example', CODE_HASH_KEY: 'k'.repeat(32), ...aliyunSmsEnv('http://127.0.0.1:1/', 's') };
    const before = await snapshot();
    const refused = await runOpsOn(database, ['merchant:set', '--host', 'localhost', '--origin', 'http://localhost:3000'], production);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/--origin: links go out over https:\/\/ in production/);
    expect(await snapshot()).toBe(before);
    const accepted = await runOpsOn(database, ['merchant:set', '--host', 'localhost', '--origin', 'https://localhost:8443'], production);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect((await ops('merchant:set', '--host', 'localhost', '--origin', '')).code).toBe(0);
  });
});

describe('a production server', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let production: TestApp;
  const log = logCollector();
  beforeAll(async () => {
    smtp = await startSmtpServer();
    production = await createTestApp({
      database,
      clock,
      seed: false,
      logStream: log.stream,
      env: {
        NODE_ENV: 'production',
        SMTP_URL: smtp.url,
        TRUST_PROXY: 'true',
        CARD_DATA_KEY: 'dGVzdC1vbmx5LWNhcmQtZGF0YS1rZXktMzItYnl0ZXM=',
        ISSUER_WEBHOOK_SECRET: 'test-only-issuer-webhook-secret-of-32-chars',
        ISSUER_URL: 'https://issuer.example',
        CODE_HASH_KEY: 'test-only-code-hash-key-of-32-characters',
        ...aliyunSmsEnv('http://127.0.0.1:1/', 'unused'),
      },
    });
  });
  afterAll(async () => {
    await production?.close();
    await smtp?.close();
  });

  it('mails no reset link for a merchant without an origin: a clear refusal, and the operator is told in the log', async () => {
    clock.advance(61_000);
    const sent = await production.api('purple.localhost').post('/account/forget-password/code', { email: 'demo@amethyst.example', type: 'FORGET_PASSWORD' }, { remoteAddress: freshIp() });
    expect(sent.code).toBe(ErrorCode.RESET_LINK_UNAVAILABLE);
    expect(sent.status).toBe(503);
    expect(sent.message).toBe('暂时无法发送重置邮件，请联系客服');
    expect(smtp.received.filter((mail) => mail.to.includes('demo@amethyst.example'))).toHaveLength(0);
    const line = log.records().find((record) => String(record.msg).includes('has no https origin'));
    expect(line).toMatchObject({ level: 50, merchant: 'purple' });
    expect(String(line?.msg)).toContain('merchant:set --slug purple --origin https://');
  });

  it("mails the link on the merchant's https origin, whatever the forwarded headers say", async () => {
    const set = await runOpsOn(database, ['merchant:set', '--slug', 'purple', '--add-host', 'portal.amethyst.example', '--origin', 'https://portal.amethyst.example']);
    expect(set.code, set.stderr).toBe(0);
    production.services.merchants.forget();
    clock.advance(61_000);
    const sent = await production
      .api('purple.localhost')
      .post(
        '/account/forget-password/code',
        { email: 'demo@amethyst.example', type: 'FORGET_TRX_PASSWORD' },
        { remoteAddress: freshIp(), headers: { 'x-forwarded-proto': 'https://evil.example/#', 'x-forwarded-host': 'evil.example' } },
      );
    expect(sent.code, sent.message).toBe(0);
    const text = mailText((await smtp.mailTo('demo@amethyst.example')).raw);
    const link = new URL(/(\S+\/reset-password\?\S+)/.exec(text)?.[1] as string);
    expect(link.origin).toBe('https://portal.amethyst.example');
    expect(link.searchParams.get('type')).toBe('FORGET_TRX_PASSWORD');
    expect(text).not.toContain('evil.example');
  });
});
