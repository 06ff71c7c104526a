import { TeamErrorCode } from '@portal/contract/team-errors';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { queryRows } from '../helpers/sql.ts';
import { joinTeam, teamOwner } from '../helpers/team.ts';

// PGlite has one connection and would hide this race: this file runs on PostgreSQL only
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe('two hand-overs of ownership at the same moment', () => {
  it('hands it over once; the other is refused as the caller is no longer the owner', async () => {
    for (let round = 0; round < 5; round++) {
      const owner = await teamOwner(t);
      const first = await joinTeam(t, owner, 'ADMIN');
      const second = await joinTeam(t, owner, 'MEMBER');
      expect((await owner.api.put('/account/trx-password', { trx_password: 'Trade1234', password: PASSWORD })).code).toBe(0);
      const answers = await Promise.all(
        [first, second].map((to) => owner.api.post('/team/ownership', { member_id: to.memberId, trx_password: 'Trade1234' })),
      );
      const codes = answers.map((answer) => answer.code).sort();
      expect(codes).toEqual([0, TeamErrorCode.PERMISSION_DENIED]);
      const owners = await queryRows<{ id: string }>(t.database.db, sql`select id from members where account_id = ${owner.accountId} and role = 'OWNER'`);
      expect(owners).toHaveLength(1);
      const won = answers[0]?.code === 0 ? first : second;
      expect(owners[0]?.id).toBe(won.memberId);
    }
  });
});
