import { MAX_STREAMS_PER_SESSION } from '@portal/contract/events';
import { EVENT_TYPES, HEARTBEAT_SECONDS, type StreamEvent } from '@portal/contract/messages';
import { sql } from 'drizzle-orm';
import type { Database, Tx } from '../../db/engine.ts';
import { unreadCounts } from '../messages/store.ts';

/**
 * Events reach every open stream of an account on whichever server process holds it: a change is
 * published with pg_notify on one channel (inside the writer's transaction, so it goes out only
 * if the change commits), every process listens, and each hands it to its own streams.
 */
export const EVENTS_CHANNEL = 'portal_events';

type Published =
  /** a new message for one account, or an announcement (account null) for every account of the merchant */
  | { t: 'event'; merchant: string; account: string | null; event: StreamEvent }
  /** the account's unread count changed (marked read in another tab) */
  | { t: 'unread'; merchant: string; account: string; count: number }
  /** sessions ended: one, or all of an account but one */
  | { t: 'revoked'; account: string; session?: string; except?: string }
  /**
   * something of these accounts changed whose event each process builds for its own open streams
   * (so a change nobody watches costs one NOTIFY, and an event always tells what holds at send time)
   */
  | { t: 'signal'; merchant: string; accounts: string[]; signal: string };

async function publish(tx: Tx, message: Published) {
  await tx.execute(sql`select pg_notify(${EVENTS_CHANNEL}, ${JSON.stringify(message)})`);
}

/** An event stream's content excerpt: the notice shows text, not markup, and NOTIFY payloads are small. */
export function excerpt(html: string, max = 200) {
  const text = html
    .replace(/<(script|style|template|noscript)\b[\s\S]*?(<\/\1\s*>|$)/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return [...text].length > max ? `${[...text].slice(0, max).join('')}…` : text;
}

export const publishAccountEvent = (tx: Tx, merchantId: string, accountId: string, event: StreamEvent) =>
  publish(tx, { t: 'event', merchant: merchantId, account: accountId, event });

/** Tells every process that something of these accounts changed; see EventHub's `signals`. */
export async function publishAccountSignal(tx: Tx, merchantId: string, accountIds: string[], signal: string) {
  if (accountIds.length === 0) return;
  await publish(tx, { t: 'signal', merchant: merchantId, accounts: accountIds, signal });
}

export const publishMerchantEvent = (tx: Tx, merchantId: string, event: StreamEvent) =>
  publish(tx, { t: 'event', merchant: merchantId, account: null, event });

export const publishUnreadCount = (tx: Tx, merchantId: string, accountId: string, count: number) =>
  publish(tx, { t: 'unread', merchant: merchantId, account: accountId, count });

export const publishSessionsRevoked = (tx: Tx, accountId: string, which: { session?: string; except?: string }) =>
  publish(tx, { t: 'revoked', account: accountId, ...which });

export interface Subscriber {
  merchantId: string;
  accountId: string;
  sessionId: string;
  send(event: StreamEvent): void;
  close(): void;
}

export interface HubLog {
  warn(object: object, message: string): void;
}

/** This process's open event streams, fed from the events channel. */
export class EventHub {
  private byAccount = new Map<string, Set<Subscriber>>();
  private byMerchant = new Map<string, Set<string>>();
  /** each session's streams on this process, oldest first */
  private bySession = new Map<string, Subscriber[]>();
  private unlisten: (() => Promise<void>) | null = null;
  private heartbeat: NodeJS.Timeout | null = null;

  /**
   * @param signals what each signal means to an open stream: the event it gets, built when the signal
   * arrives, only for accounts with a stream on this process
   */
  constructor(
    private readonly database: Database,
    private readonly log: HubLog,
    private readonly signals: Record<string, (merchantId: string, accountId: string) => Promise<StreamEvent>> = {},
  ) {}

  get size() {
    let n = 0;
    for (const set of this.byAccount.values()) n += set.size;
    return n;
  }

  async start() {
    this.unlisten = await this.database.listen(EVENTS_CHANNEL, (payload) => {
      this.dispatch(payload).catch((error: unknown) => this.log.warn({ err: error }, 'event dispatch failed'));
    });
    this.heartbeat = setInterval(() => this.beat(), HEARTBEAT_SECONDS * 1000);
    this.heartbeat.unref();
  }

  async stop() {
    if (this.heartbeat) clearInterval(this.heartbeat);
    await this.unlisten?.();
    for (const set of this.byAccount.values()) for (const subscriber of set) subscriber.close();
    this.byAccount.clear();
    this.byMerchant.clear();
    this.bySession.clear();
  }

  subscribe(subscriber: Subscriber) {
    let set = this.byAccount.get(subscriber.accountId);
    if (!set) {
      set = new Set();
      this.byAccount.set(subscriber.accountId, set);
      let accounts = this.byMerchant.get(subscriber.merchantId);
      if (!accounts) {
        accounts = new Set();
        this.byMerchant.set(subscriber.merchantId, accounts);
      }
      accounts.add(subscriber.accountId);
    }
    set.add(subscriber);
    const ofSession = this.bySession.get(subscriber.sessionId) ?? [];
    ofSession.push(subscriber);
    this.bySession.set(subscriber.sessionId, ofSession);
    // one session holds at most so many streams here: a newer one ends the oldest
    while (ofSession.length > MAX_STREAMS_PER_SESSION) {
      const oldest = ofSession[0] as Subscriber;
      this.remove(oldest);
      oldest.close();
    }
    return () => this.remove(subscriber);
  }

  private remove(subscriber: Subscriber) {
    const ofSession = this.bySession.get(subscriber.sessionId);
    if (ofSession) {
      const at = ofSession.indexOf(subscriber);
      if (at >= 0) ofSession.splice(at, 1);
      if (ofSession.length === 0) this.bySession.delete(subscriber.sessionId);
    }
    const set = this.byAccount.get(subscriber.accountId);
    if (!set?.delete(subscriber) || set.size > 0) return;
    this.byAccount.delete(subscriber.accountId);
    const accounts = this.byMerchant.get(subscriber.merchantId);
    accounts?.delete(subscriber.accountId);
    if (accounts?.size === 0) this.byMerchant.delete(subscriber.merchantId);
  }

  /** sends the heartbeat to every stream here (the timer does it every HEARTBEAT_SECONDS) */
  beat() {
    const event = { type: EVENT_TYPES.heartbeat };
    for (const set of this.byAccount.values()) for (const subscriber of set) subscriber.send(event);
  }

  private async dispatch(payload: string) {
    const message = JSON.parse(payload) as Published;
    if (message.t === 'revoked') {
      for (const subscriber of [...(this.byAccount.get(message.account) ?? [])]) {
        const ended = message.session ? subscriber.sessionId === message.session : subscriber.sessionId !== message.except;
        if (ended) {
          this.remove(subscriber);
          subscriber.close();
        }
      }
      return;
    }
    if (message.t === 'unread') {
      for (const subscriber of this.byAccount.get(message.account) ?? []) {
        subscriber.send({ type: EVENT_TYPES.unread, unread_quantity: message.count });
      }
      return;
    }
    if (message.t === 'signal') {
      const build = this.signals[message.signal];
      if (!build) return;
      for (const accountId of message.accounts) {
        const subscribers = this.byAccount.get(accountId);
        if (!subscribers?.size) continue;
        const event = await build(message.merchant, accountId);
        for (const subscriber of this.byAccount.get(accountId) ?? []) subscriber.send(event);
      }
      return;
    }
    if (message.account) {
      for (const subscriber of this.byAccount.get(message.account) ?? []) subscriber.send(message.event);
      return;
    }
    // an announcement: each account here gets its own unread count, read in one query
    const accounts = [...(this.byMerchant.get(message.merchant) ?? [])];
    if (accounts.length === 0) return;
    const counts = await unreadCounts(this.database.db, message.merchant, accounts);
    for (const accountId of accounts) {
      const event = { ...message.event, unread_quantity: counts.get(accountId) ?? 0 };
      for (const subscriber of this.byAccount.get(accountId) ?? []) subscriber.send(event);
    }
  }
}
