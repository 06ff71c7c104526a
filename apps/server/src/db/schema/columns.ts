/** The column shapes every table uses the same way. */
import { bigint, timestamp } from 'drizzle-orm/pg-core';

export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 6 });

export const minorUnits = (name: string) => bigint(name, { mode: 'bigint' });
