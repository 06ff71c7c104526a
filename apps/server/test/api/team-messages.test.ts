import type { AccountInfo } from '@portal/contract/account';
import type { MessageItem } from '@portal/contract/messages';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/lib/crypto.ts';
import { freshPhone, PASSWORD, signUp } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { openEventStream } from '../helpers/sse.ts';
import { queryRows } from '../helpers/sql.ts';

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
});
afterAll(() => t.close());

/** A member of the account in `role`, signed in (written straight into the team, as an accepted invitation leaves it). */
async function memberOf(merchantId: string, accountId: string, role: string) {
  const [member] = await queryRows<{ id: string }>(
    t.database.db,
    sql`insert into members (merchant_id, account_id, role, phone, password_hash) values (${merchantId}, ${accountId}, ${role}, ${freshPhone()}, ${await hashPassword(PASSWORD)}) returning id`,
  );
  const id = String(member?.id);
  const { token } = await t.services.sessions.open(t.database.db, { merchantId, accountId, memberId: id, stage: 'FULL', userAgent: 'test', ip: '127.0.0.1' });
  return { id, token, api: t.api('localhost', token) };
}

async function team() {
  const who = await signUp(t);
  const owner = { token: who.token, api: t.api('localhost', who.token) };
  const info = await owner.api.data<AccountInfo>('GET', '/account/info');
  const [row] = await queryRows<{ merchant_id: string }>(t.database.db, sql`select merchant_id from accounts where id = ${info.id}`);
  const merchantId = String(row?.merchant_id);
  return {
    merchantId,
    accountId: info.id,
    owner: { ...owner, id: info.member_id },
    buyer: await memberOf(merchantId, info.id, 'MEMBER'),
    viewer: await memberOf(merchantId, info.id, 'VIEWER'),
  };
}

const titles = async (api: ReturnType<TestApp['api']>) =>
  (await api.data<{ items: MessageItem[] }>('GET', '/msg-center/station-msg/list', { query: { kind: 'message', page_size: 50 } })).items.map((item) => item.title);
const unread = async (api: ReturnType<TestApp['api']>) => (await api.data<{ count: number }>('GET', '/msg-center/station-msg/unread-quantity')).count;

describe("a team's station messages", () => {
  it("reach the members they are for: everyone's to all, a card's to its holder and the owner, a member's own security to them alone", async () => {
    const { merchantId, accountId, owner, buyer, viewer } = await team();
    const post = (title: string, audience: { memberId?: string; holderMemberId?: string }) =>
      t.services.messages.send({ merchantId, accountId, title, content: title, ...audience });
    await post('钱包已冻结', {});
    await post('卡片交易被拒绝', { holderMemberId: buyer.id });
    // the viewer, signed in twice, ends their other session: a notice of their own security
    await t.services.sessions.open(t.database.db, { merchantId, accountId, memberId: viewer.id, stage: 'FULL', userAgent: 'other', ip: '127.0.0.1' });
    expect((await viewer.api.delete('/account/sessions', { query: { others: 'true' } })).code).toBe(0);

    expect(await titles(buyer.api)).toEqual(['卡片交易被拒绝', '钱包已冻结']);
    const viewerTitles = await titles(viewer.api);
    expect(viewerTitles).toContain('钱包已冻结');
    expect(viewerTitles).not.toContain('卡片交易被拒绝');
    expect(viewerTitles).toHaveLength(2);
    const ownerTitles = await titles(owner.api);
    expect(ownerTitles.slice(0, 2)).toEqual(['卡片交易被拒绝', '钱包已冻结']);
    expect(ownerTitles).not.toContain(viewerTitles[0]);

    // each member's own unread count (one welcome announcement each, as every new account has)
    expect(await unread(buyer.api)).toBe(3);
    expect(await unread(viewer.api)).toBe(3);
    expect(await unread(owner.api)).toBe(3);

    // a message the viewer does not see is not theirs to read or mark
    const [hidden] = (await buyer.api.data<{ items: MessageItem[] }>('GET', '/msg-center/station-msg/list', { query: { kind: 'message' } })).items;
    expect((await viewer.api.get('/msg-center/station-msg/detail', { query: { kind: 'message', id: String(hidden?.id) } })).code).not.toBe(0);
    await viewer.api.data('PUT', '/msg-center/station-msg/read-status', { body: { all: true, kind: 'message' } });
    expect(await unread(buyer.api)).toBe(2);
    expect(await unread(viewer.api)).toBe(1);
  });

  it("stream a card's message to its holder's tabs and the owner's, each with their own count, and not to a viewer's", async () => {
    const { merchantId, accountId, owner, buyer, viewer } = await team();
    const tabs = {
      owner: await openEventStream(base, 'localhost', owner.token),
      buyer: await openEventStream(base, 'localhost', buyer.token),
      viewer: await openEventStream(base, 'localhost', viewer.token),
    };
    try {
      for (const tab of Object.values(tabs)) await tab.next((event) => typeof event.unread_quantity === 'number');
      const from = { owner: tabs.owner.events.length, buyer: tabs.buyer.events.length, viewer: tabs.viewer.events.length };
      await t.services.messages.send({ merchantId, accountId, title: '3-D Secure 验证码', content: '123456', holderMemberId: buyer.id });
      await t.services.messages.send({ merchantId, accountId, title: '公告式通知', content: '所有人' });
      const forBuyer = await tabs.buyer.next((event) => event.title === '3-D Secure 验证码', { from: from.buyer });
      expect(forBuyer.unread_quantity).toBe(2);
      expect((await tabs.owner.next((event) => event.title === '3-D Secure 验证码', { from: from.owner })).unread_quantity).toBe(2);
      // the viewer's next message is the one for everyone: the card's never reached their tab
      const forViewer = await tabs.viewer.next((event) => Boolean(event.title), { from: from.viewer });
      expect(forViewer.title).toBe('公告式通知');
      expect(forViewer.unread_quantity).toBe(2);
      expect(tabs.viewer.events.some((event) => event.title === '3-D Secure 验证码')).toBe(false);
    } finally {
      for (const tab of Object.values(tabs)) tab.close();
    }
  });

  it("stream a card's events to the members who see the card, and its 3-D Secure code to its holder and the owner", async () => {
    const { merchantId, accountId, owner, buyer, viewer } = await team();
    const other = await memberOf(merchantId, accountId, 'MEMBER');
    const tabs = {
      owner: await openEventStream(base, 'localhost', owner.token),
      buyer: await openEventStream(base, 'localhost', buyer.token),
      viewer: await openEventStream(base, 'localhost', viewer.token),
      other: await openEventStream(base, 'localhost', other.token),
    };
    try {
      for (const tab of Object.values(tabs)) await tab.next((event) => typeof event.unread_quantity === 'number');
      await t.database.db.transaction(async (tx) => {
        await t.services.events.toAccount(tx, merchantId, accountId, 'CARD_STATUS', { card_id: 'c-1', card_status: 'FREEZE' }, { audience: { card: buyer.id } });
        await t.services.events.toAccount(tx, merchantId, accountId, 'CARD_3DS_OTP', { card_id: 'c-1', code: '654321' }, { audience: { holder: buyer.id } });
        await t.services.events.toAccount(tx, merchantId, accountId, 'EVERYONE', {});
      });
      const seen = async (tab: (typeof tabs)[keyof typeof tabs]) => {
        await tab.next((event) => event.type === 'EVERYONE');
        return tab.events.filter((event) => event.type === 'CARD_STATUS' || event.type === 'CARD_3DS_OTP').map((event) => event.type);
      };
      expect(await seen(tabs.buyer)).toEqual(['CARD_STATUS', 'CARD_3DS_OTP']);
      expect(await seen(tabs.owner)).toEqual(['CARD_STATUS', 'CARD_3DS_OTP']);
      // a viewer sees every card, but no code
      expect(await seen(tabs.viewer)).toEqual(['CARD_STATUS']);
      // another buyer sees neither: the card is not theirs
      expect(await seen(tabs.other)).toEqual([]);
    } finally {
      for (const tab of Object.values(tabs)) tab.close();
    }
  });
});
