import { HEARTBEAT_SECONDS } from '@portal/contract/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS_CHANNEL } from '../../src/modules/events/publisher.ts';
import { findMerchantByHost } from '../../src/modules/merchants/store.ts';
import { freshIp, lastCode, phoneTo, signIn, signUp } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { openEventStream } from '../helpers/sse.ts';
import { ledgerOn } from '../helpers/ledger.ts';

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
});
afterAll(() => t.close());

const merchantId = async (host: string) => (await findMerchantByHost(t.database.db, host))?.id as string;
const accountId = async (host: string, token: string) => (await t.api(host, token).data<{ id: string }>('GET', '/account/info')).id;

async function send(host: string, account: string, title: string, type?: string) {
  const merchant = await merchantId(host);
  return t.database.db.transaction((tx) => t.services.messages.post(tx, { merchantId: merchant, accountId: account, title, content: `<p>${title}</p><script>x()</script>`, type }));
}

describe('GET /api/v1/events', () => {
  it('carries a station message of any type as it was written, even one named like an event that is completed per stream', async () => {
    const who = await signUp(t);
    const id = await accountId('localhost', who.token);
    const tab = await openEventStream(base, 'localhost', who.token);
    try {
      await tab.next((e) => e.type === 'UNREAD_QUANTITY');
      for (const type of ['BALANCE_CHANGED', 'ANNOUNCEMENT']) {
        const message = await send('localhost', id, `类型 ${type}`, type);
        expect(await tab.next((e) => e.id === message.id)).toMatchObject({ type, kind: 'message', title: `类型 ${type}`, content: `类型 ${type}` });
      }
    } finally {
      tab.close();
    }
  });

  it('ignores what it cannot read on the channel, and never hands one merchant\'s event to another merchant\'s stream', async () => {
    const who = await signUp(t, 'red.localhost');
    const id = await accountId('red.localhost', who.token);
    const tab = await openEventStream(base, 'red.localhost', who.token);
    try {
      await tab.next((e) => e.type === 'UNREAD_QUANTITY');
      const from = tab.events.length;
      const blue = await merchantId('localhost');
      const notify = (payload: unknown) => t.database.notify(EVENTS_CHANNEL, JSON.stringify(payload));
      // a kind of message this process does not know, and an event naming this account under another merchant
      await notify({ t: 'signal', merchant: await merchantId('red.localhost'), accounts: [id], signal: 'balance' });
      await notify({ t: 'accounts', merchant: blue, accounts: [id], type: 'NOTICE', payload: { id: 'not-for-you' } });
      const mine = await send('red.localhost', id, '之后的消息');
      await tab.next((e) => e.id === mine.id, { from });
      expect(tab.events.slice(from).map((e) => e.type)).toEqual(['NOTICE']);
      expect(tab.events.slice(from)[0]).toMatchObject({ id: mine.id });
    } finally {
      tab.close();
    }
  });

  it('streams the unread count, then each new message with its fields, to every open tab of the account', async () => {
    const who = await signUp(t);
    const id = await accountId('localhost', who.token);
    const tabs = [await openEventStream(base, 'localhost', who.token), await openEventStream(base, 'localhost', who.token)];
    try {
      expect(tabs[0]?.response.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(tabs[0]?.response.headers['x-content-type-options']).toBe('nosniff');
      // a new account has the merchant's welcome announcement unread
      for (const tab of tabs) expect(await tab.next((e) => e.type === 'UNREAD_QUANTITY')).toMatchObject({ unread_quantity: 1 });
      const message = await send('localhost', id, '账户通知');
      for (const tab of tabs) {
        const event = await tab.next((e) => e.id === message.id);
        expect(event).toMatchObject({ type: 'NOTICE', kind: 'message', title: '账户通知', status: 'success', unread_quantity: 2, content: '账户通知' });
      }
      const freeze = await send('localhost', id, '钱包已冻结', 'FREEZE');
      expect(await tabs[0]?.next((e) => e.id === freeze.id)).toMatchObject({ type: 'FREEZE', unread_quantity: 3 });
    } finally {
      for (const tab of tabs) tab.close();
    }
  });

  it("hears read marks made in another tab, and gets announcements with the account's own count", async () => {
    const who = await signUp(t, 'orange.localhost');
    const id = await accountId('orange.localhost', who.token);
    const message = await send('orange.localhost', id, '未读');
    const tab = await openEventStream(base, 'orange.localhost', who.token);
    try {
      // the message and the merchant's welcome announcement
      await tab.next((e) => e.type === 'UNREAD_QUANTITY' && e.unread_quantity === 2);
      const from = tab.events.length;
      await t.api('orange.localhost', who.token).data('PUT', '/msg-center/station-msg/read-status', { body: { id: message.id } });
      expect(await tab.next((e) => e.type === 'UNREAD_QUANTITY', { from })).toMatchObject({ unread_quantity: 1 });
      const merchant = await merchantId('orange.localhost');
      const notice = await t.database.db.transaction((tx) => t.services.messages.announce(tx, { merchantId: merchant, title: '橙意公告', content: '<p>公告</p>' }));
      expect(await tab.next((e) => e.id === notice.id)).toMatchObject({ type: 'ANNOUNCEMENT', kind: 'announcement', title: '橙意公告', unread_quantity: 2 });
    } finally {
      tab.close();
    }
  });

  it("never carries another account's message nor another merchant's announcement", async () => {
    const owner = await signUp(t, 'red.localhost');
    const other = await signUp(t, 'red.localhost');
    const elsewhere = await signUp(t, 'purple.localhost');
    const otherTab = await openEventStream(base, 'red.localhost', other.token);
    const purpleTab = await openEventStream(base, 'purple.localhost', elsewhere.token);
    try {
      await otherTab.next((e) => e.type === 'UNREAD_QUANTITY');
      await purpleTab.next((e) => e.type === 'UNREAD_QUANTITY');
      const secret = await send('red.localhost', await accountId('red.localhost', owner.token), '私信');
      const merchant = await merchantId('red.localhost');
      const notice = await t.database.db.transaction((tx) => t.services.messages.announce(tx, { merchantId: merchant, title: '赤焰公告', content: '<p>x</p>' }));
      // the other red account gets the announcement (so events did flow), but never the private message
      await otherTab.next((e) => e.id === notice.id);
      // what each stream is sent after the private message comes after it: once these have arrived, so
      // would have the private message, had it been sent to either
      const laterOwn = await send('red.localhost', await accountId('red.localhost', other.token), '之后');
      const laterPurple = await send('purple.localhost', await accountId('purple.localhost', elsewhere.token), '之后');
      await otherTab.next((e) => e.id === laterOwn.id);
      await purpleTab.next((e) => e.id === laterPurple.id);
      expect(otherTab.events.map((e) => e.id)).not.toContain(secret.id);
      expect(purpleTab.events.map((e) => e.id)).not.toContain(secret.id);
      expect(purpleTab.events.map((e) => e.id)).not.toContain(notice.id);
    } finally {
      otherTab.close();
      purpleTab.close();
    }
  });

  it("hears a movement made inside a caller's transaction once that transaction commits, and never one that rolled back", async () => {
    const who = await signUp(t, 'blue.localhost');
    const merchant = await merchantId('blue.localhost');
    const id = await accountId('blue.localhost', who.token);
    const tab = await openEventStream(base, 'blue.localhost', who.token);
    const books = ledgerOn(t.database.db, t.clock);
    const recharge = (amount: bigint) => ({ merchantId: merchant, key: `within-${Math.random().toString(36).slice(2)}`, accountId: id, currency: 'USD' as const, amount });
    try {
      await tab.next((e) => e.type === 'UNREAD_QUANTITY');
      const from = tab.events.length;
      // the caller's work fails after the money moved inside it: nothing moved, nothing is heard
      await expect(
        t.database.db.transaction(async (tx) => {
          await books.within(tx).recharge(recharge(1_00n));
          throw new Error('the caller changes its mind');
        }),
      ).rejects.toThrow('the caller changes its mind');
      await t.database.db.transaction(async (tx) => {
        await books.within(tx).recharge(recharge(2_00n));
      });
      await tab.next((e) => e.type === 'BALANCE_CHANGED', { from });
      const heard = tab.events.slice(from).filter((e) => e.type === 'BALANCE_CHANGED');
      expect(heard).toHaveLength(1);
      expect(heard[0]?.balances?.[0]).toEqual({ currency: 'USD', available: '2.00', anew: '0.00' });
    } finally {
      tab.close();
    }
  });

  it('tells every open tab of the account what its wallet holds after each movement, and no one else', async () => {
    const who = await signUp(t, 'blue.localhost');
    const bystander = await signUp(t, 'blue.localhost');
    const elsewhere = await signUp(t, 'purple.localhost');
    const merchant = await merchantId('blue.localhost');
    const id = await accountId('blue.localhost', who.token);
    const tabs = [await openEventStream(base, 'blue.localhost', who.token), await openEventStream(base, 'blue.localhost', who.token)];
    const otherTabs = [await openEventStream(base, 'blue.localhost', bystander.token), await openEventStream(base, 'purple.localhost', elsewhere.token)];
    const books = ledgerOn(t.database.db, t.clock);
    const key = () => `events-${Math.random().toString(36).slice(2)}`;
    const balanceEvent = (usd: { available: string; anew: string }) => ({
      type: 'BALANCE_CHANGED',
      balances: [
        { currency: 'USD', ...usd },
        { currency: 'CNY', available: '0.00', anew: '0.00' },
      ],
      card_amount: [
        { currency: 'USD', amount: '0.00' },
        { currency: 'CNY', amount: '0.00' },
      ],
    });
    try {
      for (const tab of [...tabs, ...otherTabs]) await tab.next((e) => e.type === 'UNREAD_QUANTITY');
      const recharge = { merchantId: merchant, key: key(), accountId: id, currency: 'USD' as const, amount: 12_345n };
      await books.recharge(recharge);
      for (const tab of tabs) expect(await tab.next((e) => e.type === 'BALANCE_CHANGED')).toMatchObject(balanceEvent({ available: '123.45', anew: '0.00' }));

      const hold = await books.holdFunds({ merchantId: merchant, key: key(), accountId: id, currency: 'USD', amount: 2_000n });
      for (const tab of tabs) {
        await tab.next((e) => e.type === 'BALANCE_CHANGED' && e.balances?.[0]?.anew === '20.00');
        expect(tab.events.at(-1)).toMatchObject(balanceEvent({ available: '103.45', anew: '20.00' }));
      }
      // a replayed request moves nothing and says nothing: the next event is the release's
      const from = tabs[0]?.events.length ?? 0;
      expect((await books.recharge(recharge)).replayed).toBe(true);
      await books.releaseHold({ merchantId: merchant, key: key(), holdId: hold.answer.holdId as string });
      const next = await tabs[0]?.next((e) => e.type === 'BALANCE_CHANGED', { from });
      expect(next).toMatchObject(balanceEvent({ available: '123.45', anew: '0.00' }));
      expect(tabs[0]?.events.slice(from).filter((e) => e.type === 'BALANCE_CHANGED')).toHaveLength(1);

      // the others heard nothing of it (a message to the bystander proves their streams flow)
      const proof = await send('blue.localhost', await accountId('blue.localhost', bystander.token), '到账');
      await otherTabs[0]?.next((e) => e.id === proof.id);
      for (const tab of otherTabs) expect(tab.events.filter((e) => e.type === 'BALANCE_CHANGED')).toEqual([]);
    } finally {
      for (const tab of [...tabs, ...otherTabs]) tab.close();
    }
  });

  it('ends when the session logs out, and when a password reset ends every session', async () => {
    const who = await signUp(t);
    const tab = await openEventStream(base, 'localhost', who.token);
    await tab.next((e) => e.type === 'UNREAD_QUANTITY');
    await t.api('localhost', who.token).data('DELETE', '/account/login');
    await tab.untilEnded();

    const other = await signUp(t);
    const second = await openEventStream(base, 'localhost', other.token);
    await second.next((e) => e.type === 'UNREAD_QUANTITY');
    const ip = freshIp();
    await t.api().post('/account/forget-password/code', { phone_info: { phone: other.phone, phone_prefix: '86' } }, { remoteAddress: ip });
    const { data } = await t.api().post<{ ticket: string }>('/account/forget-password/check', {
      phone_info: { phone: other.phone, phone_prefix: '86' },
      captcha: await lastCode(t, phoneTo(other.phone)),
    });
    await t.api().put('/account/forget-password', { phone_info: { phone: other.phone, phone_prefix: '86' }, password: 'Another1Pass', ticket: data.ticket });
    await second.untilEnded();
  });

  it('holds at most ten streams of one session: the eleventh ends the oldest, and other sessions keep theirs', async () => {
    const who = await signUp(t, 'red.localhost');
    const otherSession = await signIn(t, 'red.localhost', { phone: who.phone });
    const elsewhere = await openEventStream(base, 'red.localhost', otherSession.token);
    const tabs = [];
    try {
      await elsewhere.next((e) => e.type === 'UNREAD_QUANTITY');
      for (let n = 0; n < 10; n++) {
        const tab = await openEventStream(base, 'red.localhost', who.token);
        await tab.next((e) => e.type === 'UNREAD_QUANTITY');
        tabs.push(tab);
      }
      const eleventh = await openEventStream(base, 'red.localhost', who.token);
      tabs.push(eleventh);
      await eleventh.next((e) => e.type === 'UNREAD_QUANTITY');
      await tabs[0]?.untilEnded(2000);
      // the ten newest, and the other session's, still carry events
      const message = await send('red.localhost', await accountId('red.localhost', who.token), '十个以内');
      for (const tab of [...tabs.slice(1), elsewhere]) await tab.next((e) => e.id === message.id);
    } finally {
      for (const tab of [...tabs, elsewhere]) tab.close();
    }
  });

  it('sends heartbeats well inside the 60 s the portal waits', async () => {
    expect(HEARTBEAT_SECONDS).toBeLessThanOrEqual(30);
    const who = await signUp(t);
    const tab = await openEventStream(base, 'localhost', who.token);
    try {
      await tab.next((e) => e.type === 'UNREAD_QUANTITY');
      t.hub.beat();
      await tab.next((e) => e.type === 'HEARTBEAT');
    } finally {
      tab.close();
    }
  });

  it('refuses a call without a full session with the session codes, not a stream', async () => {
    const none = await t.api().get('/events');
    expect([none.status, none.code]).toEqual([401, 605]);
    const bad = await t.api('localhost', 'nope').get('/events');
    expect(bad.code).toBe(606);
  });
});
