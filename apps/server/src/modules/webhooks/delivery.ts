/**
 * Sending deliveries: each is signed with the Standard Webhooks scheme and posted with a time limit;
 * each try is logged, and a failure is tried again on the retry schedule until the event is given up.
 * Deliveries are taken from the table (leased, so a process killed mid-send loses none: the lease runs
 * out and another sends it again, under the same webhook-id), never from a job's data: the jobs and the
 * outbox's NOTIFY only wake the senders.
 *
 * One sender runs per process: it claims what is due in batches (one statement each), keeps up to
 * IN_FLIGHT sends going over kept-alive connections per endpoint, and records the delivered tries of
 * many sends in one statement. A card's next event to an endpoint is due only once its earlier one is
 * recorded (store.ts, claimDue), so several sends to one endpoint are in flight at once while each
 * card's events still arrive in order.
 */
import http from 'node:http';
import https from 'node:https';
import { WEBHOOK_ANSWER_EXCERPT, type WebhookBody, type WebhookEventType } from '@portal/contract/webhooks';
import { Webhook } from 'standardwebhooks';
import type { WebhookSettings } from '../../config.ts';
import type { Database, Db } from '../../db/engine.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Sealer } from '../../lib/sealed.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { MessageService } from '../messages/service.ts';
import { checkWebhookUrl, type Resolve } from './url-guard.ts';
import {
  type ClaimedDelivery,
  claimDue,
  type DeliveredTry,
  disableFailing,
  insertAttempt,
  markFailing,
  nextDue,
  ownerOf,
  recordDelivered,
  settleDelivery,
  WEBHOOK_DUE_CHANNEL,
} from './store.ts';

/** The queue whose job sends whatever is due now (one queued at a time: a burst of events wakes it once). */
export const DISPATCH_QUEUE = 'webhook-dispatch';
/** The queue whose jobs wake the senders when a retry falls due (and each minute, and at start). */
export const WAKE_QUEUE = 'webhook-wake';
/** The queue whose daily job deletes deliveries and their tries past WEBHOOK_KEEP_DAYS. */
export const PRUNE_QUEUE = 'webhook-prune';
/** Days an event, its deliveries and their tries are kept (the delivery log shows them until then). */
export const WEBHOOK_KEEP_DAYS = 30;
/** Sends one process has going at once (each holds one card's next event to one endpoint back until it is recorded). */
const IN_FLIGHT = 256;
/** Deliveries claimed in one statement at most. */
const CLAIM_BATCH = 128;
/** Connections kept open to one endpoint (its origin) at most; sends beyond them wait for one. */
const SOCKETS_PER_ENDPOINT = 64;
/** Delivered tries recorded in one statement at most. */
const RECORD_BATCH = 500;
/** Bytes of an answer kept for its excerpt; the rest is read and dropped (the connection is kept). */
const ANSWER_BYTES = WEBHOOK_ANSWER_EXCERPT * 4;

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

/** Kept-alive connections per endpoint origin, shared by every send of the process. */
export class EndpointAgents {
  private readonly agents = new Map<string, http.Agent>();

  of(url: URL): http.Agent {
    let agent = this.agents.get(url.origin);
    if (!agent) {
      const options = { keepAlive: true, maxSockets: SOCKETS_PER_ENDPOINT, maxFreeSockets: SOCKETS_PER_ENDPOINT, scheduling: 'lifo' as const };
      agent = url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
      this.agents.set(url.origin, agent);
    }
    return agent;
  }

  /** Closes every kept connection (the process is closing). */
  close() {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }
}

const timedOut = () => Object.assign(new Error('timed out'), { name: 'TimeoutError' });

/** One POST, its answer's status and first bytes; abandoned (the socket closed) at `timeoutMs`. */
function post(url: URL, agent: http.Agent, headers: Record<string, string>, body: string, timeoutMs: number): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? https : http).request(url, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, agent });
    const timer = setTimeout(() => request.destroy(timedOut()), timeoutMs);
    const fail = (error: Error) => {
      clearTimeout(timer);
      reject(error);
    };
    request.on('error', fail);
    request.on('response', (response) => {
      const kept: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        if (size < ANSWER_BYTES) kept.push(chunk);
        size += chunk.length;
      });
      response.on('error', fail);
      response.on('end', () => {
        clearTimeout(timer);
        const bytes = Buffer.concat(kept);
        resolve({ status: response.statusCode ?? 0, text: bytes.subarray(0, ANSWER_BYTES).toString('utf8') });
      });
    });
    request.end(body);
  });
}

/** One signed POST, answered within `timeoutMs` or abandoned (the socket is closed, no worker waits on). */
export async function sendSigned(input: {
  url: string;
  secret: string | Webhook;
  msgId: string;
  body: string;
  timeoutMs: number;
  production: boolean;
  resolve?: Resolve;
  agents?: EndpointAgents;
}): Promise<SendOutcome> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  try {
    await checkWebhookUrl(input.url, input.production, input.resolve);
  } catch (error) {
    return { ok: false, statusCode: null, error: `地址不被允许：${(error as Error).message}`, excerpt: '', durationMs: took() };
  }
  // the receiver compares webhook-timestamp with its own clock: the wall clock's, not the scheduler's
  const now = new Date();
  const signer = typeof input.secret === 'string' ? new Webhook(input.secret) : input.secret;
  const signature = signer.sign(input.msgId, now, input.body);
  const timestamp = Math.floor(now.getTime() / 1000).toString();
  const url = new URL(input.url);
  const agents = input.agents ?? new EndpointAgents();
  try {
    const answer = await post(
      url,
      agents.of(url),
      {
        'content-type': 'application/json',
        'user-agent': 'card-portal-webhooks/1',
        'webhook-id': input.msgId,
        'webhook-timestamp': timestamp,
        'webhook-signature': signature,
      },
      input.body,
      input.timeoutMs,
    );
    const ok = answer.status >= 200 && answer.status < 300;
    return { ok, statusCode: answer.status, error: ok ? null : `HTTP ${answer.status}`, excerpt: [...answer.text].slice(0, WEBHOOK_ANSWER_EXCERPT).join(''), durationMs: took() };
  } catch (error) {
    const name = (error as Error).name;
    const message = name === 'TimeoutError' || name === 'AbortError' ? `超时（${Math.round(input.timeoutMs / 1000)} 秒内未响应）` : `连接失败：${(error as Error).message}`;
    return { ok: false, statusCode: null, error: message, excerpt: '', durationMs: took() };
  } finally {
    if (!input.agents) agents.close();
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
  const delayAfter = (attempts: number) => settings.retryDelaysSeconds[Math.min(attempts - 1, settings.retryDelaysSeconds.length - 1)] ?? 3600;
  const agents = new EndpointAgents();
  // an endpoint's signer, by its sealed secret: opened once, not at every send (a rotated secret is another key)
  const signers = new Map<string, Webhook>();
  const signerOf = (sealed: string) => {
    let signer = signers.get(sealed);
    if (!signer) {
      if (signers.size >= 1000) signers.clear();
      signer = new Webhook(deps.sealer.open(sealed));
      signers.set(sealed, signer);
    }
    return signer;
  };

  // delivered tries waiting to be recorded: written together, one statement for all that ended meanwhile
  const toRecord: Array<{ delivered: DeliveredTry; done: () => void; failed: (error: unknown) => void }> = [];
  let recording = false;
  function recordLater(delivered: DeliveredTry): Promise<void> {
    return new Promise((done, failed) => {
      toRecord.push({ delivered, done, failed });
      if (recording) return;
      recording = true;
      void (async () => {
        try {
          while (toRecord.length > 0) {
            // the sends ending in this turn of the loop join the batch
            await new Promise((resolve) => setImmediate(resolve));
            const batch = toRecord.splice(0, RECORD_BATCH);
            try {
              await recordDelivered(
                db,
                batch.map((one) => one.delivered),
              );
              for (const one of batch) one.done();
            } catch (error) {
              for (const one of batch) one.failed(error);
            }
          }
        } finally {
          recording = false;
        }
      })();
    });
  }

  async function attempt(claimed: ClaimedDelivery) {
    const outcome = await sendSigned({
      url: claimed.url,
      secret: signerOf(claimed.secretSealed),
      msgId: eventIdOf(claimed.eventId),
      body: bodyOf({ id: claimed.eventId, type: claimed.eventType, createdAt: claimed.eventAt, data: claimed.eventData }),
      timeoutMs: settings.timeoutMs,
      production: deps.production,
      agents,
      ...(deps.resolve ? { resolve: deps.resolve } : {}),
    });
    const now = clock.now();
    const attempts = claimed.attempts + 1;
    if (outcome.ok) {
      await recordLater({
        id: claimed.id,
        endpointId: claimed.endpointId,
        leaseUntil: claimed.leaseUntil,
        attempts,
        at: now,
        statusCode: outcome.statusCode,
        excerpt: outcome.excerpt,
        durationMs: outcome.durationMs,
      });
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
      const held = await settleDelivery(
        tx,
        claimed.id,
        givenUp ? { status: 'FAILED', attempts, leaseUntil: null } : { attempts, nextAttemptAt: next, leaseUntil: null },
        claimed.leaseUntil,
      );
      // the lease ran out and another sender took the delivery: its outcome is that sender's to write
      if (!held) return;
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
        wake();
      },
      Math.max(0, at - Date.now()),
    );
    handle.unref();
    timer = { at, handle };
  }

  // the one sender of this process: `running` while it works; `nudged` when something may have fallen due
  // since its last claim (an event committed, a send recorded), which its wait for news ends
  const inFlight = new Set<Promise<void>>();
  let running: Promise<void> | null = null;
  let nudged = false;
  let news: (() => void) | null = null;
  function nudge() {
    nudged = true;
    const wakeUp = news;
    news = null;
    wakeUp?.();
  }

  /** Claims and sends until nothing is due and nothing is in flight; then sets a wake-up for the next retry. */
  async function drain() {
    for (;;) {
      if (stopped) break;
      nudged = false;
      const room = IN_FLIGHT - inFlight.size;
      // a nearly full sender waits for room to claim a batch, rather than a claim for each send that ends
      const limit = room >= CLAIM_BATCH / 8 ? Math.min(room, CLAIM_BATCH) : 0;
      let claimed: ClaimedDelivery[] = [];
      if (limit > 0) {
        const now = clock.now();
        claimed = await claimDue(db, now, new Date(now.getTime() + leaseMs), limit);
      }
      for (const one of claimed) {
        const sending: Promise<void> = attempt(one)
          .catch((error: unknown) => deps.log.warn({ err: error, delivery_id: one.id }, 'webhook delivery not recorded'))
          .finally(() => {
            inFlight.delete(sending);
            // a recorded send lets its card's next event go, and makes room
            nudge();
          });
        inFlight.add(sending);
      }
      // a full batch: more may be due at once
      if (claimed.length === limit && limit > 0) continue;
      if (inFlight.size === 0 && !nudged) break;
      // wait for news: a send recorded, or an event committed
      if (!nudged) await new Promise<void>((resolve) => (news = resolve));
    }
    if (stopped) return;
    const next = await nextDue(db);
    if (next) {
      // one wake-up a second at most: later ones find the earlier ones' work done
      const startAfter = new Date(Math.max(next.getTime(), Date.now()) + 50);
      if (startAfter.getTime() - Date.now() < 10 * 60_000) wakeHereAt(startAfter.getTime());
      await deps.jobs.send(WAKE_QUEUE, {}, { startAfter, singletonKey: String(Math.floor(startAfter.getTime() / 1000)) });
    }
  }

  /** Starts the sender if it is not running, or tells the running one to look again. */
  function wake(): Promise<void> {
    if (running) {
      nudge();
      return running;
    }
    running = (async () => {
      try {
        await drain();
      } finally {
        running = null;
      }
      // news that came while the last wake-up was being set
      if (nudged && !stopped) await wake();
    })();
    running.catch((error: unknown) => deps.log.warn({ err: error }, 'webhook deliveries not sent; the next wake-up sends them'));
    return running;
  }

  return {
    /** Sends everything due and waits until nothing is (a running sender is told to look again and waited for). */
    dispatch: () => wake(),
    /** Wakes the sender without waiting for it (a notice that events were committed). */
    wake: () => {
      wake().catch(() => {});
    },
    /** Whether this process's sender is at work (a job that would only wake it need not wait). */
    busy: () => running !== null,
    /** Hears every process's committed events (the outbox's NOTIFY); answers how to stop. */
    async follow(database: Pick<Database, 'listen'>) {
      return database.listen(WEBHOOK_DUE_CHANNEL, () => {
        if (!stopped) wake().catch(() => {});
      });
    },
    /** No more wake-ups in this process (it is closing); kept connections are closed. */
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer.handle);
      timer = undefined;
      nudge();
      agents.close();
    },
  };
}
