import { randomUUID } from 'node:crypto';
import type { BulkActionAnswer, BulkReview } from '@portal/contract/card-bulk';
import { fromMinorUnits, toMinorUnits } from '@portal/contract/money';
import { TeamErrorCode } from '@portal/contract/team-errors';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.ts';
import type { ApiClient } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { scriptedIssuer } from '../helpers/issuer.ts';
import { addMember } from '../helpers/members.ts';
import { queryRows } from '../helpers/sql.ts';
import { issuedCard, readyForCards, teamOwner } from '../helpers/team.ts';

// this process works no bulk action (BULK_WORKERS=0): an accepted top-up stays at work, its money promised
const clock = new ManualClock(new Date('2026-11-24T08:00:00Z'));
const issuer = scriptedIssuer();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock, issuer: issuer.port, env: { BULK_WORKERS: '0' } });
  issuer.attach(t);
});
afterAll(() => t?.close());

const start = (api: ApiClient, body: Record<string, unknown>) =>
  api.post<{ id: string }>('/card/bulk-actions', body, { headers: { 'idempotency-key': randomUUID() } });
const review = (api: ApiClient, body: Record<string, unknown>) => api.post<BulkReview>('/card/bulk-actions/review', body);

describe("a MEMBER's budget at a bulk top-up's review", () => {
  it('counts the top-ups of their bulk actions still at work as used, and refuses what would pass the budget', async () => {
    const owner = await teamOwner(t);
    await readyForCards(t, owner);
    const budget = toMinorUnits('100.00');
    const mate = await addMember(t.database.db, t.services.sessions, owner.accountId, 'MEMBER', { budget });
    const mateApi = t.api('localhost', mate.token);
    const card = await issuedCard(owner, issuer, '预算卡');
    await t.database.db.execute(sql`update cards set holder_member_id = ${mate.id}::uuid where id = ${card.id}::uuid`);

    const body = { action: 'RECHARGE', card_ids: [card.id], params: { amount: '60.00' } };
    const first = await review(mateApi, body);
    expect(first.code, first.message).toBe(0);
    const cost = toMinorUnits(first.data.money[0]?.total ?? '0');
    expect(cost).toBeGreaterThan(toMinorUnits('50.00'));
    expect(cost).toBeLessThanOrEqual(budget);
    const accepted = await start(mateApi, body);
    expect(accepted.code, accepted.message).toBe(0);
    expect((await mateApi.data<BulkActionAnswer>('GET', `/card/bulk-actions/${accepted.data.id}`)).status).toBe('PENDING');

    // the first top-up has not moved yet; its money is promised all the same
    const left = fromMinorUnits(budget - cost);
    const again = await review(mateApi, body);
    expect(again.code).toBe(TeamErrorCode.BUDGET_EXCEEDED);
    expect(again.message).toBe(`超出本月预算：本月剩余${left} USD`);
    const refused = await start(mateApi, body);
    expect(refused.code).toBe(TeamErrorCode.BUDGET_EXCEEDED);
    const rows = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from card_bulk_actions where held_by = ${mate.id}::uuid`);
    expect(rows[0]?.n).toBe(1);

    // what is left still passes; the owner, who has no budget, is not held to the member's
    const within = await review(mateApi, { ...body, params: { amount: '1.00' } });
    expect(within.code, within.message).toBe(0);
    expect((await review(t.api('localhost', owner.token), body)).code).toBe(0);
  });
});
