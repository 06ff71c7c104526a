import type { CardItem, OpenedAvailableAnswer } from '@portal/contract/cards';
import type { Role } from '@portal/contract/enums';
import type { StreamEvent } from '@portal/contract/messages';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../helpers/accounts.ts';
import type { ApiClient } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { scriptedIssuer } from '../helpers/issuer.ts';
import { addMember } from '../helpers/members.ts';
import { openEventStream } from '../helpers/sse.ts';
import { until } from '../helpers/until.ts';

const issuer = scriptedIssuer();
let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp({ issuer: issuer.port });
  issuer.attach(t);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
});
afterAll(() => t?.close());

let serial = 0;
const key = () => `team-events-${Date.now().toString(36)}-${++serial}`;
const rows = async (query: ReturnType<typeof sql>) => ((await t.database.db.execute(query)) as unknown as { rows: Array<Record<string, unknown>> }).rows;

/** A verified account with 1000.00 USD, its owner and a member of `role`, each signed in. */
async function team(role: Role) {
  const who = await signUp(t);
  const owner = t.api('localhost', who.token);
  const { id: accountId } = await owner.data<{ id: string }>('GET', '/account/info');
  await owner.data('PUT', '/card/verification', { body: { real_name: '张三', id_number: '11010519491231002X' } });
  const merchantId = String((await rows(sql`select merchant_id from accounts where id = ${accountId}`))[0]?.merchant_id);
  await t.services.ledger.recharge({ merchantId, accountId, currency: 'USD', amount: 1000_00n, key: `fund-${accountId}` });
  const { products } = await owner.data<OpenedAvailableAnswer>('GET', '/card/opened-available');
  const product = products.find((one) => one.name === '订阅支付卡');
  if (!product) throw new Error('no 订阅支付卡');
  const added = await addMember(t.database.db, t.services.sessions, accountId, role);
  return { merchantId, accountId, product, owner: { token: who.token, api: owner }, member: { ...added, api: t.api('localhost', added.token) } };
}

async function issuedCard(api: ApiClient, productId: string, amount: string) {
  const opened = await api.post<CardItem>('/card', { product_id: productId, amount, nickname: '卡' }, { headers: { 'idempotency-key': key() } });
  expect(opened.code, opened.message).toBe(0);
  await issuer.issue(opened.data.id);
  return opened.data;
}

/** the batch a BATCH_PROGRESS event is about */
const batchOf = (event: StreamEvent) => (event as { batch_id?: string }).batch_id;
/** the export an EXPORT_PROGRESS event is about */
const exportOf = (event: StreamEvent) => (event as { export_id?: string }).export_id;
const usd = (event: StreamEvent) => (event.card_amount as Array<{ currency: string; amount: string }>).find((item) => item.currency === 'USD')?.amount;

describe("a team's event streams", () => {
  it("tell a MEMBER what their own cards hold, and only their own batches' progress; the owner hears all", async () => {
    const { merchantId, accountId, product, owner, member } = await team('MEMBER');
    await issuedCard(owner.api, product.id, '30.00');
    await issuedCard(member.api, product.id, '20.00');
    const tabs = { owner: await openEventStream(base, 'localhost', owner.token), member: await openEventStream(base, 'localhost', member.token) };
    try {
      for (const tab of Object.values(tabs)) await tab.next((event) => typeof event.unread_quantity === 'number');
      await t.services.ledger.recharge({ merchantId, accountId, currency: 'USD', amount: 1_00n, key: `more-${accountId}` });
      const forOwner = await tabs.owner.next((event) => event.type === 'BALANCE_CHANGED');
      const forMember = await tabs.member.next((event) => event.type === 'BALANCE_CHANGED');
      expect(usd(forOwner)).toBe('50.00');
      expect(usd(forMember)).toBe('20.00');
      // the wallet is every role's to read
      expect(forMember.balances).toEqual(forOwner.balances);

      // the owner's batch reaches the owner's tab, not the member's
      const ownBatch = await owner.api.post<{ batch_id: string }>(
        '/batch-create-card',
        { product_id: product.id, quantity: 2, amount: '10.00', nickname_prefix: 'O' },
        { headers: { 'idempotency-key': key() } },
      );
      expect(ownBatch.code, ownBatch.message).toBe(0);
      await tabs.owner.next((event) => event.type === 'BATCH_PROGRESS' && batchOf(event) === ownBatch.data.batch_id);
      for (const card of await rows(sql`select id from cards where batch_id = ${ownBatch.data.batch_id}`)) {
        await until('the batch card asked of the issuer', async () => issuer.requests.some((request) => request.cardId === card.id) || undefined);
        await issuer.issue(String(card.id));
      }
      await tabs.owner.next((event) => event.type === 'BATCH_PROGRESS' && batchOf(event) === ownBatch.data.batch_id && event.status === 'SUCCESS');

      // the member's own batch reaches both
      const membersBatch = await member.api.post<{ batch_id: string }>(
        '/batch-create-card',
        { product_id: product.id, quantity: 2, amount: '10.00', nickname_prefix: 'M' },
        { headers: { 'idempotency-key': key() } },
      );
      expect(membersBatch.code, membersBatch.message).toBe(0);
      await tabs.member.next((event) => event.type === 'BATCH_PROGRESS' && batchOf(event) === membersBatch.data.batch_id);
      await tabs.owner.next((event) => event.type === 'BATCH_PROGRESS' && batchOf(event) === membersBatch.data.batch_id);
      const batchesHeard = tabs.member.events.filter((event) => event.type === 'BATCH_PROGRESS').map((event) => batchOf(event));
      expect(new Set(batchesHeard)).toEqual(new Set([membersBatch.data.batch_id]));
      // the owner's export is not the member's to follow; the member's own is
      const ownersExport = await owner.api.post<{ export_id: string }>('/card/batch-export', { filters: {}, columns: ['nickname'] });
      expect(ownersExport.code, ownersExport.message).toBe(0);
      await tabs.owner.next((event) => event.type === 'EXPORT_PROGRESS' && exportOf(event) === ownersExport.data.export_id && event.status === 'DONE', { timeoutMs: 30_000 });
      const membersExport = await member.api.post<{ export_id: string }>('/card/batch-export', { filters: {}, columns: ['nickname'] });
      expect(membersExport.code, membersExport.message).toBe(0);
      await tabs.member.next((event) => event.type === 'EXPORT_PROGRESS' && exportOf(event) === membersExport.data.export_id && event.status === 'DONE', { timeoutMs: 30_000 });
      await tabs.owner.next((event) => event.type === 'EXPORT_PROGRESS' && exportOf(event) === membersExport.data.export_id, { timeoutMs: 30_000 });
      const exportsHeard = tabs.member.events.filter((event) => event.type === 'EXPORT_PROGRESS').map((event) => exportOf(event));
      expect(new Set(exportsHeard)).toEqual(new Set([membersExport.data.export_id]));
      // and no status of a card the member does not hold
      const theirCards = new Set((await rows(sql`select id from cards where holder_member_id = ${member.id}`)).map((row) => row.id));
      const statusesHeard = tabs.member.events.filter((event) => event.type === 'CARD_STATUS' || event.type === 'CARD_TRANSACTION');
      expect(statusesHeard.every((event) => theirCards.has(event.card_id))).toBe(true);
    } finally {
      for (const tab of Object.values(tabs)) tab.close();
    }
  });

  it('serve a member by their role now: an ADMIN made a MEMBER hears only their own cards from then on, on the tab already open', async () => {
    const { merchantId, accountId, product, owner, member: admin } = await team('ADMIN');
    await issuedCard(owner.api, product.id, '30.00');
    const tab = await openEventStream(base, 'localhost', admin.token);
    try {
      await tab.next((event) => typeof event.unread_quantity === 'number');
      await t.services.ledger.recharge({ merchantId, accountId, currency: 'USD', amount: 1_00n, key: `before-${accountId}` });
      expect(usd(await tab.next((event) => event.type === 'BALANCE_CHANGED'))).toBe('30.00');
      const changed = await owner.api.put(`/team/members/${admin.id}`, { role: 'MEMBER' });
      expect(changed.code, changed.message).toBe(0);
      const seen = tab.events.length;
      await t.services.ledger.recharge({ merchantId, accountId, currency: 'USD', amount: 1_00n, key: `after-${accountId}` });
      const after = await tab.next((event) => event.type === 'BALANCE_CHANGED', { from: seen });
      expect(usd(after) ?? '0.00').toBe('0.00');
    } finally {
      tab.close();
    }
  });

  it("tell a VIEWER what every card holds, as the owner hears it", async () => {
    const { merchantId, accountId, product, owner, member: viewer } = await team('VIEWER');
    await issuedCard(owner.api, product.id, '30.00');
    const tab = await openEventStream(base, 'localhost', viewer.token);
    try {
      await tab.next((event) => typeof event.unread_quantity === 'number');
      await t.services.ledger.recharge({ merchantId, accountId, currency: 'USD', amount: 1_00n, key: `more-${accountId}` });
      expect(usd(await tab.next((event) => event.type === 'BALANCE_CHANGED'))).toBe('30.00');
    } finally {
      tab.close();
    }
  });
});
