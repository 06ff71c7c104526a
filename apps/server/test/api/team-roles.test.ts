import { API_BASE, type Call, isSessionCaller } from '@portal/contract/api/call';
import { portalCalls } from '@portal/contract/api/calls';
import { type Action, can, ROLES, type Role } from '@portal/contract/team';
import { TeamErrorCode } from '@portal/contract/team-errors';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { queryRows } from '../helpers/sql.ts';
import { until } from '../helpers/until.ts';
import { joinTeam, readyForCards, type Teammate, teamOwner } from '../helpers/team.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());


/** Every portal call that names the action its caller's role must grant. */
const guarded = Object.values(portalCalls)
  .flatMap((area) => Object.values(area) as Call[])
  .filter((call) => isSessionCaller(call.who) && call.who.role !== undefined)
  .map((call) => ({ call, action: (call.who as { role: Action }).role }));

const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';

/** Every row of the account's tables (sessions aside: their last-seen time moves by itself), as one text. */
async function accountState(accountId: string) {
  const tables = await queryRows<{ table_name: string }>(
    t.database.db,
    sql`select table_name from information_schema.columns where table_schema = current_schema() and column_name = 'account_id' and table_name <> 'sessions' order by table_name`,
  );
  const parts: string[] = [];
  for (const { table_name: table } of tables) {
    const rows = await queryRows<{ digest: string | null }>(
      t.database.db,
      sql`select md5(coalesce(string_agg(row_to_json(x)::text, ',' order by row_to_json(x)::text), '')) as digest from ${sql.identifier(table)} x where account_id = ${accountId}`,
    );
    parts.push(`${table}:${rows[0]?.digest}`);
  }
  const [account] = await queryRows(t.database.db, sql`select name, status from accounts where id = ${accountId}`);
  return JSON.stringify([parts, account]);
}

/** Waits until the exports and batches an allowed call started have finished: what they write is theirs, not a refused call's. */
const settled = (accountId: string) =>
  until('the background work to finish', async () => {
    const [row] = await queryRows<{ n: number }>(
      t.database.db,
      sql`select (select count(*) from card_exports where account_id = ${accountId} and status in ('PENDING', 'RUNNING')) + (select count(*) from card_batches where account_id = ${accountId} and status = 'RUNNING') as n`,
    );
    return Number(row?.n) === 0;
  });

async function call(who: Teammate, entry: Call) {
  const url = `${API_BASE}${entry.path.replace(/:\w+/g, NO_SUCH_ID)}`;
  const withBody = entry.method !== 'GET';
  const response = await t.app.inject({
    method: entry.method,
    url,
    headers: { host: who.host, authorization: `Bearer ${who.token}`, ...(withBody ? { 'content-type': 'application/json' } : {}) },
    ...(withBody ? { payload: '{}' } : {}),
  });
  try {
    return (response.json() as { code?: number }).code;
  } catch {
    // a file (an export) is no refusal
    return undefined;
  }
}

describe('the role table decides every call that names an action', () => {
  it('refuses with 2701 exactly the calls a role may not make, and a refused call changes nothing', async () => {
    expect(guarded.length).toBeGreaterThan(20);
    const owner = await teamOwner(t);
    await readyForCards(t, owner);
    const team: Record<Role, Teammate> = {
      OWNER: owner,
      ADMIN: await joinTeam(t, owner, 'ADMIN'),
      FINANCE: await joinTeam(t, owner, 'FINANCE'),
      MEMBER: await joinTeam(t, owner, 'MEMBER', '100.00'),
      VIEWER: await joinTeam(t, owner, 'VIEWER'),
    };
    // the snapshot reads the account's own rows: its members and cards among them
    expect(await accountState(owner.accountId)).toMatch(/members:[0-9a-f]{32}.*wallet/);
    const mismatches: string[] = [];
    for (const role of ROLES) {
      for (const { call: entry, action } of guarded) {
        const allowed = can(role, action);
        if (!allowed) await settled(owner.accountId);
        const before = allowed ? '' : await accountState(owner.accountId);
        const code = await call(team[role], entry);
        const refused = code === TeamErrorCode.PERMISSION_DENIED;
        if (refused === allowed) mismatches.push(`${role} ${entry.method} ${entry.path} (${action}): ${allowed ? 'refused' : `answered ${code}`}`);
        if (!allowed && (await accountState(owner.accountId)) !== before) mismatches.push(`${role} ${entry.method} ${entry.path}: refused yet changed the account`);
      }
    }
    expect(mismatches).toEqual([]);
    // every guarded call five times over, with a snapshot of the account around each refusal
  }, 120_000);
});
