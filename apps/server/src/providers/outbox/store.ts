import { desc, eq } from 'drizzle-orm';
import type { Tx } from '../../db/engine.ts';
import { devOutbox } from '../../db/schema.ts';

export interface OutboxEntry {
  channel: 'sms' | 'email';
  to: string;
  subject: string;
  text: string;
}

export async function insertOutboxEntry(tx: Tx, entry: OutboxEntry) {
  await tx.insert(devOutbox).values(entry);
}

export async function listOutbox(tx: Tx, limit: number, to?: string) {
  return tx
    .select({
      channel: devOutbox.channel,
      to: devOutbox.to,
      subject: devOutbox.subject,
      text: devOutbox.text,
      created_at: devOutbox.createdAt,
    })
    .from(devOutbox)
    .where(to ? eq(devOutbox.to, to) : undefined)
    .orderBy(desc(devOutbox.createdAt))
    .limit(limit);
}
