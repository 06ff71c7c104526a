import { ErrorCode } from '@portal/contract/errors';
import { EVENT_TYPES, type MessageItem, type MessageListQuery, type StreamEvent } from '@portal/contract/messages';
import type { Db, Tx } from '../../db/engine.ts';
import { AppError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { type EventPublisher, excerpt } from '../events/publisher.ts';
import {
  type AnnouncementRow,
  expireMessageContents,
  findAnnouncement,
  findStationMessage,
  insertAnnouncement,
  insertStationMessage,
  insertStationMessages,
  markAllAnnouncementsRead,
  markAllStationMessagesRead,
  markAnnouncementRead,
  markStationMessageRead,
  pageAnnouncements,
  pageMerchantAnnouncements,
  pageStationMessages,
  type StationMessageRow,
  unreadCounts,
  type Viewer,
} from './store.ts';

export interface NewStationMessage {
  merchantId: string;
  accountId: string;
  /** NOTICE by default; FREEZE makes the portal re-check the wallet */
  type?: string;
  title: string;
  content: string;
  status?: string;
  /** a content holding a secret for a while: from `expiresAt` on, `expiredContent` is shown (and kept) instead */
  expiring?: { expiresAt: Date; expiredContent: string };
  /** only this member sees it (a change of their own security) */
  memberId?: string | null;
  /** a card's message: its holder, and the roles that receive every card's, see it */
  holderMemberId?: string | null;
}

const messageView = (row: StationMessageRow, now: Date): MessageItem => ({
  id: row.id,
  kind: 'message',
  type: row.type,
  title: row.title,
  content: row.contentExpiresAt && row.contentExpiresAt <= now && row.expiredContent !== null ? row.expiredContent : row.content,
  status: row.status,
  is_read: row.readAt !== null,
  created_at: row.createdAt.toISOString(),
});

const announcementView = (row: AnnouncementRow, isRead: boolean): MessageItem => ({
  id: row.id,
  kind: 'announcement',
  type: 'ANNOUNCEMENT',
  title: row.title,
  content: row.content,
  status: row.status,
  is_read: Boolean(isRead),
  created_at: row.publishedAt.toISOString(),
});

/** The type of an announcement's event. */
const ANNOUNCEMENT_EVENT = 'ANNOUNCEMENT';
/** The finisher that adds each account's own unread count to an announcement's event when it is sent. */
export const UNREAD_FINISHER = 'messages:unread';

/** Station messages to one account and announcements to all of a merchant's, with their read state. */
export function createMessageService({ db, clock, events }: { db: Db; clock: Clock; events: EventPublisher }) {
  const unreadOf = async (tx: Tx, merchantId: string, viewer: Viewer) => (await unreadCounts(tx, merchantId, [viewer])).get(viewer.memberId) ?? 0;

  /**
   * Writes a station message inside the caller's transaction and tells the account's open streams
   * once that transaction commits (the notification rides on it).
   */
  async function post(tx: Tx, message: NewStationMessage) {
    const row = await insertStationMessage(tx, {
      merchantId: message.merchantId,
      accountId: message.accountId,
      type: message.type ?? 'NOTICE',
      title: message.title,
      content: message.content,
      status: message.status ?? 'success',
      createdAt: clock.now(),
      memberId: message.memberId ?? null,
      holderMemberId: message.holderMemberId ?? null,
      ...(message.expiring ? { contentExpiresAt: message.expiring.expiresAt, expiredContent: message.expiring.expiredContent } : {}),
    });
    // a new secret-holding message: the account's expired ones give up theirs now
    if (message.expiring) await expireMessageContents(tx, message.accountId, clock.now());
    // to the streams of the members who see it, each with their own unread count (completed as it is sent)
    await events.toAccount(
      tx,
      message.merchantId,
      message.accountId,
      row.type,
      { kind: 'message', id: row.id, title: row.title, status: row.status, content: excerpt(row.content) },
      { finish: UNREAD_FINISHER, audience: { member: row.memberId ?? undefined, holder: row.holderMemberId ?? undefined } },
    );
    return row;
  }

  /**
   * Many station messages (none with an expiring content) written in one statement inside the caller's
   * transaction, their events sent by one more when it commits.
   */
  async function postMany(tx: Tx, list: NewStationMessage[]) {
    if (list.some((message) => message.expiring)) throw new Error('postMany writes no expiring message');
    const rows = await insertStationMessages(
      tx,
      list.map((message) => ({
        merchantId: message.merchantId,
        accountId: message.accountId,
        type: message.type ?? 'NOTICE',
        title: message.title,
        content: message.content,
        status: message.status ?? 'success',
        createdAt: clock.now(),
        memberId: message.memberId ?? null,
        holderMemberId: message.holderMemberId ?? null,
      })),
    );
    for (const merchantId of new Set(rows.map((row) => row.merchantId))) {
      await events.eachToAccount(
        tx,
        merchantId,
        rows
          .filter((row) => row.merchantId === merchantId)
          .map((row) => ({
            accountId: row.accountId,
            type: row.type,
            payload: { kind: 'message', id: row.id, title: row.title, status: row.status, content: excerpt(row.content) },
            options: { finish: UNREAD_FINISHER, audience: { member: row.memberId ?? undefined, holder: row.holderMemberId ?? undefined } },
          })),
      );
    }
    return rows;
  }

  /** Publishes an announcement to every account of the merchant, inside the caller's transaction. */
  async function announce(tx: Tx, values: { merchantId: string; title: string; content: string; status?: string }) {
    const row = await insertAnnouncement(tx, { ...values, status: values.status ?? 'success', publishedAt: clock.now() });
    await events.toMerchant(
      tx,
      values.merchantId,
      ANNOUNCEMENT_EVENT,
      { kind: 'announcement', id: row.id, title: row.title, status: row.status, content: excerpt(row.content) },
      { finish: UNREAD_FINISHER },
    );
    return row;
  }

  return {
    post,
    postMany,
    announce,

    /** Sends a station message in a transaction of its own. */
    send(message: NewStationMessage) {
      return db.transaction((tx) => post(tx, message));
    },

    /** A page of the merchant's announcements, newest first (the console's list). */
    announcementsOf: (merchantId: string, limit: number, offset: number) => pageMerchantAnnouncements(db, merchantId, limit, offset),

    /** Publishes an announcement in a transaction of its own. */
    publish(values: { merchantId: string; title: string; content: string; status?: string }) {
      return db.transaction((tx) => announce(tx, values));
    },

    /** Completes a message's or an announcement's event with each member's own unread count, read in one query. */
    async withUnreadCounts(merchantId: string, viewers: Viewer[], event: StreamEvent) {
      const counts = await unreadCounts(db, merchantId, viewers);
      return (viewer: Viewer): StreamEvent => ({ ...event, unread_quantity: counts.get(viewer.memberId) ?? 0 });
    },

    async list(merchantId: string, viewer: Viewer, query: MessageListQuery) {
      const offset = (query.page - 1) * query.page_size;
      if (query.kind === 'announcement') {
        const { rows, total } = await pageAnnouncements(db, merchantId, viewer.accountId, query.read, query.page_size, offset);
        return { items: rows.map((r) => announcementView(r.announcement, r.isRead)), total, page: query.page, page_size: query.page_size };
      }
      const { rows, total } = await pageStationMessages(db, viewer, query.read, query.page_size, offset);
      return { items: rows.map((row) => messageView(row, clock.now())), total, page: query.page, page_size: query.page_size };
    },

    async detail(merchantId: string, viewer: Viewer, kind: 'message' | 'announcement', id: string) {
      if (kind === 'announcement') {
        const found = await findAnnouncement(db, merchantId, viewer.accountId, id);
        if (!found) throw new AppError(ErrorCode.MESSAGE_NOT_FOUND);
        return announcementView(found.announcement, found.isRead);
      }
      const row = await findStationMessage(db, viewer, id);
      if (!row) throw new AppError(ErrorCode.MESSAGE_NOT_FOUND);
      return messageView(row, clock.now());
    },

    unreadCount: (merchantId: string, viewer: Viewer) => unreadOf(db, merchantId, viewer),

    /**
     * Marks one message or announcement read, or all the member sees; the read state is the account's, so
     * every open tab of its members hears its own new count.
     */
    async markRead(merchantId: string, viewer: Viewer, body: { id?: string | undefined; all?: boolean | undefined; kind?: 'message' | 'announcement' | undefined }) {
      const now = clock.now();
      const { accountId } = viewer;
      const result = await db.transaction(async (tx) => {
        if (body.all) {
          if (body.kind !== 'announcement') await markAllStationMessagesRead(tx, viewer, now);
          if (body.kind !== 'message') await markAllAnnouncementsRead(tx, merchantId, accountId, now);
        } else {
          const id = body.id as string;
          const message = await findStationMessage(tx, viewer, id);
          if (message) await markStationMessageRead(tx, viewer, id, now);
          else if (await findAnnouncement(tx, merchantId, accountId, id)) await markAnnouncementRead(tx, accountId, id, now);
          else return null;
        }
        const count = await unreadOf(tx, merchantId, viewer);
        await events.toAccount(tx, merchantId, accountId, EVENT_TYPES.unread, {}, { finish: UNREAD_FINISHER });
        return count;
      });
      if (result === null) throw new AppError(ErrorCode.MESSAGE_NOT_FOUND);
      return { unread_quantity: result };
    },
  };
}

export type MessageService = ReturnType<typeof createMessageService>;
export type { Viewer };
