/**
 * Customers' webhooks (shared/design/growing-customers.md §4): endpoints managed by the owner and
 * admins (`developer.webhooks`), events written by the modules whose change causes them (`emit`, inside
 * that change's transaction), and deliveries sent afterwards by the queue's jobs (delivery.ts).
 */
import { randomBytes } from 'node:crypto';
import { WebhookErrorCode } from '@portal/contract/webhook-errors';
import {
  type CreateWebhookBody,
  type UpdateWebhookBody,
  WEBHOOK_ENDPOINTS_MAX,
  type WebhookDelivery,
  type WebhookDeliveryPage,
  type WebhookEventType,
  type WebhookItem,
  type WebhookSecret,
} from '@portal/contract/webhooks';
import type { Database, Tx } from '../../db/engine.ts';
import { traceWithin } from '../../http/call-trace.ts';
import { AppError } from '../../http/errors.ts';
import { webhookCalls } from '@portal/contract/api/webhooks';
import { isUuid } from '../../lib/uuid.ts';
import type { Authenticated } from '../sessions/service.ts';
import { bodyOf, createDispatcher, DISPATCH_QUEUE, type DispatcherDeps, eventIdOf, PRUNE_QUEUE, WAKE_QUEUE, WEBHOOK_KEEP_DAYS } from './delivery.ts';
import { checkWebhookUrl } from './url-guard.ts';
import {
  type AttemptRow,
  attemptsOf,
  countEndpoints,
  type DeliveryRow,
  deleteEndpoint,
  deliveriesPage,
  deliveryWithEvent,
  type EndpointRow,
  insertEndpoint,
  listEndpoints,
  lockAccountEndpoints,
  lockDelivery,
  lockEndpoint,
  pruneEvents,
  settleDelivery,
  updateEndpoint,
  writeEvent,
} from './store.ts';

/** Who manages endpoints: a member of the account (the route table has checked their role). */
export type WebhookManager = Pick<Authenticated, 'account' | 'member'>;

/** What a module emits: the change's event, for one account; `cardId` orders a card's events per endpoint. */
export interface WebhookEvent {
  merchantId: string;
  accountId: string;
  type: WebhookEventType;
  data: Record<string, unknown>;
  cardId?: string | null;
}

const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;
const hintOf = (secret: string) => `${secret.slice(0, 10)}…`;

function view(row: EndpointRow): WebhookItem {
  return {
    id: row.id,
    url: row.url,
    events: row.events as WebhookEventType[],
    description: row.description,
    status: row.status as WebhookItem['status'],
    disabled_reason: (row.disabledReason as WebhookItem['disabled_reason']) ?? null,
    secret_hint: row.secretHint,
    failing_since: row.failingSince?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

function deliveryView(delivery: DeliveryRow, event: { id: string; type: string; createdAt: Date; data: Record<string, unknown> }, log: AttemptRow[]): WebhookDelivery {
  return {
    id: delivery.id,
    event_id: eventIdOf(event.id),
    event_type: event.type as WebhookEventType,
    status: delivery.status as WebhookDelivery['status'],
    attempts: delivery.attempts,
    next_attempt_at: delivery.status === 'PENDING' ? delivery.nextAttemptAt.toISOString() : null,
    created_at: delivery.createdAt.toISOString(),
    delivered_at: delivery.deliveredAt?.toISOString() ?? null,
    log: log.map((row) => ({ at: row.at.toISOString(), status_code: row.statusCode, error: row.error, answer_excerpt: row.answerExcerpt, duration_ms: row.durationMs })),
    payload: bodyOf(event),
  };
}

/** What the service needs: what its dispatcher needs (delivery.ts), which it starts. */
export type WebhookServiceDeps = DispatcherDeps;

export function createWebhookService(deps: WebhookServiceDeps) {
  const { db, clock, sealer, jobs } = deps;
  const dispatcher = createDispatcher(deps);
  const wake = (tx?: Tx) => jobs.send(DISPATCH_QUEUE, {}, { singletonKey: 'due', ...(tx ? { tx } : {}) });

  // a job wakes the sender: one at work already is told to look again, not waited for
  const wakeByJob = async () => {
    if (dispatcher.busy()) dispatcher.wake();
    else await dispatcher.dispatch();
  };
  jobs.work(DISPATCH_QUEUE, wakeByJob, { policy: 'short', retryLimit: 5, retryDelay: 1, expireInSeconds: 3600 });
  jobs.work(WAKE_QUEUE, wakeByJob, { policy: 'short', retryLimit: 2, retryDelay: 1, expireInSeconds: 3600 });
  // a lost wake-up (a process killed before it set one) is made up within a minute, and at each start
  jobs.schedule(WAKE_QUEUE, '* * * * *');
  jobs.sendAtStart(WAKE_QUEUE, {}, { singletonKey: 'start' });

  /** Deletes what is past its keeping time, a thousand events a statement; answers how many events went. */
  async function prune(now = clock.now()) {
    const before = new Date(now.getTime() - WEBHOOK_KEEP_DAYS * 86_400_000);
    let total = 0;
    for (;;) {
      const gone = await pruneEvents(db, before, 1000);
      total += gone;
      if (gone < 1000) return total;
    }
  }
  jobs.work(PRUNE_QUEUE, async () => {
    await prune();
  }, { retryLimit: 2, expireInSeconds: 3600 });
  // each day at 03:30 China time
  jobs.schedule(PRUNE_QUEUE, '30 19 * * *');

  async function ownEndpoint(tx: Tx, manager: WebhookManager, id: string) {
    const row = isUuid(id) ? await lockEndpoint(tx, manager.account.id, id) : undefined;
    if (!row) throw new AppError(WebhookErrorCode.WEBHOOK_NOT_FOUND);
    return row;
  }

  return {
    /**
     * Writes the event for the account's endpoints subscribed to its type, in the caller's transaction
     * (so it exists exactly when the change does); the same statement wakes the senders of every
     * process once that commits (NOTIFY). One statement, whether or not an endpoint listens.
     */
    async emit(tx: Tx, event: WebhookEvent): Promise<void> {
      await writeEvent(tx, {
        merchantId: event.merchantId,
        accountId: event.accountId,
        type: event.type,
        orderKey: event.cardId ?? null,
        data: event.data,
        at: clock.now(),
      });
    },

    async list(manager: WebhookManager): Promise<{ items: WebhookItem[] }> {
      return { items: (await listEndpoints(db, manager.account.id)).map(view) };
    },

    async create(merchantId: string, manager: WebhookManager, body: CreateWebhookBody): Promise<WebhookSecret> {
      const url = body.url.trim();
      await checkWebhookUrl(url, deps.production, deps.resolve);
      const secret = newSecret();
      const row = await db.transaction(async (tx) => {
        await lockAccountEndpoints(tx, manager.account.id);
        if ((await countEndpoints(tx, manager.account.id)) >= WEBHOOK_ENDPOINTS_MAX) throw new AppError(WebhookErrorCode.WEBHOOK_LIMIT);
        const inserted = await insertEndpoint(tx, {
          merchantId,
          accountId: manager.account.id,
          memberId: manager.member.id,
          url,
          events: [...new Set(body.events)],
          description: body.description?.trim() ?? '',
          secretSealed: sealer.seal(secret),
          secretHint: hintOf(secret),
        });
        // the activity log names the endpoint, never its secret
        await traceWithin(tx, webhookCalls.create, view(inserted));
        return inserted;
      });
      return { ...view(row), secret };
    },

    async update(manager: WebhookManager, id: string, body: UpdateWebhookBody): Promise<WebhookItem> {
      if (body.url !== undefined) await checkWebhookUrl(body.url.trim(), deps.production, deps.resolve);
      const row = await db.transaction(async (tx) => {
        const endpoint = await ownEndpoint(tx, manager, id);
        const changes: Partial<EndpointRow> = {};
        if (body.url !== undefined) changes.url = body.url.trim();
        if (body.events !== undefined) changes.events = [...new Set(body.events)];
        if (body.description !== undefined) changes.description = body.description.trim();
        if (body.enabled === false && endpoint.status === 'ACTIVE') Object.assign(changes, { status: 'DISABLED', disabledReason: 'MANUAL' });
        if (body.enabled === true && endpoint.status === 'DISABLED') Object.assign(changes, { status: 'ACTIVE', disabledReason: null, failingSince: null });
        const updated = Object.keys(changes).length > 0 ? await updateEndpoint(tx, endpoint.id, changes) : endpoint;
        await traceWithin(tx, webhookCalls.update, view(updated));
        return updated;
      });
      // enabled again: what waited for it goes out now
      if (body.enabled === true) await wake();
      return view(row);
    },

    async remove(manager: WebhookManager, id: string): Promise<WebhookItem> {
      return db.transaction(async (tx) => {
        const endpoint = await ownEndpoint(tx, manager, id);
        await deleteEndpoint(tx, endpoint.id);
        await traceWithin(tx, webhookCalls.remove, view(endpoint));
        return view(endpoint);
      });
    },

    async rotateSecret(manager: WebhookManager, id: string): Promise<WebhookSecret> {
      const secret = newSecret();
      const row = await db.transaction(async (tx) => {
        const endpoint = await ownEndpoint(tx, manager, id);
        const rotated = await updateEndpoint(tx, endpoint.id, { secretSealed: sealer.seal(secret), secretHint: hintOf(secret) });
        await traceWithin(tx, webhookCalls.rotateSecret, view(rotated));
        return rotated;
      });
      return { ...view(row), secret };
    },

    async deliveries(manager: WebhookManager, id: string, query: { page: number; page_size: number; status?: string | undefined }): Promise<WebhookDeliveryPage> {
      const endpoint = isUuid(id) ? (await listEndpoints(db, manager.account.id)).find((row) => row.id === id) : undefined;
      if (!endpoint) throw new AppError(WebhookErrorCode.WEBHOOK_NOT_FOUND);
      const { total, rows } = await deliveriesPage(db, endpoint.id, query.page, query.page_size, query.status);
      const attempts = await attemptsOf(
        db,
        rows.map((row) => row.delivery.id),
      );
      return {
        items: rows.map((row) => deliveryView(row.delivery, row.event, attempts.filter((a) => a.deliveryId === row.delivery.id))),
        total,
        page: query.page,
        page_size: query.page_size,
      };
    },

    /** Sends a delivery again now, under its event's id; a new three days of tries start from here. */
    async redeliver(manager: WebhookManager, id: string): Promise<WebhookDelivery> {
      const now = clock.now();
      await db.transaction(async (tx) => {
        const delivery = isUuid(id) ? await lockDelivery(tx, manager.account.id, id) : undefined;
        if (!delivery) throw new AppError(WebhookErrorCode.WEBHOOK_DELIVERY_NOT_FOUND);
        const endpoint = await ownEndpoint(tx, manager, delivery.endpointId);
        if (endpoint.status !== 'ACTIVE') throw new AppError(WebhookErrorCode.WEBHOOK_DISABLED);
        await settleDelivery(tx, delivery.id, { status: 'PENDING', nextAttemptAt: now, firstAttemptAt: now, leaseUntil: null });
        await wake(tx);
      });
      const found = await deliveryWithEvent(db, id);
      if (!found) throw new AppError(WebhookErrorCode.WEBHOOK_DELIVERY_NOT_FOUND);
      return deliveryView(found.delivery, found.event, await attemptsOf(db, [id]));
    },

    /** Deletes events, deliveries and tries older than WEBHOOK_KEEP_DAYS (the daily job runs it). */
    prune,

    /** Sends what is due now in this process (the jobs call it; tests and the bench may too). */
    dispatch: () => dispatcher.dispatch(),
    /** Wakes this process's sender whenever any process commits events (the server does this at start); answers how to stop. */
    followEvents: (database: Pick<Database, 'listen'>) => dispatcher.follow(database),
    /** Ends this process's own wake-ups (the server is closing). */
    stop: () => dispatcher.stop(),
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
