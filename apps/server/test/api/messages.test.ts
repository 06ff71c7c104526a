import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findMerchantByHost } from '../../src/modules/merchants/store.ts';
import { ManualClock } from '../../src/lib/clock.ts';
import { demoAccount, demoMerchants, welcomeAnnouncement } from '../../src/demo-data.ts';
import { signIn, signUp } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
const clock = new ManualClock(new Date('2026-11-22T08:00:00Z'));
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());

interface Page {
  items: { id: string; kind: string; type: string; title: string; content: string; status: string; is_read: boolean; created_at: string }[];
  total: number;
  page: number;
  page_size: number;
}

async function accountIdOf(token: string, host = 'localhost') {
  return (await t.api(host, token).data<{ id: string }>('GET', '/account/info')).id;
}

async function send(host: string, accountId: string, title: string, extra: { type?: string; content?: string } = {}) {
  const merchant = await findMerchantByHost(t.database.db, host);
  clock.advance(1000);
  return t.database.db.transaction((tx) =>
    t.services.messages.post(tx, { merchantId: merchant?.id as string, accountId, title, content: extra.content ?? `<p>${title}</p>`, type: extra.type }),
  );
}

async function announce(host: string, title: string) {
  const merchant = await findMerchantByHost(t.database.db, host);
  clock.advance(1000);
  return t.database.db.transaction((tx) => t.services.messages.announce(tx, { merchantId: merchant?.id as string, title, content: `<p>${title}</p>` }));
}

// first in the file: the tests after it publish more announcements
describe('the demo data', () => {
  it("greets each demo account with its own merchant's welcome announcement, and no other", async () => {
    for (const demo of demoMerchants) {
      const host = demo.hosts[0] as string;
      const { token } = await signIn(t, host, { email: demoAccount.emailFor(demo.website), password: demoAccount.password });
      const client = t.api(host, token);
      const page = await client.data<Page>('GET', '/msg-center/station-msg/list', { query: { kind: 'announcement', page_size: 100 } });
      const welcome = welcomeAnnouncement(demo.name, demo.website);
      expect(page.total, demo.slug).toBe(1);
      expect(page.items, demo.slug).toEqual([
        expect.objectContaining({ kind: 'announcement', type: 'ANNOUNCEMENT', title: `欢迎使用${demo.name}`, content: welcome.content, is_read: false }),
      ]);
      expect(welcome.content).toContain(`support@${demo.website}`);
      expect(await client.data('GET', '/msg-center/station-msg/unread-quantity'), demo.slug).toEqual({ count: 1 });
    }
  });
});

describe('station messages', () => {
  it('lists newest first with pagination, and filters by read state', async () => {
    const who = await signUp(t);
    const accountId = await accountIdOf(who.token);
    for (let i = 1; i <= 12; i++) await send('localhost', accountId, `消息${i}`);
    const client = t.api('localhost', who.token);
    const first = await client.data<Page>('GET', '/msg-center/station-msg/list', { query: { page: 1, page_size: 5 } });
    expect(first.total).toBe(12);
    expect(first.items.map((m) => m.title)).toEqual(['消息12', '消息11', '消息10', '消息9', '消息8']);
    expect(first.items[0]).toMatchObject({ kind: 'message', type: 'NOTICE', status: 'success', is_read: false, content: '<p>消息12</p>' });
    const last = await client.data<Page>('GET', '/msg-center/station-msg/list', { query: { page: 3, page_size: 5 } });
    expect(last.items.map((m) => m.title)).toEqual(['消息2', '消息1']);

    // the 12 messages and the merchant's welcome announcement
    expect(await client.data('GET', '/msg-center/station-msg/unread-quantity')).toEqual({ count: 13 });
    const read = await client.data<{ unread_quantity: number }>('PUT', '/msg-center/station-msg/read-status', { body: { id: first.items[0]?.id } });
    expect(read.unread_quantity).toBe(12);
    // marking again changes nothing
    expect((await client.data<{ unread_quantity: number }>('PUT', '/msg-center/station-msg/read-status', { body: { id: first.items[0]?.id } })).unread_quantity).toBe(12);
    const readOnes = await client.data<Page>('GET', '/msg-center/station-msg/list', { query: { read: 'read' } });
    expect(readOnes.items.map((m) => m.title)).toEqual(['消息12']);
    const unread = await client.data<Page>('GET', '/msg-center/station-msg/list', { query: { read: 'unread', page_size: 100 } });
    expect(unread.total).toBe(11);
    expect(unread.items.every((m) => !m.is_read)).toBe(true);
  });

  it('marks all read, per kind or both', async () => {
    const who = await signUp(t, 'purple.localhost');
    const accountId = await accountIdOf(who.token, 'purple.localhost');
    await send('purple.localhost', accountId, 'a');
    await send('purple.localhost', accountId, 'b');
    await announce('purple.localhost', '紫晶公告');
    const client = t.api('purple.localhost', who.token);
    // two messages, 紫晶公告 and the merchant's welcome announcement
    expect(await client.data('GET', '/msg-center/station-msg/unread-quantity')).toEqual({ count: 4 });
    expect(await client.data('PUT', '/msg-center/station-msg/read-status', { body: { all: true, kind: 'message' } })).toEqual({ unread_quantity: 2 });
    expect(await client.data('PUT', '/msg-center/station-msg/read-status', { body: { all: true } })).toEqual({ unread_quantity: 0 });
  });

  it('shows one message, and refuses bad read-status bodies', async () => {
    const who = await signUp(t);
    const accountId = await accountIdOf(who.token);
    const message = await send('localhost', accountId, '详情', { type: 'FREEZE', content: '<p>钱包已冻结</p>' });
    const client = t.api('localhost', who.token);
    const detail = await client.data<Page['items'][number]>('GET', '/msg-center/station-msg/detail', { query: { id: message.id } });
    expect(detail).toMatchObject({ id: message.id, type: 'FREEZE', title: '详情', content: '<p>钱包已冻结</p>', is_read: false });
    expect((await client.put('/msg-center/station-msg/read-status', {})).code).toBe(1001);
    expect((await client.put('/msg-center/station-msg/read-status', { id: message.id, all: true })).code).toBe(1001);
    expect((await client.put('/msg-center/station-msg/read-status', { id: 'nope' })).message).toBe('消息不存在');
    const unknown = await client.put('/msg-center/station-msg/read-status', { id: '00000000-0000-4000-8000-000000000000' });
    expect([unknown.status, unknown.code]).toEqual([404, 5001]);
  });

  it('needs a full session', async () => {
    expect((await t.api().get('/msg-center/station-msg/list')).code).toBe(605);
    expect((await t.api().get('/msg-center/station-msg/unread-quantity')).code).toBe(605);
    const who = await signUp(t);
    const verifying = await t.api().post<{ token: string }>('/account/login', { phone_info: { phone: who.phone, phone_prefix: '86' }, password: who.password });
    expect((await t.api('localhost', verifying.data.token).get('/msg-center/station-msg/list')).code).toBe(2011);
  });
});

describe('announcements', () => {
  it("reach every account of the merchant with a read state of each account's own", async () => {
    const one = await signUp(t, 'red.localhost');
    const two = await signUp(t, 'red.localhost');
    const notice = await announce('red.localhost', '赤焰公告');
    const first = t.api('red.localhost', one.token);
    const second = t.api('red.localhost', two.token);
    /** the announcement as the account lists it (beside the merchant's welcome announcement) */
    const listed = async (client: typeof first) =>
      (await client.data<Page>('GET', '/msg-center/station-msg/list', { query: { kind: 'announcement' } })).items.find((a) => a.id === notice.id);
    for (const client of [first, second]) {
      const item = await listed(client);
      expect(item && [item.id, item.kind, item.type, item.is_read]).toEqual([notice.id, 'announcement', 'ANNOUNCEMENT', false]);
    }
    await first.data('PUT', '/msg-center/station-msg/read-status', { body: { id: notice.id } });
    expect((await listed(first))?.is_read).toBe(true);
    expect((await listed(second))?.is_read).toBe(false);
    expect(await second.data('GET', '/msg-center/station-msg/detail', { query: { id: notice.id, kind: 'announcement' } })).toMatchObject({ title: '赤焰公告' });
  });
});

describe('isolation', () => {
  it("an account never sees another account's messages, nor another merchant's announcements", async () => {
    const owner = await signUp(t, 'yellow.localhost');
    const other = await signUp(t, 'yellow.localhost');
    const elsewhere = await signUp(t, 'orange.localhost');
    const message = await send('yellow.localhost', await accountIdOf(owner.token, 'yellow.localhost'), '私信');
    const notice = await announce('yellow.localhost', '金穗公告');

    const otherClient = t.api('yellow.localhost', other.token);
    expect((await otherClient.data<Page>('GET', '/msg-center/station-msg/list')).total).toBe(0);
    expect((await otherClient.get('/msg-center/station-msg/detail', { query: { id: message.id } })).code).toBe(5001);
    expect((await otherClient.put('/msg-center/station-msg/read-status', { id: message.id })).code).toBe(5001);
    // the owner's message stays unread after the other account's attempt
    expect((await t.api('yellow.localhost', owner.token).data<Page>('GET', '/msg-center/station-msg/list')).items[0]?.is_read).toBe(false);

    const orange = t.api('orange.localhost', elsewhere.token);
    const orangeNotices = await orange.data<Page>('GET', '/msg-center/station-msg/list', { query: { kind: 'announcement', page_size: 100 } });
    expect(orangeNotices.items.map((a) => a.id)).not.toContain(notice.id);
    expect((await orange.get('/msg-center/station-msg/detail', { query: { id: notice.id, kind: 'announcement' } })).code).toBe(5001);
    expect((await orange.put('/msg-center/station-msg/read-status', { id: notice.id })).code).toBe(5001);
    // its own merchant's welcome announcement is all it has unread
    expect(orangeNotices.items.map((a) => a.title)).toEqual(['欢迎使用橙意卡']);
    expect(await orange.data('GET', '/msg-center/station-msg/unread-quantity')).toEqual({ count: 1 });
  });
});
