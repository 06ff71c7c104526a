/**
 * The merchant's console: its operators (password and TOTP), their sessions, their recovery codes, and
 * the audit log of every operator action. Secrets are kept hashed (passwords, tokens, recovery codes)
 * or sealed (the TOTP secret, which the server must read to check a code).
 */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, ts } from './columns.ts';
import { merchantRef } from './merchants.ts';

export const operators = pgTable(
  'operators',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: merchantRef(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    role: text('role').notNull(),
    status: text('status').notNull().default('ACTIVE'),
    passwordHash: text('password_hash').notNull(),
    /** sealed; null until enrolled */
    totpSecret: text('totp_secret'),
    /** sealed; the secret shown at the sign-in that has not enrolled yet */
    totpPendingSecret: text('totp_pending_secret'),
    totpEnrolledAt: ts('totp_enrolled_at'),
    /** the last 30-second step a code was accepted for: a code of it or an earlier one is refused */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    failures: integer('failures').notNull().default(0),
    failuresSince: ts('failures_since'),
    lockedUntil: ts('locked_until'),
    lastSignInAt: ts('last_sign_in_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('operators_merchant_email_uq').on(t.merchantId, t.email),
    check('operators_role', sql`${t.role} in ('SUPPORT', 'FINANCE', 'RISK', 'ADMIN')`),
    check('operators_status', sql`${t.status} in ('ACTIVE', 'DISABLED')`),
  ],
);

export const operatorSessions = pgTable(
  'operator_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: merchantRef(),
    operatorId: uuid('operator_id')
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    stage: text('stage').notNull(),
    ip: text('ip').notNull(),
    userAgent: text('user_agent').notNull(),
    createdAt: ts('created_at').notNull(),
    lastSeenAt: ts('last_seen_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
  },
  (t) => [
    uniqueIndex('operator_sessions_token_uq').on(t.tokenHash),
    index('operator_sessions_operator').on(t.operatorId).where(sql`${t.revokedAt} is null`),
    check('operator_sessions_stage', sql`${t.stage} in ('ENROL', 'VERIFY', 'FULL')`),
  ],
);

export const operatorRecoveryCodes = pgTable(
  'operator_recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    operatorId: uuid('operator_id')
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: ts('used_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('operator_recovery_codes_uq').on(t.operatorId, t.codeHash)],
);

export const operatorAudit = pgTable(
  'operator_audit',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** the order rows were written in: rows of one instant still list newest first */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    merchantId: merchantRef(),
    channel: text('channel').notNull(),
    /** null: the command line, or a sign-in for an e-mail that is no operator */
    operatorId: uuid('operator_id').references(() => operators.id),
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    target: text('target'),
    before: jsonb('before').$type<Record<string, unknown>>(),
    after: jsonb('after').$type<Record<string, unknown>>(),
    ip: text('ip').notNull(),
    at: ts('at').notNull(),
  },
  (t) => [
    index('operator_audit_merchant_at').on(t.merchantId, t.at.desc(), t.seq.desc()),
    check('operator_audit_channel', sql`${t.channel} in ('CONSOLE', 'CLI')`),
  ],
);
