import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/engine.ts';
import { rowsOf } from '../../db/raw-rows.ts';
import { members, webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents } from '../../db/schema.ts';

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;
type Reader = Tx | Db;

export async function insertEndpoint(tx: Tx, values: typeof webhookEndpoints.$inferInsert) {
  const [row] = await tx.insert(webhookEndpoints).values(values).returning();
  if (!row) throw new Error('webhook endpoint insert returned nothing');
  return row;
}

export function listEndpoints(tx: Reader, accountId: string) {
  return tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.accountId, accountId)).orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id));
}

export async function countEndpoints(tx: Tx, accountId: string) {
  const [row] = await tx.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.accountId, accountId));
  return row?.n ?? 0;
}

/** One endpoint of the account, locked for a change. */
export async function lockEndpoint(tx: Tx, accountId: string, id: string) {
  const [row] = await tx
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.accountId, accountId), eq(webhookEndpoints.id, id)))
    .for('update');
  return row;
}

export async function updateEndpoint(tx: Tx, id: string, changes: Partial<EndpointRow>) {
  const [row] = await tx.update(webhookEndpoints).set(changes).where(eq(webhookEndpoints.id, id)).returning();
  if (!row) throw new Error(`webhook endpoint ${id} vanished`);
  return row;
}

export async function deleteEndpoint(tx: Tx, id: string) {
  await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id));
}

/** Locks the account's endpoints' count: endpoints are added one at a time an account. */
export async function lockAccountEndpoints(tx: Tx, accountId: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`webhook-endpoints:${accountId}`}))`);
}

export interface NewEvent {
  merchantId: string;
  accountId: string;
  type: string;
  orderKey: string | null;
  data: Record<string, unknown>;
  at: Date;
}

/** The channel whose notice wakes the senders of every process: an event's deliveries were committed. */
export const WEBHOOK_DUE_CHANNEL = 'webhook_due';

/**
 * The event and one delivery per active endpoint of the account subscribed to its type, in one
 * statement; nothing at all when no endpoint is (the usual case on the money path). When it wrote any,
 * the same statement tells the senders (NOTIFY, heard by every process once the transaction commits;
 * a transaction's notices of one channel and payload reach them once). Answers how many deliveries were written.
 */
export async function writeEvent(tx: Tx, event: NewEvent): Promise<number> {
  const at = event.at.toISOString();
  const rows = await rowsOf(
    tx.execute(sql`
      with ep as (
        select id from webhook_endpoints
        where account_id = ${event.accountId} and status = 'ACTIVE' and ${event.type} = any(events)
      ), ev as (
        insert into webhook_events (merchant_id, account_id, type, order_key, data, created_at)
        select ${event.merchantId}, ${event.accountId}, ${event.type}, ${event.orderKey}, ${JSON.stringify(event.data)}::jsonb, ${at}::timestamptz
        where exists (select 1 from ep)
        returning id
      ), d as (
        insert into webhook_deliveries (event_id, endpoint_id, account_id, order_key, next_attempt_at, created_at)
        select ev.id, ep.id, ${event.accountId}, ${event.orderKey}, ${at}::timestamptz, ${at}::timestamptz from ev cross join ep
        returning 1
      ), written as (select count(*)::int as n from d)
      select written.n, pg_notify(${WEBHOOK_DUE_CHANNEL}, '') as told from written where written.n > 0`),
  );
  return Number(rows[0]?.n ?? 0);
}

/** A delivery taken to be sent, with what the send needs. */
export interface ClaimedDelivery {
  id: string;
  /** the lease this sender holds it under: its outcome is written only while the lease is still this one */
  leaseUntil: Date;
  attempts: number;
  firstAttemptAt: Date;
  endpointId: string;
  accountId: string;
  merchantId: string;
  url: string;
  secretSealed: string;
  eventId: string;
  eventType: string;
  eventData: Record<string, unknown>;
  eventAt: Date;
}

/**
 * Takes up to `limit` deliveries that are due, holding each until `leaseUntil`: of active endpoints,
 * not held by another sender (or held past its lease: that sender died), and of a card only the
 * earliest still pending to that endpoint (its later events wait for it).
 */
export async function claimDue(tx: Reader, now: Date, leaseUntil: Date, limit: number): Promise<ClaimedDelivery[]> {
  const at = now.toISOString();
  const rows = await rowsOf(
    tx.execute(sql`
      with due as (
        select d.id from webhook_deliveries d
        where d.status = 'PENDING' and d.next_attempt_at <= ${at}::timestamptz
          and exists (select 1 from webhook_endpoints e where e.id = d.endpoint_id and e.status = 'ACTIVE')
          and (d.lease_until is null or d.lease_until < ${at}::timestamptz)
          and (d.order_key is null or not exists (
            select 1 from webhook_deliveries p
            where p.endpoint_id = d.endpoint_id and p.order_key = d.order_key and p.status = 'PENDING' and p.seq < d.seq))
        order by d.seq
        limit ${limit}
        for update of d skip locked
      ), taken as (
        update webhook_deliveries w set lease_until = ${leaseUntil.toISOString()}::timestamptz, first_attempt_at = coalesce(w.first_attempt_at, ${at}::timestamptz)
        from due where w.id = due.id
        returning w.id, w.attempts, w.first_attempt_at, w.endpoint_id, w.account_id, w.event_id, w.seq
      )
      select taken.id, taken.attempts, taken.first_attempt_at, taken.endpoint_id, taken.account_id, e.merchant_id, e.url, e.secret_sealed,
             ev.id as event_id, ev.type as event_type, ev.data as event_data, ev.created_at as event_at
      from taken join webhook_endpoints e on e.id = taken.endpoint_id join webhook_events ev on ev.id = taken.event_id
      order by taken.seq`),
  );
  return rows.map((row) => ({
    id: String(row.id),
    leaseUntil,
    attempts: Number(row.attempts),
    firstAttemptAt: new Date(row.first_attempt_at as string),
    endpointId: String(row.endpoint_id),
    accountId: String(row.account_id),
    merchantId: String(row.merchant_id),
    url: String(row.url),
    secretSealed: String(row.secret_sealed),
    eventId: String(row.event_id),
    eventType: String(row.event_type),
    eventData: (typeof row.event_data === 'string' ? JSON.parse(row.event_data) : row.event_data) as Record<string, unknown>,
    eventAt: new Date(row.event_at as string),
  }));
}

/** When the next pending delivery falls due (null: none waits). */
export async function nextDue(tx: Reader): Promise<Date | null> {
  const rows = await rowsOf(
    tx.execute(sql`select min(greatest(d.next_attempt_at, coalesce(d.lease_until, d.next_attempt_at))) as at from webhook_deliveries d
      join webhook_endpoints e on e.id = d.endpoint_id and e.status = 'ACTIVE' where d.status = 'PENDING'
        and (d.order_key is null or not exists (
          select 1 from webhook_deliveries p
          where p.endpoint_id = d.endpoint_id and p.order_key = d.order_key and p.status = 'PENDING' and p.seq < d.seq))`),
  );
  const at = rows[0]?.at;
  return at ? new Date(at as string) : null;
}

export async function insertAttempt(tx: Tx, values: typeof webhookAttempts.$inferInsert) {
  await tx.insert(webhookAttempts).values(values);
}

/**
 * Changes a delivery; with `heldUntil`, only while its sender still holds it under that lease (answers
 * false when the lease was lost: another sender took it, and its outcome is that one's to write).
 */
export async function settleDelivery(tx: Tx, id: string, changes: Partial<DeliveryRow>, heldUntil?: Date) {
  const rows = await tx
    .update(webhookDeliveries)
    .set(changes)
    .where(and(eq(webhookDeliveries.id, id), heldUntil ? eq(webhookDeliveries.leaseUntil, heldUntil) : undefined))
    .returning({ id: webhookDeliveries.id });
  return rows.length > 0;
}

export async function lockDelivery(tx: Tx, accountId: string, id: string) {
  const [row] = await tx
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.accountId, accountId), eq(webhookDeliveries.id, id)))
    .for('update');
  return row;
}

export async function deliveriesPage(tx: Reader, endpointId: string, page: number, pageSize: number, status?: string) {
  const where = and(eq(webhookDeliveries.endpointId, endpointId), status ? eq(webhookDeliveries.status, status) : undefined);
  const [total] = await tx.select({ n: count() }).from(webhookDeliveries).where(where);
  const rows = await tx
    .select({ delivery: webhookDeliveries, event: webhookEvents })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(where)
    .orderBy(desc(webhookDeliveries.seq))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return { total: total?.n ?? 0, rows };
}

export async function deliveryWithEvent(tx: Reader, id: string) {
  const [row] = await tx
    .select({ delivery: webhookDeliveries, event: webhookEvents })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(eq(webhookDeliveries.id, id));
  return row;
}

export async function attemptsOf(tx: Reader, deliveryIds: string[]) {
  if (deliveryIds.length === 0) return [];
  return tx.select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, deliveryIds)).orderBy(desc(webhookAttempts.at));
}

/** The endpoint failed: marks since when, unless it failed already; answers the endpoint. */
export async function markFailing(tx: Tx, endpointId: string, at: Date) {
  const [row] = await tx
    .update(webhookEndpoints)
    .set({ failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${at.toISOString()}::timestamptz)` })
    .where(eq(webhookEndpoints.id, endpointId))
    .returning();
  return row;
}

/** A delivered try, to be recorded with others (recordDelivered). */
export interface DeliveredTry {
  id: string;
  endpointId: string;
  /** the lease the sender held it under */
  leaseUntil: Date;
  attempts: number;
  at: Date;
  statusCode: number | null;
  excerpt: string;
  durationMs: number;
}

/**
 * Delivered tries, any number, in one statement: each its log line; each delivery done if the sender
 * still holds it under the lease it claimed it with (one that lapsed and was taken by another sender
 * is that sender's to record); their endpoints no longer failing.
 */
export async function recordDelivered(tx: Reader, tries: DeliveredTry[]) {
  if (tries.length === 0) return;
  const rows = JSON.stringify(
    tries.map((one) => ({
      id: one.id,
      endpoint_id: one.endpointId,
      lease_until: one.leaseUntil.toISOString(),
      attempts: one.attempts,
      at: one.at.toISOString(),
      status_code: one.statusCode,
      excerpt: one.excerpt,
      duration_ms: one.durationMs,
    })),
  );
  await tx.execute(sql`
    with done as (
      select * from jsonb_to_recordset(${rows}::jsonb)
        as t(id uuid, endpoint_id uuid, lease_until timestamptz, attempts int, at timestamptz, status_code int, excerpt text, duration_ms int)
    ), logged as (
      insert into webhook_attempts (delivery_id, at, status_code, error, answer_excerpt, duration_ms)
      select done.id, done.at, done.status_code, null, done.excerpt, done.duration_ms from done
    ), marked as (
      update webhook_deliveries w set status = 'DELIVERED', attempts = done.attempts, delivered_at = done.at, lease_until = null
      from done where w.id = done.id and w.status = 'PENDING' and w.lease_until = done.lease_until
    )
    update webhook_endpoints set failing_since = null where id in (select endpoint_id from done) and failing_since is not null`);
}

/** Disables an endpoint that is still active (answers it then; undefined when it was not). */
export async function disableFailing(tx: Tx, endpointId: string) {
  const [row] = await tx
    .update(webhookEndpoints)
    .set({ status: 'DISABLED', disabledReason: 'FAILING' })
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.status, 'ACTIVE')))
    .returning();
  return row;
}

/** The account's owner: the station message about a disabled endpoint is addressed to them (and seen by the admins). */
export async function ownerOf(tx: Tx, accountId: string) {
  const [row] = await tx
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.accountId, accountId), eq(members.role, 'OWNER')))
    .limit(1);
  return row?.id;
}

/**
 * Deletes up to `limit` events written before `before` whose deliveries are all ended (delivered or
 * given up), with their deliveries and tries (the foreign keys cascade); answers how many. An event
 * still pending to some endpoint (one disabled while it waited) is kept with its log.
 */
export async function pruneEvents(tx: Reader, before: Date, limit: number): Promise<number> {
  const rows = await rowsOf(
    tx.execute(sql`
      with old as (
        select e.id from webhook_events e
        where e.created_at < ${before.toISOString()}::timestamptz
          and not exists (select 1 from webhook_deliveries d where d.event_id = e.id and d.status = 'PENDING')
        order by e.created_at
        limit ${limit}
      ), gone as (
        delete from webhook_events e using old where e.id = old.id returning 1
      )
      select count(*)::int as n from gone`),
  );
  return Number(rows[0]?.n ?? 0);
}
