import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Merchant } from '@portal/contract/merchant';
import { ErrorCode } from '@portal/contract/errors';
import { asc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedDatabaseFolder, ownerFilePath } from '../../src/db/embedded-owner.ts';
import { openDatabase } from '../../src/db/engine.ts';
import { agreements } from '../../src/db/schema.ts';
import { listMerchantsWithHosts } from '../../src/modules/merchants/store.ts';
import { runOps } from '../../src/ops/cli.ts';
import { commands } from '../../src/ops/registry.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { expectOpsRefused, type OpsRun, runOpsOn } from '../helpers/ops.ts';
import { createTestDatabase, type TestDatabase, testEngine } from '../helpers/database.ts';

const engine = testEngine();
const repoRoot = path.resolve(import.meta.dirname, '../../../..');

let t: TestApp;
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
  // an app on the same database, as a running server would be, to see what customers see
  t = await createTestApp({ database });
});
afterAll(async () => {
  await t?.close();
  await database?.close();
});


const ops = (...argv: string[]) => runOpsOn(database, argv);

/** Everything the commands could change. */
async function snapshot() {
  const merchants = await listMerchantsWithHosts(database.db);
  const agreementRows = await database.db.select().from(agreements).orderBy(asc(agreements.id));
  return JSON.stringify({ merchants, agreementRows });
}

/** Runs a command that must be refused with this exit code and message, and checks it changed nothing. */
const expectRefused = (argv: string[], code: 1 | 2, message: RegExp) => expectOpsRefused(database, snapshot, argv, code, message);

async function merchantAt(host: string) {
  return t.api(host).get<Merchant>('/merchant');
}

/** What GET /merchant answers now; PostgreSQL delivers the NOTIFY a moment later, well inside the 5 s cache. */
async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, ms = 1_500): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const thisYear = String(new Date().getFullYear());

describe('ops --help', () => {
  it('lists every command with its summary and exits 0', async () => {
    const run = await ops('--help');
    expect(run.code).toBe(0);
    for (const command of commands) {
      expect(run.stdout).toContain(command.name);
      expect(run.stdout).toContain(command.summary);
    }
  });

  it('shows the list on stderr and exits 2 when no command is given', async () => {
    const run = await ops();
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('merchant:set');
  });

  it('shows every flag of every command with <command> --help', async () => {
    for (const command of commands) {
      const run = await ops(command.name, '--help');
      expect(run.code).toBe(0);
      for (const flag of Object.keys(command.flags)) expect(run.stdout).toContain(`--${flag}`);
    }
  });

  it('refuses an unknown command, naming the near ones', async () => {
    const run = await ops('merchant:delete');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unknown command "merchant:delete".*merchant:list or merchant:set/);
  });
});

describe('merchant:list', () => {
  it('lists the demo merchants: slug, name, theme, website, hosts, icp, version', async () => {
    const run = await ops('merchant:list');
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toMatch(/^SLUG\s+NAME\s+THEME\s+WEBSITE\s+ICP\s+VERSION\s+HOSTS\s+ORIGIN$/);
    const blue = lines.find((line) => line.startsWith('blue '));
    expect(blue).toMatch(/^blue\s+蓝鲸卡\s+blue\s+\S+\s+沪ICP备2021018801号-1\s+2021\s+127\.0\.0\.1, blue\.localhost, localhost\s+-$/);
    expect(run.stdout).toMatch(/^orange\s+橙意卡\s+orange\s+orangecard\.example\s+粤ICP备2023045502号-2\s+2023\s+orange\.localhost\s+-$/m);
    expect(run.stdout).toMatch(/5 merchants$/);
  });

  it('prints JSON with --json', async () => {
    const run = await ops('merchant:list', '--json');
    expect(run.code).toBe(0);
    const list = JSON.parse(run.stdout) as Array<Record<string, unknown>>;
    expect(list.map((m) => m.slug)).toEqual(expect.arrayContaining(['blue', 'orange', 'purple', 'red', 'yellow']));
    expect(list.find((m) => m.slug === 'purple')).toMatchObject({
      name: '紫晶卡',
      color: 'MERCHANT_COLOR_PURPLE',
      website: 'amethyst.example',
      hosts: ['purple.localhost'],
      icp: '浙ICP备2019072203号-1',
      version: '2019',
    });
  });

  it('refuses flags it does not have', async () => {
    await expectRefused(['merchant:list', '--host', 'localhost'], 2, /unknown flag --host/);
    await expectRefused(['merchant:list', 'everything'], 2, /unexpected argument 'everything'/);
  });
});

describe('merchant:set', () => {
  it('changes the branding of the merchant that owns a host, and the portal shows it at once', async () => {
    // fills the server's merchant cache
    expect((await merchantAt('red.localhost')).data.website).toBe('redflame.example');

    const run = await ops('merchant:set', '--host', 'red.localhost', '--website', 'newsite.example', '--color', 'yellow');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Updated merchant red (赤焰卡)');
    expect(run.stdout).toMatch(/website\s+redflame\.example → newsite\.example/);
    expect(run.stdout).toMatch(/color\s+red → yellow/);

    const after = await eventually(
      () => merchantAt('red.localhost'),
      (answer) => answer.data.website === 'newsite.example',
    );
    expect(after.data).toMatchObject({ website: 'newsite.example', color: 'MERCHANT_COLOR_YELLOW', name: '赤焰卡' });
  });

  it('sets every branding field of a merchant chosen by slug', async () => {
    const run = await ops(
      'merchant:set',
      '--slug',
      'purple',
      '--name',
      ' 紫晶卡Pro ',
      '--color',
      'MERCHANT_COLOR_ORANGE',
      '--website',
      'https://amethyst.example',
      '--favicon',
      '/brand/purple/favicon-2.svg',
      '--dark-logo',
      'https://cdn.amethyst.example/dark.svg',
      '--light-logo',
      '',
      '--icp',
      '浙ICP备2019072203号-9',
      '--version',
      '2019-2026',
      '--support-email',
      'help@amethyst.example',
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/light-logo\s+\/brand\/purple\/logo-light\.svg → ""/);
    const answer = await eventually(
      () => merchantAt('purple.localhost'),
      (a) => a.data.name === '紫晶卡Pro',
    );
    expect(answer.data).toMatchObject({
      name: '紫晶卡Pro',
      color: 'MERCHANT_COLOR_ORANGE',
      website: 'https://amethyst.example',
      favicon: '/brand/purple/favicon-2.svg',
      dark_logo: 'https://cdn.amethyst.example/dark.svg',
      light_logo: '',
      icp: '浙ICP备2019072203号-9',
      version: '2019-2026',
      support_email: 'help@amethyst.example',
    });
  });

  it('takes a colour by theme name in any case', async () => {
    for (const [given, stored] of [
      ['Red', 'MERCHANT_COLOR_RED'],
      ['merchant_color_blue', 'MERCHANT_COLOR_BLUE'],
      ['purple', 'MERCHANT_COLOR_PURPLE'],
    ] as const) {
      const run = await ops('merchant:set', '--slug', 'yellow', '--color', given);
      expect(run.code, run.stderr).toBe(0);
      const answer = await eventually(
        () => merchantAt('yellow.localhost'),
        (a) => a.data.color === stored,
      );
      expect(answer.data.color).toBe(stored);
    }
  });

  it('refuses bad values and changes nothing, not even the valid ones given with them', async () => {
    await expectRefused(['merchant:set', '--host', 'localhost', '--website', 'x.example', '--color', 'pink'], 1, /unknown colour "pink".*blue, orange, purple, red, yellow/);
    await expectRefused(['merchant:set', '--host', 'localhost', '--version', '21'], 1, /--version must be a year \(2021\) or a range/);
    await expectRefused(['merchant:set', '--host', 'localhost', '--version', '2026-2020'], 1, /runs backwards/);
    await expectRefused(['merchant:set', '--host', 'localhost', '--version', 'soon'], 1, /--version must be a year/);
    await expectRefused(['merchant:set', '--host', 'localhost', '--name', '   '], 1, /--name must not be empty/);
    await expectRefused(['merchant:set', '--host', 'localhost', '--name', '蓝鲸\n卡'], 1, /--name must be one line of text/);
    await expectRefused(['merchant:set', '--host', 'localhost', '--website', 'my site'], 1, /--website must not contain spaces/);
    await expectRefused(['merchant:set', '--host', 'localhost', '--favicon', 'http://insecure.example/f.ico'], 1, /--favicon must be a path on this site/);
    await expectRefused(['merchant:set', '--host', 'localhost', '--support-email', 'nobody'], 1, /--support-email must be an e-mail address/);
  });

  it('refuses an unknown host or slug', async () => {
    await expectRefused(['merchant:set', '--host', 'nobody.example', '--website', 'x.example'], 1, /no merchant has the host nobody\.example/);
    await expectRefused(['merchant:set', '--slug', 'nobody', '--website', 'x.example'], 1, /no merchant has the slug nobody/);
    await expectRefused(['merchant:set', '--host', 'http://localhost/', '--website', 'x.example'], 1, /host name such as/);
    await expectRefused(['merchant:set', '--host', 'localhost:3000', '--website', 'x.example'], 1, /without a port/);
  });

  it('refuses a wrong command line: unknown flag, missing value, repeated flag, no merchant chosen, nothing to change', async () => {
    await expectRefused(['merchant:set', '--host', 'localhost', '--colour', 'red'], 2, /unknown flag --colour/);
    await expectRefused(['merchant:set', '--host', 'localhost', '--website'], 2, /--website needs a value/);
    await expectRefused(['merchant:set', '--host', 'localhost', '--name', '--color', 'red'], 2, /--name needs a value/);
    await expectRefused(['merchant:set', '--host', 'localhost', '--name', 'A', '--name', 'B'], 2, /--name is given 2 times/);
    await expectRefused(['merchant:set', '--create=yes', '--host', 'localhost'], 2, /--create takes no value/);
    await expectRefused(['merchant:set', '--website', 'x.example'], 2, /choose the merchant with --host HOST or --slug SLUG/);
    await expectRefused(['merchant:set', '--host', 'localhost', '--slug', 'blue', '--website', 'x.example'], 2, /not both/);
    await expectRefused(['merchant:set', '--host', 'localhost'], 2, /nothing to change/);
  });

  it('adds and removes hosts, and the portal follows', async () => {
    const added = await ops('merchant:set', '--slug', 'orange', '--add-host', 'Shop.Orange.Example.', '--add-host', 'cards.orange.example');
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/added\s+shop\.orange\.example, cards\.orange\.example/);
    expect(added.stdout).toMatch(/hosts\s+cards\.orange\.example, orange\.localhost, shop\.orange\.example/);
    expect((await merchantAt('shop.orange.example')).data.name).toBe('橙意卡');

    const removed = await ops('merchant:set', '--host', 'shop.orange.example', '--remove-host', 'orange.localhost');
    expect(removed.code, removed.stderr).toBe(0);
    const gone = await eventually(
      () => merchantAt('orange.localhost'),
      (answer) => answer.code === ErrorCode.MERCHANT_UNKNOWN,
    );
    expect(gone.code).toBe(ErrorCode.MERCHANT_UNKNOWN);
    expect((await merchantAt('cards.orange.example')).data.name).toBe('橙意卡');
  });

  it("never removes a merchant's last host, but replaces it in one command", async () => {
    const made = await ops('merchant:set', '--create', '--slug', 'solo', '--name', '独角卡', '--host', 'solo.example');
    expect(made.code, made.stderr).toBe(0);
    await expectRefused(
      ['merchant:set', '--slug', 'solo', '--website', 'changed.example', '--remove-host', 'solo.example'],
      1,
      /merchant solo would have no host left/,
    );
    const replaced = await ops('merchant:set', '--slug', 'solo', '--add-host', 'solo2.example', '--remove-host', 'solo.example');
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(replaced.stdout).toMatch(/hosts\s+solo2\.example$/m);
  });

  it('keeps a host with one merchant only', async () => {
    await expectRefused(
      ['merchant:set', '--slug', 'blue', '--website', 'x.example', '--add-host', 'yellow.localhost'],
      1,
      /yellow\.localhost already belongs to merchant yellow \(金穗卡\)/,
    );
    await expectRefused(['merchant:set', '--slug', 'blue', '--add-host', 'blue.localhost'], 1, /already a host of merchant blue/);
    await expectRefused(['merchant:set', '--slug', 'blue', '--remove-host', 'yellow.localhost'], 1, /yellow\.localhost is not a host of merchant blue/);
    await expectRefused(['merchant:set', '--slug', 'blue', '--add-host', 'a.example', '--remove-host', 'a.example'], 2, /both --add-host and --remove-host/);
    await expectRefused(['merchant:set', '--slug', 'blue', '--add-host', 'a.example', '--add-host', 'A.example'], 2, /given twice/);
  });

  it('lets only one of two simultaneous removals take the last but one host', async () => {
    const made = await ops('merchant:set', '--create', '--slug', 'duo', '--name', '双子卡', '--host', 'one.duo.example', '--add-host', 'two.duo.example');
    expect(made.code, made.stderr).toBe(0);
    const runs = await Promise.all([
      ops('merchant:set', '--slug', 'duo', '--remove-host', 'one.duo.example'),
      ops('merchant:set', '--slug', 'duo', '--remove-host', 'two.duo.example'),
    ]);
    expect(runs.map((run) => run.code).sort()).toEqual([0, 1]);
    expect(runs.find((run) => run.code === 1)?.stderr).toMatch(/would have no host left/);
    const duo = (await listMerchantsWithHosts(database.db)).find((m) => m.slug === 'duo');
    expect(duo?.hosts).toHaveLength(1);
  });

  describe('--create', () => {
    it('creates a merchant reachable on its host, with defaults for what is not given', async () => {
      const run = await ops('merchant:set', '--create', '--slug', 'acme', '--name', '极光卡', '--host', 'acme.localhost', '--color', 'purple');
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('Created merchant acme (极光卡)');
      const answer = await merchantAt('acme.localhost');
      expect(answer.code).toBe(0);
      expect(answer.data).toMatchObject({
        name: '极光卡',
        color: 'MERCHANT_COLOR_PURPLE',
        website: 'acme.localhost',
        version: thisYear,
        icp: '',
        favicon: '',
      });
      const listed = await ops('merchant:list');
      expect(listed.stdout).toMatch(/^acme\s+极光卡\s+purple\s+acme\.localhost\s+-\s+\d{4}\s+acme\.localhost\s+-$/m);
    });

    it('refuses a taken slug or host, a bad slug, and a missing name', async () => {
      await expectRefused(['merchant:set', '--create', '--slug', 'blue', '--name', 'X', '--host', 'new.example'], 1, /slug blue exists already/);
      await expectRefused(['merchant:set', '--create', '--slug', 'fresh', '--name', 'X', '--host', 'localhost'], 1, /localhost already belongs to merchant blue/);
      await expectRefused(['merchant:set', '--create', '--slug', 'Bad Slug', '--name', 'X', '--host', 'new.example'], 1, /--slug must be/);
      await expectRefused(['merchant:set', '--create', '--slug', 'fresh', '--host', 'new.example'], 2, /needs --slug, --name and --host; missing --name/);
      await expectRefused(
        ['merchant:set', '--create', '--slug', 'fresh', '--name', 'X', '--host', 'new.example', '--remove-host', 'localhost'],
        2,
        /--remove-host does not go with --create/,
      );
    });
  });
});

describe('agreement:publish', () => {
  async function titles(host: string) {
    return (await t.api(host).data<Array<{ id: string; title: string }>>('GET', '/merchant/user-agreement/title')) ?? [];
  }

  it('publishes text given inline; it is listed first and readable by its id', async () => {
    const run = await ops('agreement:publish', '--host', 'blue.localhost', '--title', '蓝鲸卡用户服务协议（2026版）', '--text', '<h2>协议</h2><p>第一条</p>');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Published agreement "蓝鲸卡用户服务协议（2026版）" for merchant blue');
    const [first] = await titles('localhost');
    expect(first?.title).toBe('蓝鲸卡用户服务协议（2026版）');
    expect(run.stdout).toContain(first?.id);
    const agreement = await t.api('localhost').data<{ title: string; text: string }>('GET', `/merchant/user-agreement/${first?.id}`);
    expect(agreement.text).toBe('<h2>协议</h2><p>第一条</p>');
  });

  it('publishes a UTF-8 file; of two published one after the other the later is first', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'ops-agreement-'));
    try {
      const file = path.join(folder, 'agreement.html');
      await writeFile(file, '\uFEFF<p>红色条款</p>\n', 'utf8');
      const one = await ops('agreement:publish', '--host', 'red.localhost', '--title', '第一版', '--file', file);
      const two = await ops('agreement:publish', '--host', 'red.localhost', '--title', '第二版', '--text', '<p>二</p>');
      expect([one.code, two.code]).toEqual([0, 0]);
      const list = await titles('red.localhost');
      expect(list.slice(0, 2).map((a) => a.title)).toEqual(['第二版', '第一版']);
      const firstVersion = await t.api('red.localhost').data<{ text: string }>('GET', `/merchant/user-agreement/${list[1]?.id}`);
      expect(firstVersion.text).toBe('<p>红色条款</p>\n');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('refuses bad input and publishes nothing', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'ops-agreement-'));
    try {
      const empty = path.join(folder, 'empty.html');
      await writeFile(empty, '  \n');
      const latin1 = path.join(folder, 'latin1.html');
      await writeFile(latin1, Buffer.from([0x3c, 0x70, 0x3e, 0xe9, 0xff, 0x3c]));
      await expectRefused(['agreement:publish', '--host', 'nobody.example', '--title', 'T', '--text', '<p>x</p>'], 1, /no merchant has the host nobody\.example/);
      await expectRefused(['agreement:publish', '--host', 'localhost', '--title', '  ', '--text', '<p>x</p>'], 1, /--title must not be empty/);
      await expectRefused(['agreement:publish', '--host', 'localhost', '--title', 'T', '--text', '   '], 1, /agreement text is empty/);
      await expectRefused(['agreement:publish', '--host', 'localhost', '--title', 'T', '--file', empty], 1, /is empty/);
      await expectRefused(['agreement:publish', '--host', 'localhost', '--title', 'T', '--file', latin1], 1, /is not UTF-8 text/);
      await expectRefused(['agreement:publish', '--host', 'localhost', '--title', 'T', '--file', path.join(folder, 'missing.html')], 1, /no such file/);
      await expectRefused(['agreement:publish', '--host', 'localhost', '--title', 'T', '--file', folder], 1, /is not a file/);
      await expectRefused(['agreement:publish', '--host', 'localhost', '--title', 'T'], 2, /--file PATH or with --text HTML/);
      await expectRefused(['agreement:publish', '--host', 'localhost', '--title', 'T', '--text', 'a', '--file', empty], 2, /one of the two/);
      await expectRefused(['agreement:publish', '--host', 'localhost', '--text', '<p>x</p>'], 2, /--title is required/);
      await expectRefused(['agreement:publish', '--title', 'T', '--text', '<p>x</p>'], 2, /--host is required/);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});

describe('ops where DATA_DIR holds no database', () => {
  /** `npm run ops -- ...argv` with this environment, reaching the database the way the real command does. */
  async function opsWithEnv(env: NodeJS.ProcessEnv, argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runOps(argv, { env, out: (text) => out.push(text), err: (text) => err.push(text) });
    return { code, stdout: out.join('\n'), stderr: err.join('\n') };
  }

  it('creates none: exits 1 saying where it looked and how to point it at the server', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'ops-no-database-'));
    try {
      const run = await opsWithEnv({ DATA_DIR: dataDir }, ['merchant:set', '--host', 'localhost', '--name', 'X']);
      expect(run.code, run.stderr).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(`没有找到数据库：${dataDir} 里没有门户的嵌入式数据库`);
      expect(run.stderr).toContain('请把 DATA_DIR 设为运行中服务器的数据目录');
      expect(run.stderr).toContain('DATABASE_URL');
      expect(run.stderr).not.toMatch(/no merchant has the host/);
      expect(await readdir(dataDir)).toEqual([]);

      // a relative DATA_DIR is named by its absolute path, and a folder that is not there is not made
      const relative = path.relative(process.cwd(), path.join(dataDir, 'absent'));
      const absent = await opsWithEnv({ DATA_DIR: relative }, ['merchant:list']);
      expect(absent.code).toBe(1);
      expect(absent.stderr).toContain(`没有找到数据库：${path.join(dataDir, 'absent')} 里`);
      expect(await readdir(dataDir)).toEqual([]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

// ---- the real command line, in its own process ----

interface Spawned extends OpsRun {
  ms: number;
}

function runCli(argv: string[], env: NodeJS.ProcessEnv): Promise<Spawned> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/ops/main.ts', ...argv], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr, ms: Date.now() - started }));
  });
}

/** Where a spawned process finds a fresh, empty database of this run's engine. */
async function freshDatabaseEnv() {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'ops-cli-data-'));
  const fresh = engine === 'postgres' ? await createTestDatabase({ migrate: false }) : undefined;
  return {
    dataDir,
    env: { DATA_DIR: dataDir, ...(fresh ? { DATABASE_URL: fresh.location } : {}) },
    async close() {
      await fresh?.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

describe(`the ops command line as a process (${engine === 'postgres' ? 'DATABASE_URL' : 'DATA_DIR, no server'})`, () => {
  it('migrates an empty database, prints what it did and exits 0, 1 or 2', { timeout: 120_000 }, async () => {
    const place = await freshDatabaseEnv();
    try {
      if (engine === 'pglite') {
        // the server's first start creates the embedded database; the command line never does
        const created = await openDatabase({ dataDir: embeddedDatabaseFolder(place.dataDir) });
        await created.close();
      }
      const empty = await runCli(['merchant:list'], place.env);
      expect(empty.code, empty.stderr).toBe(0);
      expect(empty.stdout).toMatch(/^No merchants yet/);

      const created = await runCli(
        ['merchant:set', '--create', '--slug', 'cli', '--name', '命令卡', '--host', 'cli.localhost', '--color', 'red', '--version', '2024'],
        place.env,
      );
      expect(created.code, created.stderr).toBe(0);
      expect(created.stdout).toContain('Created merchant cli (命令卡)');

      const listed = await runCli(['merchant:list'], place.env);
      expect(listed.code).toBe(0);
      expect(listed.stdout).toMatch(/^cli\s+命令卡\s+red\s+cli\.localhost\s+-\s+2024\s+cli\.localhost\s+-$/m);

      const unknown = await runCli(['merchant:set', '--host', 'nobody.example', '--name', 'X'], place.env);
      expect(unknown.code).toBe(1);
      expect(unknown.stdout).toBe('');
      expect(unknown.stderr).toMatch(/error: no merchant has the host nobody\.example/);

      const usage = await runCli(['merchant:set', '--host', 'cli.localhost', '--bogus'], place.env);
      expect(usage.code).toBe(2);
      expect(usage.stderr).toMatch(/unknown flag --bogus/);

      const help = await runCli(['--help'], place.env);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('agreement:publish');

      // the command gave the embedded database up when it finished
      expect(existsSync(ownerFilePath(place.dataDir))).toBe(false);
    } finally {
      await place.close();
    }
  });
});

// ---- the real server and the command line side by side ----

interface ServerProcess {
  child: ChildProcess;
  port: number;
  output: () => string;
  stop(): Promise<number | null>;
}

async function startServer(env: NodeJS.ProcessEnv): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: repoRoot,
    // any free port for the simulated issuer too: test files start servers side by side
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: '0', HOST: '127.0.0.1', ISSUER_SIM_PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 60_000);
    const look = () => {
      const match = /portal ready on http:\/\/localhost:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout?.on('data', look);
    void exited.then((code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  return {
    child,
    port,
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** GET on the running server for a merchant host (fetch would send the URL's host instead). */
function getJson<T>(port: number, host: string, route: string): Promise<{ code: number; data: T }> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path: `/api/v1${route}`, headers: { host } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => {
        body += chunk;
      });
      response.on('end', () => {
        try {
          resolve(JSON.parse(body) as { code: number; data: T });
        } catch (error) {
          reject(error);
        }
      });
    });
    request.on('error', reject);
  });
}

describe(`ops while the server runs (${engine === 'postgres' ? 'both on PostgreSQL' : 'server on PGlite in DATA_DIR'})`, () => {
  it('changes what the running server shows, at once', { timeout: 180_000 }, async () => {
    const place = await freshDatabaseEnv();
    // the server keeps a merchant 10 minutes here, far longer than any command takes on a busy machine:
    // a change that shows at once was then dropped by the NOTIFY, not aged out of the cache
    const cacheSeconds = 600;
    const server = await startServer({ ...place.env, MERCHANT_CACHE_SECONDS: String(cacheSeconds) });
    try {
      // proven only when the answer was cached less than cacheSeconds before it is read again (else repeated)
      let website = '';
      let proven = false;
      for (let attempt = 1; attempt <= 3 && !proven; attempt++) {
        const previous = website || 'bluewhale.example';
        website = attempt === 1 ? 'newsite.example' : `newsite-${attempt}.example`;
        const cachedAt = Date.now();
        expect((await getJson<Merchant>(server.port, 'localhost', '/merchant')).data.website).toBe(previous);

        const run = await runCli(['merchant:set', '--host', 'localhost', '--website', website], place.env);
        expect(run.code, `${run.stderr}\n${server.output()}`).toBe(0);
        expect(run.stdout).toContain(`website  ${previous} → ${website}`);
        if (engine === 'pglite') expect(run.stderr).toContain('the embedded database of the running server');

        // PostgreSQL hands the notification to the server a moment after the command has ended
        let shown = await getJson<Merchant>(server.port, 'localhost', '/merchant');
        for (const waitUntil = Date.now() + 300; shown.data.website !== website && Date.now() < waitUntil; ) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          shown = await getJson<Merchant>(server.port, 'localhost', '/merchant');
        }
        if (Date.now() - cachedAt < cacheSeconds * 1000 - 100) {
          expect(shown.data.website).toBe(website);
          proven = true;
        }
      }
      expect(proven, 'every command run took longer than the cache keeps an answer').toBe(true);

      const published = await runCli(['agreement:publish', '--host', 'localhost', '--title', '运行中发布', '--text', '<p>x</p>'], place.env);
      expect(published.code, published.stderr).toBe(0);
      const titles = await getJson<Array<{ title: string }>>(server.port, 'localhost', '/merchant/user-agreement/title');
      expect(titles.data[0]?.title).toBe('运行中发布');

      // two operators at once: the server takes one socket client at a time, the other waits its turn
      const together = await Promise.all([
        runCli(['merchant:set', '--slug', 'orange', '--icp', '粤ICP备2023045502号-9'], place.env),
        runCli(['merchant:set', '--slug', 'red', '--icp', '京ICP备2022096604号-9'], place.env),
      ]);
      expect(together.map((r) => r.code), together.map((r) => r.stderr).join('\n')).toEqual([0, 0]);
      expect((await getJson<Merchant>(server.port, 'orange.localhost', '/merchant')).data.icp).toBe('粤ICP备2023045502号-9');
      expect((await getJson<Merchant>(server.port, 'red.localhost', '/merchant')).data.icp).toBe('京ICP备2022096604号-9');

      const refused = await runCli(['merchant:set', '--host', 'localhost', '--color', 'pink'], place.env);
      expect(refused.code).toBe(1);
      expect((await getJson<Merchant>(server.port, 'localhost', '/merchant')).data.color).toBe('MERCHANT_COLOR_BLUE');

      // a money command run again with its --key answers the first result, and another request with
      // that key is refused, as on PostgreSQL (a failed statement keeps the one connection good)
      const recharge = ['wallet:recharge', '--host', 'localhost', '--account', '13800138000', '--amount', '1.00', '--currency', 'USD', '--key', 'ops-while-running-1'];
      const first = await runCli(recharge, place.env);
      expect(first.code, first.stderr).toBe(0);
      const again = await runCli(recharge, place.env);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toMatch(/^Key ops-while-running-1 was used before for this same request: nothing moved again\./);
      const other = await runCli([...recharge.slice(0, 5), '--amount', '2.00', ...recharge.slice(7)], place.env);
      expect(other.code).toBe(1);
      expect(other.stderr).toMatch(/refused: this --key was already used for a different request/);

      expect(await server.stop()).toBe(0);
      // the server gave the embedded database up; the command line now opens it itself
      expect(existsSync(ownerFilePath(place.dataDir))).toBe(false);
      const listed = await runCli(['merchant:list'], place.env);
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).toMatch(new RegExp(`^blue\\s+蓝鲸卡\\s+blue\\s+${website.replaceAll('.', '\\.')}\\s`, 'm'));
    } finally {
      await server.stop();
      await place.close();
    }
  });
});
