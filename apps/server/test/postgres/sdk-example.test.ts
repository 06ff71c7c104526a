/**
 * The SDK's example against a real server: a server process on PostgreSQL, a key made for a funded
 * account, and `npm run example:open-cards` run as a child process with it. The example opens ten
 * cards, tops each up and prints their transactions; the books hold exactly that.
 */
import { spawn } from 'node:child_process';
import type { ApiKeySecret } from '@portal/contract/developer';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PortalServer, repoRoot, startServer } from '../../../../e2e/harness.ts';
import { PASSWORD } from '../helpers/accounts.ts';
import { createTestApp } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { expectSoundBooks } from '../helpers/ledger.ts';
import { queryRows } from '../helpers/sql.ts';
import { readyForCards, teamOwner } from '../helpers/team.ts';

let database: TestDatabase;
let server: PortalServer | undefined;
let secret = '';
let accountId = '';

beforeAll(async () => {
  database = await createTestDatabase();
  // the account and its key are made by an app on the same database, closed before the server starts
  const setup = await createTestApp({ database });
  try {
    const who = await teamOwner(setup);
    await readyForCards(setup, who);
    expect((await who.api.put('/account/trx-password', { trx_password: 'Trade123', password: PASSWORD })).code).toBe(0);
    const made = await who.api.post<ApiKeySecret>('/developer/api-keys', {
      name: 'SDK 示例',
      scopes: ['cards:read', 'cards:write', 'funds:write', 'transactions:read'],
      trx_password: 'Trade123',
    });
    expect(made.code, made.message).toBe(0);
    secret = made.data.secret;
    accountId = who.accountId;
  } finally {
    await setup.close();
  }
  server = await startServer({ databaseUrl: database.location });
}, 180_000);
afterAll(async () => {
  await server?.stop();
  await database?.close();
});

/** Runs the example as a developer would; its exit code and what it printed. */
function runExample(args: string[]) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn('npm', ['run', '--silent', 'example:open-cards', '--', ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('npm run example:open-cards', () => {
  it('opens ten cards with the key, tops each up and prints their transactions; the books agree', async () => {
    const baseUrl = server?.url('localhost', '') ?? '';
    const run = await runExample(['--key', secret, '--base-url', baseUrl, '--amount', '20.00', '--top-up', '5.00']);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines.filter((line) => line.startsWith('已申请 opened'))).toHaveLength(10);
    expect(lines.filter((line) => line.startsWith('已开通 issued'))).toHaveLength(10);
    const toppedUp = lines.filter((line) => line.startsWith('已充值 topped up'));
    expect(toppedUp).toHaveLength(10);
    for (const line of toppedUp) expect(line).toMatch(/\+5\.00 USD.*余额 balance 25\.00$/);
    expect(lines.filter((line) => line.startsWith('交易 transactions'))).toHaveLength(10);
    expect(run.stdout).toContain('完成 done: 10 张卡已开并充值');

    // the books: ten cards of the account, each holding its first load and its top-up
    const cards = await queryRows<{ id: string; nickname: string; status: string }>(
      database.db,
      sql`select id, nickname, status from cards where account_id = ${accountId} order by nickname`,
    );
    expect(cards.map((card) => card.nickname)).toEqual(Array.from({ length: 10 }, (_, n) => `SDK 示例卡 ${String(n + 1).padStart(2, '0')}`));
    expect(new Set(cards.map((card) => card.status))).toEqual(new Set(['NORMAL']));
    for (const card of cards) {
      expect(run.stdout).toContain(card.id);
      const [account] = await queryRows<{ balance: string }>(database.db, sql`select balance::text as balance from ledger_accounts where kind = 'CARD' and owner_id = ${card.id}`);
      expect(account?.balance).toBe('2500');
    }
    // each printed transaction list has the card's two loads
    const transferLines = lines.filter((line) => /^\s+\S+\s+TRANSFER_IN\s+/.test(line));
    expect(transferLines).toHaveLength(20);
    await expectSoundBooks(database.db);
    // the wallet paid the loads, the top-ups and their fees: nothing of it twice
    const [keys] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from cards where account_id = ${accountId} and open_key is not null`);
    expect(Number(keys?.n)).toBe(10);
  });

  it('says what is wrong, in 中文, when the key is refused', async () => {
    const run = await runExample(['--key', `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`, '--base-url', server?.url('localhost', '') ?? '']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('失败 failed: 1201 API 密钥无效 (HTTP 401)');
  });
});
