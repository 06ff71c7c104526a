/**
 * Sending deliveries: each is signed with the Standard Webhooks scheme and posted with a time limit;
 * each try is logged, and a failure is tried again on the retry schedule until the event is given up.
 * Deliveries are taken from the table (leased, so a process killed mid-send loses none: the lease runs
 * out and another sends it again, under the same webhook-id), never from a job's data: the jobs only
 * wake the senders.
 */
import { WEBHOOK_ANSWER_EXCERPT, type WebhookBody, type WebhookEventType } from '@portal/contract/webhooks';
import { Webhook } from 'standardwebhooks';
import type { WebhookSettings } from '../../config.ts';
import type { Db } from '../../db/engine.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Sealer } from '../../lib/sealed.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { MessageService } from '../messages/service.ts';
import { checkWebhookUrl, type Resolve } from './url-guard.ts';
import { type ClaimedDelivery, claimDue, disableFailing, insertAttempt, markFailing, nextDue, ownerOf, recordDelivered, settleDelivery } from './store.ts';

/** The queue whose job sends whatever is due now (one queued at a time: a burst of events wakes it once). */
export const DISPATCH_QUEUE = 'webhook-dispatch';
/** The queue whose jobs wake the senders when a retry falls due (and each minute, and at start). */
export const WAKE_QUEUE = 'webhook-wake';
/** Sends one process makes at once. */
const IN_FLIGHT = 64;

/** The event's id as endpoints see it, in the body and as webhook-id: the same on every try. */
export const eventIdOf = (uuid: string) => `evt_${uuid.replace(/-/g, '')}`;

export function bodyOf(event: { id: string; type: string; createdAt: Date; data: Record<string, unknown> }): string {
  const body: WebhookBody = { id: eventIdOf(event.id), type: event.type as WebhookEventType, created_at: event.createdAt.toISOString(), data: event.data };
  return JSON.stringify(body);
}

export interface SendOutcome {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  excerpt: string;
  durationMs: number;
}

/** One signed POST, answered within `timeoutMs` or abandoned (the socket is closed, no worker waits on). */
export async function sendSigned(input: { url: string; secret: string; msgId: string; body: string; timeoutMs: number; production: boolean; resolve?: Resolve }): Promise<SendOutcome> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  try {
    await checkWebhookUrl(input.url, input.production, input.resolve);
  } catch (error) {
    return { ok: false, statusCode: null, error: `地址不被允许：${(error as Error).message}`, excerpt: '', durationMs: took() };
  }
  // the receiver compares webhook-timestamp with its own clock: the wall clock's, not the scheduler's
  const signature = new Webhook(input.secret).sign(input.msgId, new Date(), input.body);
  const timestamp = Math.floor(Date.now() / 1000).toString();
  try {
    const response = await fetch(input.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'card-portal-webhooks/1',
        'webhook-id': input.msgId,
        'webhook-timestamp': timestamp,
        'webhook-signature': signature,
      },
      body: input.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(input.timeoutMs),
    });
    const text = await response.text();
    const ok = response.status >= 200 && response.status < 300;
    return { ok, statusCode: response.status, error: ok ? null : `HTTP ${response.status}`, excerpt: [...text].slice(0, WEBHOOK_ANSWER_EXCERPT).join(''), durationMs: took() };
  } catch (error) {
    const name = (error as Error).name;
    const message = name === 'TimeoutError' || name === 'AbortError' ? `超时（${Math.round(input.timeoutMs / 1000)} 秒内未响应）` : `连接失败：${((error as Error).cause as Error | undefined)?.message ?? (error as Error).message}`;
    return { ok: false, statusCode: null, error: message, excerpt: '', durationMs: took() };
  }
}

export interface DispatcherDeps {
  db: Db;
  clock: Clock;
  sealer: Sealer;
  jobs: JobQueue;
  messages: Pick<MessageService, 'post'>;
  settings: WebhookSettings;
  production: boolean;
  log: { warn(details: object, message: string): void };
  resolve?: Resolve;
}

export function createDispatcher(deps: DispatcherDeps) {
  const { db, clock, settings } = deps;
  // a send gives up at timeoutMs; the lease outlasts it, so only a dead sender's deliveries are taken again
  const leaseMs = settings.timeoutMs + 10_000;
  // the signature scheme is the same for a secret that is sealed; opening one costs little
  const delayAfter = (attempts: number) => settings.retryDelaysSeconds[Math.min(attempts - 1, settings.retryDelaysSeconds.length - 1)] ?? 3600;

  async function attempt(claimed: ClaimedDelivery) {
    const outcome = await sendSigned({
      url: claimed.url,
      secret: deps.sealer.open(claimed.secretSealed),
      msgId: eventIdOf(claimed.eventId),
      body: bodyOf({ id: claimed.eventId, type: claimed.eventType, createdAt: claimed.eventAt, data: claimed.eventData }),
      timeoutMs: settings.timeoutMs,
      production: deps.production,
      ...(deps.resolve ? { resolve: deps.resolve } : {}),
    });
    const now = clock.now();
    const attempts = claimed.attempts + 1;
    if (outcome.ok) {
      await recordDelivered(db, { id: claimed.id, endpointId: claimed.endpointId, attempts }, now, outcome);
      return;
    }
    await db.transaction(async (tx) => {
      await insertAttempt(tx, {
        deliveryId: claimed.id,
        at: now,
        statusCode: outcome.statusCode,
        error: outcome.error,
        answerExcerpt: outcome.excerpt,
        durationMs: outcome.durationMs,
      });
      const next = new Date(now.getTime() + delayAfter(attempts) * 1000);
      const givenUp = next.getTime() - claimed.firstAttemptAt.getTime() > settings.giveUpSeconds * 1000;
      await settleDelivery(tx, claimed.id, givenUp ? { status: 'FAILED', attempts, leaseUntil: null } : { attempts, nextAttemptAt: next, leaseUntil: null });
      // an event's first failed try dates from when its tries began, so an endpoint that failed all of them counts as failing throughout
      const endpoint = await markFailing(tx, claimed.endpointId, claimed.attempts === 0 ? claimed.firstAttemptAt : now);
      // failing for the whole give-up time: past it, or through all of an event's tries that just ended
      const failingThroughout =
        endpoint?.failingSince &&
        (now.getTime() - endpoint.failingSince.getTime() >= settings.giveUpSeconds * 1000 || (givenUp && endpoint.failingSince.getTime() <= claimed.firstAttemptAt.getTime()));
      if (failingThroughout) {
        const disabled = await disableFailing(tx, claimed.endpointId);
        if (disabled) {
          await deps.messages.post(tx, {
            merchantId: claimed.merchantId,
            accountId: claimed.accountId,
            title: 'Webhook 端点已自动停用',
            content: `您的 Webhook 端点 ${disabled.url} 连续 3 天发送失败，已自动停用。请检查接收服务后，在「设置 → 开发者」中重新启用。`,
            status: 'fail',
            // its holder field names the owner: the owner and the admins see it, as they see every card's messages
            holderMemberId: (await ownerOf(tx, claimed.accountId)) ?? null,
          });
        }
      }
    });
  }

  // this process's own wake-up for the next retry: a job waiting for its time is only found at the
  // queue's next poll, seconds late; the job stays as the wake-up of whichever process outlives this one
  let timer: { at: number; handle: NodeJS.Timeout } | undefined;
  let stopped = false;
  function wakeHereAt(at: number) {
    if (stopped || (timer && timer.at <= at)) return;
    if (timer) clearTimeout(timer.handle);
    const handle = setTimeout(
      () => {
        timer = undefined;
        dispatch().catch((error: unknown) => deps.log.warn({ err: error }, 'webhook retries not sent; the queue’s wake-up sends them'));
      },
      Math.max(0, at - Date.now()),
    );
    handle.unref();
    timer = { at, handle };
  }

  /** Sends everything due, a few at a time, until nothing is; then sets a wake-up for the next retry. */
  async function dispatch() {
    const inFlight = new Set<Promise<void>>();
    for (;;) {
      const room = IN_FLIGHT - inFlight.size;
      const now = clock.now();
      const claimed = room > 0 ? await claimDue(db, now, new Date(now.getTime() + leaseMs), room) : [];
      for (const one of claimed) {
        const sending: Promise<void> = attempt(one)
          .catch((error: unknown) => deps.log.warn({ err: error, delivery_id: one.id }, 'webhook delivery not recorded'))
          .finally(() => inFlight.delete(sending));
        inFlight.add(sending);
      }
      if (claimed.length === 0 && inFlight.size === 0) break;
      // nothing more was due: the next claim waits for a send to end; a full process claims again once half
      // its sends have ended, so a backlog is taken in batches rather than a claim per send
      if (claimed.length < room) await Promise.race(inFlight);
      while (inFlight.size > IN_FLIGHT / 2) await Promise.race(inFlight);
    }
    const next = await nextDue(db);
    if (next) {
      // one wake-up a second at most: later ones find the earlier ones' work done
      const startAfter = new Date(Math.max(next.getTime(), Date.now()) + 50);
      if (startAfter.getTime() - Date.now() < 10 * 60_000) wakeHereAt(startAfter.getTime());
      await deps.jobs.send(WAKE_QUEUE, {}, { startAfter, singletonKey: String(Math.floor(startAfter.getTime() / 1000)) });
    }
  }

  return {
    dispatch,
    /** No more wake-ups in this process (it is closing). */
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer.handle);
      timer = undefined;
    },
  };
}
