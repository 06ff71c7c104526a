import { asc, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAccount } from '../../src/demo-data.ts';
import { customerManagers, stationMessages, announcements } from '../../src/db/schema.ts';
import { signIn, signUp } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { runOpsOn } from '../helpers/ops.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { queryRows } from '../helpers/sql.ts';

let t: TestApp;
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
  t = await createTestApp({ database });
});
afterAll(async () => {
  await t?.close();
  await database?.close();
});

const ops = (...argv: string[]) => runOpsOn(database, argv);

async function snapshot() {
  const managers = await database.db.select().from(customerManagers).orderBy(asc(customerManagers.id));
  const messages = await database.db.select().from(stationMessages).orderBy(asc(stationMessages.id));
  const notices = await database.db.select().from(announcements).orderBy(asc(announcements.id));
  return JSON.stringify({ managers, messages, notices });
}

async function refused(argv: string[], code: number, message: RegExp) {
  const before = await snapshot();
  const run = await ops(...argv);
  expect(run.code, run.stdout).toBe(code);
  expect(run.stderr).toMatch(message);
  expect(await snapshot()).toBe(before);
}

describe('manager:create', () => {
  it('creates a manager whose code ties a sign-up to them, drawn or given', async () => {
    const given = await ops('manager:create', '--host', 'orange.localhost', '--name', '周经理', '--code', 'zq88');
    expect(given.code, given.stderr).toBe(0);
    expect(given.stdout).toContain('ZQ88');
    const drawn = await ops('manager:create', '--host', 'orange.localhost', '--name', '吴经理');
    expect(drawn.code).toBe(0);
    const code = /invitation code ([A-Z0-9]{4})/.exec(drawn.stdout)?.[1] as string;
    expect(code).toMatch(/^[A-Z0-9]{4}$/);
    const who = await signUp(t, 'orange.localhost', { invitation: code });
    const list = await ops('account:list', '--host', 'orange.localhost', '--json');
    const rows = JSON.parse(list.stdout) as { phone: string; manager: string | null }[];
    expect(rows.find((r) => r.phone === `+86 ${who.phone}`)?.manager).toBe(`吴经理 (${code})`);
  });

  it('refuses a duplicate or malformed code, an unknown host and a missing name, changing nothing', async () => {
    await refused(['manager:create', '--host', 'localhost', '--name', '重复', '--code', 'bl01'], 1, /already has the invitation code BL01/);
    await refused(['manager:create', '--host', 'localhost', '--name', '错', '--code', 'AB-1'], 1, /4 letters or digits/);
    await refused(['manager:create', '--host', 'nowhere.example', '--name', '无'], 1, /no merchant has the host/);
    await refused(['manager:create', '--host', 'localhost'], 2, /--name is required/);
  });
});

describe('account:list', () => {
  it("lists one merchant's accounts only", async () => {
    const blue = await signUp(t, 'localhost');
    const run = await ops('account:list', '--host', 'localhost');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(blue.phone);
    expect(run.stdout).toContain(blue.email);
    expect(run.stdout).toContain('王经理 (BL01)');
    const red = await ops('account:list', '--host', 'red.localhost');
    expect(red.stdout).not.toContain(blue.phone);
    expect(red.stdout).toContain(demoAccount.phone);
  });
});

describe('message:send and announcement:publish', () => {
  it('sends to the account found by phone or e-mail, and publishes to the merchant', async () => {
    const who = await signUp(t, 'purple.localhost');
    const { token } = await signIn(t, 'purple.localhost', { phone: who.phone });
    const byPhone = await ops('message:send', '--host', 'purple.localhost', '--account', who.phone, '--title', '电话找到', '--content', '<p>一</p>');
    expect(byPhone.code, byPhone.stderr).toBe(0);
    const byEmail = await ops('message:send', '--host', 'purple.localhost', '--account', who.email.toUpperCase(), '--title', '邮箱找到', '--content', '<p>二</p>', '--type', 'freeze', '--status', 'fail');
    expect(byEmail.code, byEmail.stderr).toBe(0);
    const published = await ops('announcement:publish', '--host', 'purple.localhost', '--title', '紫晶公告', '--content', '<p>三</p>');
    expect(published.code).toBe(0);
    const client = t.api('purple.localhost', token);
    const messages = await client.data<{ items: { title: string; type: string; status: string }[] }>('GET', '/msg-center/station-msg/list');
    expect(messages.items.map((m) => [m.title, m.type, m.status])).toEqual([
      ['邮箱找到', 'FREEZE', 'fail'],
      ['电话找到', 'NOTICE', 'success'],
    ]);
    const notices = await client.data<{ items: { title: string }[] }>('GET', '/msg-center/station-msg/list', { query: { kind: 'announcement' } });
    expect(notices.items.map((n) => n.title)).toContain('紫晶公告');
  });

  it('refuses bad input and changes nothing', async () => {
    await refused(['message:send', '--host', 'localhost', '--account', '13900000000', '--title', 'x', '--content', 'y'], 1, /no account with the phone 13900000000/);
    await refused(['message:send', '--host', 'localhost', '--account', 'not-a-thing', '--title', 'x', '--content', 'y'], 1, /neither a mainland phone number/);
    await refused(['message:send', '--host', 'localhost', '--account', demoAccount.phone, '--title', 'x', '--content', '  '], 2, /--content must not be empty/);
    await refused(['message:send', '--host', 'localhost', '--account', demoAccount.phone, '--title', 'x', '--content', 'y', '--status', 'maybe'], 2, /--status is success or fail/);
    await refused(['message:send', '--host', 'localhost', '--title', 'x', '--content', 'y'], 2, /--account is required/);
    await refused(['announcement:publish', '--host', 'nowhere.example', '--title', 'x', '--content', 'y'], 1, /no merchant has the host/);
    await refused(['announcement:publish', '--host', 'localhost', '--content', 'y'], 2, /--title is required/);
    // an account of another merchant is not found through this merchant's host
    const orange = await signUp(t, 'orange.localhost');
    await refused(['message:send', '--host', 'localhost', '--account', orange.email, '--title', 'x', '--content', 'y'], 1, /no account with the e-mail/);
    const rows = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from station_messages where title = 'x'`);
    expect(rows[0]?.n).toBe(0);
  });
});
