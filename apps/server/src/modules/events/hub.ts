import { errorCatalogue } from '@portal/contract/error-catalogue';
import { ErrorCode } from '@portal/contract/errors';
import { MAX_STREAMS_PER_SESSION } from '@portal/contract/events';
import { EVENT_TYPES, HEARTBEAT_SECONDS, type StreamEvent } from '@portal/contract/messages';
import { holdsOwnCardsOnly, receivesEveryCardMessage, type Role } from '@portal/contract/team';
import { accountOfChange, PRINCIPAL_CHANGED_CHANNEL } from '../../db/changes.ts';
import type { Database } from '../../db/engine.ts';
import { type Audience, EVENTS_CHANNEL, type EventFinisher, type Published } from './publisher.ts';

/** Whether a stream's member is among those an event is for. */
function reaches(subscriber: Subscriber, audience: Audience | undefined) {
  if (!audience) return true;
  if (audience.member && subscriber.memberId !== audience.member) return false;
  if (audience.card && subscriber.memberId !== audience.card && holdsOwnCardsOnly(subscriber.role)) return false;
  return !audience.holder || subscriber.memberId === audience.holder || receivesEveryCardMessage(subscriber.role);
}

export interface Subscriber {
  merchantId: string;
  accountId: string;
  sessionId: string;
  /** the member whose session it is, and their role (learnt anew when it changes: `followRoles`) */
  memberId: string;
  role: Role;
  send(event: StreamEvent): void;
  close(): void;
}

export interface HubLog {
  warn(object: object, message: string): void;
}

/** The members' roles now, of those asked (members no longer in the account are left out). */
export type RolesOf = (accountId: string, memberIds: string[]) => Promise<Map<string, Role>>;

const SESSION_ENDED: StreamEvent = {
  type: EVENT_TYPES.sessionEnded,
  error_code: ErrorCode.SESSION_REVOKED,
  message: errorCatalogue[ErrorCode.SESSION_REVOKED]?.message ?? '',
};

/** This process's open event streams, fed from the events channel. */
export class EventHub {
  private byAccount = new Map<string, Set<Subscriber>>();
  private byMerchant = new Map<string, Set<string>>();
  /** each session's streams on this process, oldest first */
  private bySession = new Map<string, Subscriber[]>();
  private unlisten: (() => Promise<void>) | null = null;
  private heartbeat: NodeJS.Timeout | null = null;

  private finishers = new Map<string, EventFinisher>();
  private rolesOf: RolesOf | null = null;
  /** the roles being learnt anew: events that came after the change wait for it */
  private learning: Promise<void> = Promise.resolve();

  constructor(
    private readonly database: Pick<Database, 'listen'>,
    private readonly log: HubLog,
  ) {}

  /**
   * Registers a finisher under a name: an event published with `{ finish: name }` is completed per
   * stream by it (see EventFinisher). Only the publisher asks for one, so no event type a module or
   * an operator chooses (a station message's type) can run into it.
   */
  finish(name: string, finisher: EventFinisher) {
    if (this.finishers.has(name)) throw new Error(`events: a finisher named ${name} is registered already`);
    this.finishers.set(name, finisher);
  }

  /**
   * Learns a stream's member's role anew whenever their member row changes (the principal channel), so
   * a member made a 成员 or 观察员 stops receiving every card's events at once, not at their next connection.
   */
  followRoles(rolesOf: RolesOf) {
    this.rolesOf = rolesOf;
  }

  private learnRoles(accountId: string) {
    const rolesOf = this.rolesOf;
    if (!rolesOf || !this.byAccount.has(accountId)) return;
    this.learning = this.learning.then(async () => {
      const streams = [...(this.byAccount.get(accountId) ?? [])];
      if (streams.length === 0) return;
      try {
        const roles = await rolesOf(accountId, [...new Set(streams.map((subscriber) => subscriber.memberId))]);
        for (const subscriber of streams) subscriber.role = roles.get(subscriber.memberId) ?? subscriber.role;
      } catch (error) {
        this.log.warn({ err: error }, 'stream roles not learnt anew');
      }
    });
  }

  get size() {
    let n = 0;
    for (const set of this.byAccount.values()) n += set.size;
    return n;
  }

  async start() {
    const stopEvents = await this.database.listen(EVENTS_CHANNEL, (payload) => {
      this.dispatch(payload).catch((error: unknown) => this.log.warn({ err: error }, 'event dispatch failed'));
    });
    const stopRoles = await this.database.listen(PRINCIPAL_CHANGED_CHANNEL, (payload) => this.learnRoles(accountOfChange(payload)));
    this.unlisten = async () => {
      await stopEvents();
      await stopRoles();
    };
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
    // a role changed before this event was sent is learnt before the event is served
    await this.learning;
    if (message.t === 'revoked') {
      for (const subscriber of [...(this.byAccount.get(message.account) ?? [])]) {
        const ofMember = !message.member || subscriber.memberId === message.member;
        const ended = ofMember && (message.session ? subscriber.sessionId === message.session : subscriber.sessionId !== message.except);
        if (ended) {
          this.remove(subscriber);
          // the tab learns why its stream ends, and logs out now rather than on its next connection
          subscriber.send(SESSION_ENDED);
          subscriber.close();
        }
      }
      return;
    }
    if (message.t !== 'accounts' && message.t !== 'merchant') return;
    // only the streams here of the merchant's accounts (and of the members the event is for) are served,
    // and the event completed for their readers alone
    const accounts = message.t === 'accounts' ? message.accounts : [...(this.byMerchant.get(message.merchant) ?? [])];
    const streams = accounts.flatMap((accountId) =>
      [...(this.byAccount.get(accountId) ?? [])].filter((subscriber) => subscriber.merchantId === message.merchant && reaches(subscriber, message.audience)),
    );
    if (streams.length === 0) return;
    const event = { type: message.type, ...message.payload } as StreamEvent;
    const finisher = message.finish ? this.finishers.get(message.finish) : undefined;
    if (message.finish && !finisher) this.log.warn({ finish: message.finish }, 'event dropped: no finisher of that name here');
    if (message.finish && !finisher) return;
    const readers = [...new Map(streams.map((subscriber) => [subscriber.memberId, { accountId: subscriber.accountId, memberId: subscriber.memberId, role: subscriber.role }])).values()];
    const eventFor = finisher ? await finisher(message.merchant, readers, event) : () => event;
    const finished = new Map(readers.map((reader) => [reader.memberId, eventFor(reader)]));
    for (const subscriber of streams) subscriber.send(finished.get(subscriber.memberId) as StreamEvent);
  }
}
