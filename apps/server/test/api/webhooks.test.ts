/**
 * Customers' webhooks: endpoints managed by the owner and admins, events written with the change that
 * causes them, deliveries signed as Standard Webhooks and verified here with its own verifier, retried
 * under the same webhook-id with a card's events kept in order, a slow endpoint cut off, an endpoint
 * failing past the give-up time disabled and the team told.
 */
import type { WebhookDelivery, WebhookDeliveryPage, WebhookItem, WebhookSecret } from '@portal/contract/webhooks';
import { WebhookErrorCode } from '@portal/contract/webhook-errors';
import { ApiKeyErrorCode } from '@portal/contract/developer-errors';
import { TeamErrorCode } from '@portal/contract/team-errors';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { queryRows } from '../helpers/sql.ts';
import { joinTeam, type Teammate, teamOwner } from '../helpers/team.ts';
import { until } from '../helpers/until.ts';
import { webhookReceiver } from '../helpers/webhook-receiver.ts';

let t: TestApp;
const receivers: Array<Awaited<ReturnType<typeof webhookReceiver>>> = [];
beforeAll(async () => {
  // tries a fraction of a second apart, an event given up after 8 s, a send cut off after 2 s
  t = await createTestApp({ config: { webhooks: { timeoutMs: 2000, retryDelaysSeconds: [0.2, 0.4], giveUpSeconds: 8 } } });
});
afterAll(async () => {
  for (const receiver of receivers) await receiver.close();
  await t?.close();
});

async function receiver() {
  const made = await webhookReceiver();
  receivers.push(made);
  return made;
}

async function addEndpoint(who: Teammate, body: Record<string, unknown>) {
  return who.api.post<WebhookSecret>('/developer/webhooks', body);
}

let serial = 0;
async function fund(who: Teammate, amount = 10_00n) {
  const [row] = await queryRows<{ merchant_id: string }>(t.database.db, sql`select merchant_id from accounts where id = ${who.accountId}`);
  serial += 1;
  await t.services.ledger.recharge({ merchantId: String(row?.merchant_id), accountId: who.accountId, currency: 'USD', amount, key: `webhook-fund-${who.accountId}-${serial}` });
}

/** An event of a card, emitted as the cards module does: in a transaction of its own here. */
async function cardEvent(who: Teammate, cardId: string, n: number) {
  const [row] = await queryRows<{ merchant_id: string }>(t.database.db, sql`select merchant_id from accounts where id = ${who.accountId}`);
  await t.database.db.transaction((tx) =>
    t.services.webhooks.emit(tx, { merchantId: String(row?.merchant_id), accountId: who.accountId, type: 'card.status_changed', cardId, data: { card_id: cardId, n } }),
  );
}

const deliveriesOf = (who: Teammate, id: string) => who.api.data<WebhookDeliveryPage>('GET', `/developer/webhooks/${id}/deliveries`);

describe('an endpoint', () => {
  it('answers its secret once, keeps it sealed, and receives a wallet change signed as Standard Webhooks', async () => {
    const who = await teamOwner(t);
    const hook = await receiver();
    const made = await addEndpoint(who, { url: hook.url, events: ['wallet.balance_changed'], description: '记账系统' });
    expect(made.code, made.message).toBe(0);
    expect(made.data.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
    expect(made.data).toMatchObject({ url: hook.url, events: ['wallet.balance_changed'], description: '记账系统', status: 'ACTIVE' });
    const [row] = await queryRows<Record<string, unknown>>(t.database.db, sql`select * from webhook_endpoints where id = ${made.data.id}`);
    expect(JSON.stringify(row)).not.toContain(made.data.secret.slice(8));
    const listed = await who.api.data<{ items: WebhookItem[] }>('GET', '/developer/webhooks');
    expect(listed.items.map((item) => item.id)).toEqual([made.data.id]);
    expect(JSON.stringify(listed)).not.toContain(made.data.secret.slice(8));

    await fund(who, 12_34n);
    const [got] = await until('the delivery', async () => (hook.received.length > 0 ? hook.received : undefined));
    if (!got) throw new Error('nothing received');
    const verified = new Webhook(made.data.secret).verify(got.body, {
      'webhook-id': String(got.headers['webhook-id']),
      'webhook-timestamp': String(got.headers['webhook-timestamp']),
      'webhook-signature': String(got.headers['webhook-signature']),
    }) as { id: string; type: string; data: Record<string, unknown> };
    expect(verified).toMatchObject({ type: 'wallet.balance_changed', data: { currency: 'USD', available_before: '0.00', available: '12.34' } });
    expect(verified.id).toBe(got.headers['webhook-id']);
    // another secret does not verify it
    expect(() => new Webhook(`whsec_${Buffer.alloc(24, 1).toString('base64')}`).verify(got.body, got.headers as Record<string, string>)).toThrow();

    const log = await until('the log', async () => {
      const page = await deliveriesOf(who, made.data.id);
      return page.items[0]?.status === 'DELIVERED' ? page : undefined;
    });
    expect(log.items[0]).toMatchObject({ event_type: 'wallet.balance_changed', attempts: 1, event_id: verified.id });
    expect(log.items[0]?.log[0]).toMatchObject({ status_code: 200, answer_excerpt: 'ok', error: null });
  });

  it('sends only the events an endpoint chose, and nothing once it is disabled; enabling it again sends what waited', async () => {
    const who = await teamOwner(t);
    const hook = await receiver();
    const made = await addEndpoint(who, { url: hook.url, events: ['card.created'] });
    await fund(who);
    const disabled = await who.api.put<WebhookItem>(`/developer/webhooks/${made.data.id}`, { events: ['wallet.balance_changed'], enabled: false });
    expect(disabled.data).toMatchObject({ status: 'DISABLED', disabled_reason: 'MANUAL', events: ['wallet.balance_changed'] });
    await fund(who);
    expect((await deliveriesOf(who, made.data.id)).total).toBe(0);
    expect((await who.api.put<WebhookItem>(`/developer/webhooks/${made.data.id}`, { enabled: true })).data.status).toBe('ACTIVE');
    await fund(who);
    await until('the enabled endpoint’s delivery', async () => hook.received.length === 1);
    expect(hook.bodies().map((body) => body.type)).toEqual(['wallet.balance_changed']);
  });

  it('retries a failing endpoint under the same webhook-id, keeps a card’s events in order, and redelivers under that id', async () => {
    const who = await teamOwner(t);
    const hook = await receiver();
    let failures = 3;
    hook.answerWith(() => (failures-- > 0 ? { status: 503, body: '维护中' } : { status: 204 }));
    const made = await addEndpoint(who, { url: hook.url, events: ['card.status_changed'] });
    const card = crypto.randomUUID();
    for (let n = 1; n <= 3; n += 1) await cardEvent(who, card, n);
    await until('all three delivered', async () => {
      const page = await deliveriesOf(who, made.data.id);
      return page.items.length === 3 && page.items.every((item) => item.status === 'DELIVERED');
    });
    // the first event's three failed tries, then it, then the later two: never a later one first
    const ids = hook.received.map((one) => String(one.headers['webhook-id']));
    const order = hook.bodies().map((body) => body.data.n);
    expect(order).toEqual([1, 1, 1, 1, 2, 3]);
    expect(new Set(ids.slice(0, 4)).size).toBe(1);
    const page = await deliveriesOf(who, made.data.id);
    const first = page.items.find((item) => item.event_id === ids[0]) as WebhookDelivery;
    expect(first.attempts).toBe(4);
    // newest first: the 2xx, then three failed tries (503s; on a loaded machine one may be a timeout)
    expect(first.log[0]?.status_code).toBe(204);
    expect(first.log.slice(1).every((entry) => entry.status_code !== 204 && entry.error !== null)).toBe(true);
    expect(first.log.some((entry) => entry.status_code === 503 && entry.answer_excerpt === '维护中')).toBe(true);

    const again = await who.api.post<WebhookDelivery>(`/developer/webhooks/deliveries/${first.id}/redeliver`, {});
    expect(again.code, again.message).toBe(0);
    await until('the redelivery', async () => hook.received.length === 7);
    expect(hook.received[6]?.headers['webhook-id']).toBe(ids[0]);
  });

  it('cuts off a slow endpoint at the time limit and logs the try', async () => {
    const who = await teamOwner(t);
    const hook = await receiver();
    hook.answerWith(() => ({ status: 200, waitMs: 8000 }));
    const made = await addEndpoint(who, { url: hook.url, events: ['wallet.balance_changed'] });
    const started = Date.now();
    await fund(who);
    const tried = await until('a timed-out try', async () => {
      const item = (await deliveriesOf(who, made.data.id)).items[0];
      return item && item.log.length > 0 ? item : undefined;
    });
    expect(tried.log.at(-1)).toMatchObject({ status_code: null });
    expect(tried.log.at(-1)?.error).toContain('超时');
    // cut off well before the receiver's 8 s answer
    expect(tried.log.at(-1)?.duration_ms).toBeLessThan(6000);
    expect(Date.now() - started).toBeLessThan(8000);
    hook.answerWith(() => ({ status: 200 }));
  });

  it('gives an event up and disables an endpoint failing past the give-up time, telling the owner and admins', async () => {
    const who = await teamOwner(t);
    const hook = await receiver();
    hook.answerWith(() => ({ status: 500 }));
    const made = await addEndpoint(who, { url: hook.url, events: ['wallet.balance_changed'] });
    await fund(who);
    const ended = await until(
      'the endpoint disabled',
      async () => {
        const item = (await who.api.data<{ items: WebhookItem[] }>('GET', '/developer/webhooks')).items[0];
        return item?.status === 'DISABLED' ? item : undefined;
      },
      25_000,
    );
    expect(ended.disabled_reason).toBe('FAILING');
    const delivery = (await deliveriesOf(who, made.data.id)).items[0];
    expect(delivery?.status).toBe('FAILED');
    const messages = await who.api.data<{ items: Array<{ title: string; content: string }> }>('GET', '/msg-center/station-msg/list', { query: { page: 1, page_size: 20 } });
    expect(messages.items.some((message) => message.title === 'Webhook 端点已自动停用' && message.content.includes(hook.url))).toBe(true);
    const redeliver = await who.api.post(`/developer/webhooks/deliveries/${delivery?.id}/redeliver`, {});
    expect(redeliver.code).toBe(WebhookErrorCode.WEBHOOK_DISABLED);
  });

  it('rotates the secret: the next delivery verifies with the new one only', async () => {
    const who = await teamOwner(t);
    const hook = await receiver();
    const made = await addEndpoint(who, { url: hook.url, events: ['wallet.balance_changed'] });
    const rotated = await who.api.post<WebhookSecret>(`/developer/webhooks/${made.data.id}/rotate-secret`, {});
    expect(rotated.code).toBe(0);
    expect(rotated.data.secret).not.toBe(made.data.secret);
    await fund(who);
    const [got] = await until('the delivery', async () => (hook.received.length > 0 ? hook.received : undefined));
    const headers = got?.headers as Record<string, string>;
    expect(() => new Webhook(rotated.data.secret).verify(got?.body ?? '', headers)).not.toThrow();
    expect(() => new Webhook(made.data.secret).verify(got?.body ?? '', headers)).toThrow();
  });
});

describe('who may', () => {
  it('lets the owner and admins manage endpoints, and no other role nor any key', async () => {
    const who = await teamOwner(t);
    const admin = await joinTeam(t, who, 'ADMIN');
    const made = await addEndpoint(admin, { url: 'https://hooks.example.com/a', events: ['card.created'] });
    expect(made.code, made.message).toBe(0);
    for (const role of ['FINANCE', 'MEMBER', 'VIEWER'] as const) {
      const mate = await joinTeam(t, who, role);
      expect((await mate.api.get('/developer/webhooks')).code).toBe(TeamErrorCode.PERMISSION_DENIED);
      expect((await addEndpoint(mate, { url: 'https://hooks.example.com/b', events: ['card.created'] })).code).toBe(TeamErrorCode.PERMISSION_DENIED);
    }
    expect((await who.api.put('/account/trx-password', { trx_password: 'Trade123', password: PASSWORD })).code).toBe(0);
    const key = await who.api.post<{ secret: string }>('/developer/api-keys', { name: '脚本', scopes: ['cards:read'], trx_password: 'Trade123' });
    expect((await who.api.withToken(key.data.secret).get('/developer/webhooks')).code).toBe(ApiKeyErrorCode.KEY_CALL_REFUSED);
    expect((await who.api.data<{ items: WebhookItem[] }>('GET', '/developer/webhooks')).items).toHaveLength(1);
  });

  it('keeps every account’s endpoints and deliveries its own, at the same merchant and another', async () => {
    const who = await teamOwner(t);
    const hook = await receiver();
    const made = await addEndpoint(who, { url: hook.url, events: ['wallet.balance_changed'] });
    await fund(who);
    const delivery = await until('a delivery', async () => (await deliveriesOf(who, made.data.id)).items[0]);
    for (const other of [await teamOwner(t), await teamOwner(t, 'orange.localhost')]) {
      expect((await other.api.data<{ items: WebhookItem[] }>('GET', '/developer/webhooks')).items).toEqual([]);
      expect((await other.api.get(`/developer/webhooks/${made.data.id}/deliveries`)).code).toBe(WebhookErrorCode.WEBHOOK_NOT_FOUND);
      expect((await other.api.put(`/developer/webhooks/${made.data.id}`, { enabled: false })).code).toBe(WebhookErrorCode.WEBHOOK_NOT_FOUND);
      expect((await other.api.post(`/developer/webhooks/${made.data.id}/rotate-secret`, {})).code).toBe(WebhookErrorCode.WEBHOOK_NOT_FOUND);
      expect((await other.api.delete(`/developer/webhooks/${made.data.id}`)).code).toBe(WebhookErrorCode.WEBHOOK_NOT_FOUND);
      expect((await other.api.post(`/developer/webhooks/deliveries/${delivery.id}/redeliver`, {})).code).toBe(WebhookErrorCode.WEBHOOK_DELIVERY_NOT_FOUND);
      // another account's money moving sends nothing to this endpoint
      await fund(other);
    }
    const after = await who.api.data<{ items: WebhookItem[] }>('GET', '/developer/webhooks');
    expect(after.items[0]).toMatchObject({ status: 'ACTIVE', secret_hint: made.data.secret_hint });
    expect((await deliveriesOf(who, made.data.id)).total).toBe(1);
    expect((await who.api.delete<WebhookItem>(`/developer/webhooks/${made.data.id}`)).code).toBe(0);
    expect((await who.api.data<{ items: WebhookItem[] }>('GET', '/developer/webhooks')).items).toEqual([]);
  });
});

describe('keeping', () => {
  it('deletes events, deliveries and their tries past 30 days, keeping younger ones and any still pending', async () => {
    const who = await teamOwner(t);
    const made = await addEndpoint(who, { url: 'http://127.0.0.1:9/kept', events: ['card.created'] });
    // disabled: its pending delivery waits, as one of an endpoint disabled for a while does
    expect((await who.api.put(`/developer/webhooks/${made.data.id}`, { enabled: false })).code).toBe(0);
    const [account] = await queryRows<{ merchant_id: string }>(t.database.db, sql`select merchant_id from accounts where id = ${who.accountId}`);
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
    const eventAt = async (days: number, status: string) => {
      const [event] = await queryRows<{ id: string }>(
        t.database.db,
        sql`insert into webhook_events (merchant_id, account_id, type, data, created_at) values (${account?.merchant_id}, ${who.accountId}, 'card.created', '{}'::jsonb, ${daysAgo(days)}::timestamptz) returning id`,
      );
      const [delivery] = await queryRows<{ id: string }>(
        t.database.db,
        sql`insert into webhook_deliveries (event_id, endpoint_id, account_id, status, attempts, next_attempt_at, created_at)
            values (${event?.id}, ${made.data.id}, ${who.accountId}, ${status}, 1, ${daysAgo(days)}::timestamptz, ${daysAgo(days)}::timestamptz) returning id`,
      );
      await t.database.db.execute(sql`insert into webhook_attempts (delivery_id, at, status_code, duration_ms) values (${delivery?.id}, ${daysAgo(days)}::timestamptz, 200, 5)`);
      return { event: String(event?.id), delivery: String(delivery?.id) };
    };
    const old = await eventAt(31, 'DELIVERED');
    const oldFailed = await eventAt(31, 'FAILED');
    const oldPending = await eventAt(31, 'PENDING');
    const young = await eventAt(29, 'DELIVERED');
    expect(await t.services.webhooks.prune()).toBeGreaterThanOrEqual(2);
    const left = async (table: 'webhook_events' | 'webhook_deliveries', ids: string[]) =>
      (await queryRows<{ id: string }>(t.database.db, sql`select id from ${sql.raw(table)} where id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`)).map((row) => row.id).sort();
    expect(await left('webhook_events', [old.event, oldFailed.event, oldPending.event, young.event])).toEqual([oldPending.event, young.event].sort());
    expect(await left('webhook_deliveries', [old.delivery, oldFailed.delivery, oldPending.delivery, young.delivery])).toEqual([oldPending.delivery, young.delivery].sort());
    const tries = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from webhook_attempts where delivery_id in (${old.delivery}, ${oldFailed.delivery})`);
    expect(tries[0]?.n).toBe(0);
    // the log shows what is kept
    expect((await deliveriesOf(who, made.data.id)).total).toBe(2);
  });
});

describe('the team’s activity log', () => {
  it('tells of an endpoint added, disabled, enabled, its secret rotated and the endpoint deleted, never with a secret', async () => {
    const who = await teamOwner(t);
    const url = 'https://hooks.example.com/activity';
    const made = await addEndpoint(who, { url, events: ['card.created', 'wallet.balance_changed'], description: '记账系统' });
    expect(made.code, made.message).toBe(0);
    expect((await who.api.put(`/developer/webhooks/${made.data.id}`, { enabled: false })).code).toBe(0);
    expect((await who.api.put(`/developer/webhooks/${made.data.id}`, { enabled: true })).code).toBe(0);
    const rotated = await who.api.post<WebhookSecret>(`/developer/webhooks/${made.data.id}/rotate-secret`, {});
    expect(rotated.code).toBe(0);
    expect((await who.api.delete(`/developer/webhooks/${made.data.id}`)).code).toBe(0);
    // a refused change writes nothing
    expect((await who.api.delete(`/developer/webhooks/${made.data.id}`)).code).toBe(WebhookErrorCode.WEBHOOK_NOT_FOUND);
    const log = await who.api.data<{ items: Array<{ kind: string; action: string; summary: string }> }>('GET', '/team/activity', { query: { kind: 'KEY', page: 1, page_size: 20 } });
    expect(log.items.map((item) => item.summary).reverse()).toEqual([
      `添加 Webhook 端点「${url}」（记账系统），事件：card.created、wallet.balance_changed`,
      `停用 Webhook 端点「${url}」（记账系统）`,
      `启用 Webhook 端点「${url}」（记账系统）`,
      `轮换 Webhook 端点「${url}」（记账系统）的签名密钥`,
      `删除 Webhook 端点「${url}」（记账系统）`,
    ]);
    const text = JSON.stringify(log);
    expect(text).not.toContain(made.data.secret.slice(6));
    expect(text).not.toContain(rotated.data.secret.slice(6));
    // another account's log has none of it
    const other = await teamOwner(t);
    expect((await other.api.data<{ items: unknown[] }>('GET', '/team/activity', { query: { kind: 'KEY', page: 1, page_size: 20 } })).items).toEqual([]);
  });
});

describe('bad input', () => {
  it('refuses addresses and events outside the rules in 中文, making nothing', async () => {
    const who = await teamOwner(t);
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ url: 'ftp://hooks.example.com/x', events: ['card.created'] }, 1001, 'https://'],
      [{ url: 'http://hooks.example.com/x', events: ['card.created'] }, 1001, 'https://'],
      [{ url: 'not a url', events: ['card.created'] }, 1001, '回调地址'],
      [{ url: 'https://user:pw@hooks.example.com/x', events: ['card.created'] }, 1001, '回调地址'],
      [{ url: 'https://hooks.example.com/x', events: [] }, 1001, '请至少选择一个事件'],
      [{ url: 'https://hooks.example.com/x', events: ['card.exploded'] }, 1001, '未知的事件类型'],
      [{ url: 'https://hooks.example.com/x', events: ['card.created'], description: '长'.repeat(201) }, 1001, '备注'],
    ];
    for (const [body, code, words] of cases) {
      const answer = await addEndpoint(who, body);
      expect(answer.code, JSON.stringify(body)).toBe(code);
      expect(answer.message).toContain(words);
    }
    // outside production, http to this machine is allowed
    expect((await addEndpoint(who, { url: 'http://localhost:9/x', events: ['card.created'] })).code).toBe(0);
    expect((await addEndpoint(who, { url: 'http://[::1]:9/x', events: ['card.created'] })).code).toBe(0);
    const listed = await who.api.data<{ items: WebhookItem[] }>('GET', '/developer/webhooks');
    expect(listed.items).toHaveLength(2);
    const bad = await who.api.put(`/developer/webhooks/${listed.items[0]?.id}`, { url: 'http://hooks.example.com/y' });
    expect(bad.code).toBe(1001);
    expect((await who.api.data<{ items: WebhookItem[] }>('GET', '/developer/webhooks')).items).toEqual(listed.items);
    expect((await who.api.put('/developer/webhooks/not-an-id', { enabled: false })).code).toBe(WebhookErrorCode.WEBHOOK_NOT_FOUND);
  });
});
