import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { scriptedIssuer } from '../helpers/issuer.ts';
import { issuedCard, joinTeam, readyForCards, teamOwner } from '../helpers/team.ts';

/**
 * The team's answers field by field, as shared/design/growing-customers.md §6 names them: every field
 * the table names is there, with its type; the few the contract adds are named here too, so a field
 * that appears or goes is a decision, not an accident.
 */
const issuer = scriptedIssuer();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ issuer: issuer.port });
  issuer.attach(t);
});
afterAll(() => t?.close());

const keys = (value: unknown) => Object.keys(value as object).sort();
const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

describe("the team's answers", () => {
  it('GET /team/members, PUT /team/members/{id}, POST /team/invitations and GET /team/activity answer the fields of the design', async () => {
    const owner = await teamOwner(t);
    await readyForCards(t, owner);
    const buyer = await joinTeam(t, owner, 'MEMBER', '100.00');
    const card = await issuedCard(buyer, issuer);

    const members = await owner.api.data<{ items: Array<Record<string, unknown>> }>('GET', '/team/members');
    expect(keys(members)).toEqual(['items']);
    const memberFields = ['budget_currency', 'budget_used', 'cards_held', 'email', 'id', 'is_me', 'joined_at', 'monthly_budget', 'phone_masked', 'role', 'status'];
    for (const item of members.items) expect(keys(item)).toEqual(memberFields);
    expect(members.items.find((item) => item.id === buyer.memberId)).toEqual({
      id: buyer.memberId,
      phone_masked: `${buyer.phone.slice(0, 3)}****${buyer.phone.slice(-4)}`,
      email: buyer.email,
      role: 'MEMBER',
      status: 'ACTIVE',
      monthly_budget: '100.00',
      budget_used: expect.stringMatching(/^\d+\.\d{2}$/),
      budget_currency: 'USD',
      cards_held: 1,
      joined_at: expect.stringMatching(iso),
      is_me: false,
    });

    const changed = await owner.api.data<Record<string, unknown>>('PUT', `/team/members/${buyer.memberId}`, { body: { monthly_budget: '200.00' } });
    expect(keys(changed)).toEqual(memberFields);
    expect(changed).toMatchObject({ id: buyer.memberId, monthly_budget: '200.00', is_me: false });

    const invited = await owner.api.data<Record<string, unknown>>('POST', '/team/invitations', { body: { email: `shape.${Date.now()}@example.com`, role: 'VIEWER' } });
    expect(keys(invited)).toEqual(['expires_at', 'id']);
    expect(invited.expires_at).toMatch(iso);

    const activity = await owner.api.data<{ items: Array<Record<string, unknown>>; total: number; page: number; page_size: number }>('GET', '/team/activity');
    expect(keys(activity)).toEqual(['items', 'page', 'page_size', 'total']);
    for (const item of activity.items) {
      expect(keys(item)).toEqual(['amount', 'at', 'card_id', 'currency', 'device', 'id', 'ip', 'kind', 'member_id', 'member_label', 'summary']);
    }
    const opening = activity.items.find((item) => item.card_id === card.id);
    expect(opening).toEqual({
      id: expect.any(String),
      at: expect.stringMatching(iso),
      member_id: buyer.memberId,
      member_label: `${buyer.phone.slice(0, 3)}****${buyer.phone.slice(-4)}（成员）`,
      kind: 'CARD',
      summary: '开卡 团队卡，首充 20.00 USD',
      card_id: card.id,
      amount: '20.00',
      currency: 'USD',
      ip: expect.any(String),
      device: expect.any(String),
    });
    // an entry about no card and no money names neither: null, not absent
    const invitation = activity.items.find((item) => item.kind === 'MEMBER');
    expect(invitation).toMatchObject({ card_id: null, amount: null, currency: null });
  });
});
