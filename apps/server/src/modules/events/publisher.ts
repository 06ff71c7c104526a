import type { StreamEvent } from '@portal/contract/messages';
import type { Role } from '@portal/contract/team';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';

/**
 * Events reach every open stream of an account on whichever server process holds it: a change is
 * published with pg_notify on one channel (inside the writer's transaction, so it goes out only if
 * the change commits), every process listens, and each hands it to its own streams (hub.ts).
 *
 * An event is a type and its payload, for some accounts of a merchant or for all of them. The hub
 * knows no event type: a module that needs an event completed per stream (what an account holds
 * now, its unread count) registers a finisher for its type with the hub.
 */
export const EVENTS_CHANNEL = 'portal_stream_events';

export type EventPayload = Record<string, unknown>;

/**
 * Which members of the accounts the event is for: `member`, that member alone; `holder`, that member and
 * the roles that receive every card's messages; `card`, every member who sees that card (its holder and
 * the roles that see every card); every member when none is named.
 */
export interface Audience {
  member?: string | undefined;
  holder?: string | undefined;
  /** the holder of the card the event is about */
  card?: string | undefined;
}

/**
 * `finish`: the finisher (registered with the hub under that name) that completes the event per stream;
 * `audience`: the members whose streams get it.
 */
export interface PublishOptions {
  finish?: string;
  audience?: Audience;
}

export type Published =
  /** an event for these accounts of the merchant */
  | ({ t: 'accounts'; merchant: string; accounts: string[]; type: string; payload: EventPayload } & PublishOptions)
  /** an event for every account of the merchant */
  | ({ t: 'merchant'; merchant: string; type: string; payload: EventPayload } & PublishOptions)
  /** sessions ended: one, or all of an account but one; their streams close */
  | { t: 'revoked'; account: string; member?: string; session?: string; except?: string };

async function send(tx: Tx, message: Published) {
  await tx.execute(sql`select pg_notify(${EVENTS_CHANNEL}, ${JSON.stringify(message)})`);
}

/** The notification of an event for some accounts, for a statement that sends it itself (pg_notify(channel, payload)). */
export function accountsNotification(merchantId: string, accountIds: string[], type: string, payload: EventPayload = {}, options: PublishOptions = {}) {
  const message: Published = { t: 'accounts', merchant: merchantId, accounts: accountIds, type, payload, ...options };
  return { channel: EVENTS_CHANNEL, payload: JSON.stringify(message) };
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

/** How modules publish events; each call rides on the caller's transaction. */
export function createEventPublisher() {
  return {
    /** An event for one account (a message, its unread count, …). */
    toAccount: (tx: Tx, merchantId: string, accountId: string, type: string, payload: EventPayload = {}, options: PublishOptions = {}) =>
      send(tx, { t: 'accounts', merchant: merchantId, accounts: [accountId], type, payload, ...options }),

    /** The same event for several accounts of a merchant; nothing is sent for none. */
    async toAccounts(tx: Tx, merchantId: string, accountIds: string[], type: string, payload: EventPayload = {}, options: PublishOptions = {}) {
      if (accountIds.length === 0) return;
      await send(tx, { t: 'accounts', merchant: merchantId, accounts: accountIds, type, payload, ...options });
    },

    /** Several events, each for one account, sent by one statement (none for none). */
    async eachToAccount(tx: Tx, merchantId: string, events: Array<{ accountId: string; type: string; payload: EventPayload; options?: PublishOptions }>) {
      if (events.length === 0) return;
      const payloads = events.map((e) => JSON.stringify({ t: 'accounts', merchant: merchantId, accounts: [e.accountId], type: e.type, payload: e.payload, ...e.options } satisfies Published));
      await tx.execute(sql`select count(pg_notify(${EVENTS_CHANNEL}, p))::int as sent from unnest(${sql.param(payloads)}::text[]) as p`);
    },

    /** An event for every account of the merchant (an announcement). */
    toMerchant: (tx: Tx, merchantId: string, type: string, payload: EventPayload = {}, options: PublishOptions = {}) =>
      send(tx, { t: 'merchant', merchant: merchantId, type, payload, ...options }),

    /** The notification of an event for some accounts, for a statement of the caller's to send (pg_notify(channel, payload)). */
    accountsNotification,

    /** Sessions ended (one, or a member's all but one): their open streams close on every process. */
    sessionsEnded: (tx: Tx, accountId: string, which: { member?: string; session?: string; except?: string }) =>
      send(tx, { t: 'revoked', account: accountId, ...which }),
  };
}

export type EventPublisher = ReturnType<typeof createEventPublisher>;

/** A stream's reader: the member, their account and role. */
export interface StreamReader {
  accountId: string;
  memberId: string;
  role: Role;
}

/**
 * Completes an event for the readers of streams on this process, when it arrives (so a change nobody
 * watches costs one NOTIFY, and the event tells what holds when it is sent).
 */
export type EventFinisher = (merchantId: string, readers: StreamReader[], event: StreamEvent) => Promise<(reader: StreamReader) => StreamEvent>;
