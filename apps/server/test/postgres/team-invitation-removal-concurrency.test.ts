import { ErrorCode } from '@portal/contract/errors';
import { TeamErrorCode } from '@portal/contract/team-errors';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshEmail } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { queryRows } from '../helpers/sql.ts';
import { joinTeam, teamOwner } from '../helpers/team.ts';

// PGlite has one connection and would hide this race: this file runs on PostgreSQL only
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe('an ADMIN invites while being removed or suspended', () => {
  it('leaves no pending invitation of theirs behind, whichever lands first', async () => {
    for (let round = 0; round < 6; round++) {
      const owner = await teamOwner(t);
      const admin = await joinTeam(t, owner, 'ADMIN');
      const leave =
        round % 2 === 0
          ? owner.api.delete(`/team/members/${admin.memberId}`, { body: {} })
          : owner.api.put(`/team/members/${admin.memberId}`, { status: 'SUSPENDED' });
      const invites = Array.from({ length: 3 }, () => admin.api.post('/team/invitations', { email: freshEmail('racing'), role: 'VIEWER' }));
      const [left, ...invited] = await Promise.all([leave, ...invites]);
      expect(left?.code).toBe(0);
      // each invitation landed before (and is revoked) or is refused as its sender has left
      for (const answer of invited) expect([0, TeamErrorCode.MEMBER_SUSPENDED, ErrorCode.SESSION_REVOKED]).toContain(answer.code);
      const pending = await queryRows<{ n: number }>(
        t.database.db,
        sql`select count(*)::int as n from invitations where invited_by = ${admin.memberId} and accepted_at is null and revoked_at is null`,
      );
      expect(pending[0]?.n).toBe(0);
    }
  });
});
