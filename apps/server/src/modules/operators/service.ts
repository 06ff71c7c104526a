import { randomBytes } from 'node:crypto';
import {
  AUDIT_EXPORT_MAX,
  type AuditItem,
  auditActionLabel,
  auditChannelLabel,
  type auditExportQuery,
  type auditQuery,
  CONSOLE_ACTIONS,
  type ConsoleAction,
  type ConsoleOverview,
  consolePolicy,
  isOperatorPassword,
  type OperatorCreateBody,
  type OperatorPasswordBody,
  type OperatorRole,
  type OperatorStage,
  type OperatorView,
  operatorMay,
  operatorRoleLabel,
  rolesFor,
} from '@portal/contract/console';
import { ConsoleErrorCode } from '@portal/contract/console-errors';
import { chinaDateTime } from '@portal/contract/date-time';
import { fromMinorUnits } from '@portal/contract/money';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/engine.ts';
import { AppError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { hashPassword, sha256, verifyPassword } from '../../lib/crypto.ts';
import type { Sealer } from '../../lib/sealed.ts';
import { type AuditFilter, type AuditRow, insertAudit, listAudit } from './audit-store.ts';
import { cardsByStatus, heldPerCurrency, jobCounts, spendOfDay } from './overview-store.ts';
import { type ConsoleCaller, type ConsoleMerchant, createOperatorSignIn } from './sign-in.ts';
import {
  countRecoveryCodesLeft,
  findOperator,
  findOperatorByEmail,
  findSessionByTokenHash,
  insertOperator,
  listOperators,
  lockOperator,
  type OperatorRow,
  type OperatorSessionRow,
  replaceRecoveryCodes,
  revokeOperatorSessions,
  touchSession,
  updateOperator,
} from './store.ts';

export type { ConsoleCaller, ConsoleMerchant } from './sign-in.ts';

/** A signed-in operator: who they are and the session their token opened. */
export interface SignedInOperator {
  operator: OperatorRow;
  session: OperatorSessionRow;
}

/** Who did an operator command: an operator in the console, or the command line (its shell user). */
export type AuditActor = { channel: 'CONSOLE'; operator: Pick<OperatorRow, 'id' | 'email'>; ip: string } | { channel: 'CLI'; user: string };

/** An operator to add: the e-mail they sign in with, a name the console shows, a role. */
interface NewOperator {
  email: string;
  name?: string | undefined;
  role: OperatorRole;
}

/** last_seen_at is written at most this often, so reads stay reads */
const TOUCH_EVERY_MS = 60_000;
const CHINA_OFFSET_MS = 8 * 60 * 60_000;
const DAY_MS = 24 * 60 * 60_000;

const chinaDayNumber = (at: Date) => Math.floor((at.getTime() + CHINA_OFFSET_MS) / DAY_MS);
/** YYYY-MM-DD (China time) → the instant that day begins. */
const chinaDayStartOf = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) - CHINA_OFFSET_MS);

export const operatorView = (row: OperatorRow): OperatorView => ({
  id: row.id,
  email: row.email,
  name: row.name,
  role: row.role as OperatorRole,
  status: row.status as OperatorView['status'],
  totp_enrolled: row.totpSecret !== null,
  last_sign_in_at: row.lastSignInAt?.toISOString() ?? null,
  created_at: row.createdAt.toISOString(),
});

const auditItem = (row: AuditRow): AuditItem => ({
  id: row.id,
  at: row.at.toISOString(),
  channel: row.channel as AuditItem['channel'],
  operator_id: row.operatorId,
  actor: row.actor,
  action: row.action as AuditItem['action'],
  target: row.target,
  before: row.before ?? null,
  after: row.after ?? null,
  ip: row.ip,
});

/**
 * A password an operator is given once (by the command line or an ADMIN): 20 URL-safe characters, drawn again
 * until it is one the operator could also have chosen (letters and digits both).
 */
export function newPassword(draw: () => string = () => randomBytes(15).toString('base64url')): string {
  for (;;) {
    const password = draw();
    if (isOperatorPassword(password)) return password;
  }
}

/** The merchant's console operators: their sign-in and sessions, the audit log of what they do, and the overview they read. */
export function createOperatorService({ db, clock, sealer, codeHashKey }: { db: Db; clock: Clock; sealer: Sealer; codeHashKey: () => string }) {
  const signIn = createOperatorSignIn({ db, clock, sealer, codeHashKey });

  async function audit(tx: Tx, merchantId: string, actor: AuditActor, action: string, values: { target?: string; before?: Record<string, unknown>; after?: Record<string, unknown> }) {
    await insertAudit(tx, {
      merchantId,
      channel: actor.channel,
      operatorId: actor.channel === 'CONSOLE' ? actor.operator.id : null,
      actor: actor.channel === 'CONSOLE' ? actor.operator.email : `命令行：${actor.user}`,
      action,
      target: values.target ?? null,
      before: values.before ?? null,
      after: values.after ?? null,
      ip: actor.channel === 'CONSOLE' ? actor.ip : 'local',
      at: clock.now(),
    });
  }

  async function operatorByEmail(merchantId: string, email: string) {
    const operator = await findOperatorByEmail(db, merchantId, email.trim().toLowerCase());
    if (!operator) throw new AppError(ConsoleErrorCode.OPERATOR_NOT_FOUND);
    return operator;
  }

  /** The signed-in operator behind a console bearer token, or the refusal that says why there is none. */
  async function authenticate(merchantId: string, token: string | undefined): Promise<SignedInOperator & { stage: OperatorStage }> {
    if (!token) throw new AppError(ConsoleErrorCode.SIGN_IN_REQUIRED);
    const found = await findSessionByTokenHash(db, sha256(token));
    if (!found || found.session.merchantId !== merchantId || found.session.revokedAt) throw new AppError(ConsoleErrorCode.SESSION_INVALID);
    const now = clock.now();
    if (now.getTime() - found.session.lastSeenAt.getTime() > consolePolicy.idleMs || now.getTime() >= found.session.expiresAt.getTime()) {
      throw new AppError(ConsoleErrorCode.SESSION_EXPIRED);
    }
    if (found.operator.status !== 'ACTIVE') throw new AppError(ConsoleErrorCode.OPERATOR_DISABLED);
    let session = found.session;
    if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
      await touchSession(db, session.id, now);
      session = { ...session, lastSeenAt: now };
    }
    return { operator: found.operator, session, stage: session.stage as OperatorStage };
  }

  /** Refuses what the operator's role may not do (the contract's table), before anything of the call runs. */
  function requireAction(operator: Pick<OperatorRow, 'role'>, action: ConsoleAction) {
    if (!operatorMay(operator.role as OperatorRole, action)) {
      throw new AppError(ConsoleErrorCode.ROLE_DENIED, { params: { roles: rolesFor(action) }, data: { action } });
    }
  }

  const consoleActor = (signedIn: SignedInOperator, caller: ConsoleCaller): AuditActor => ({ channel: 'CONSOLE', operator: signedIn.operator, ip: caller.ip });

  /** The merchant's operator of that id, other than the one acting: an ADMIN neither disables nor resets themself here. */
  async function otherOperator(merchantId: string, signedIn: SignedInOperator, id: string) {
    const operator = await findOperator(db, merchantId, id);
    if (!operator) throw new AppError(ConsoleErrorCode.OPERATOR_NOT_FOUND);
    if (operator.id === signedIn.operator.id) throw new AppError(ConsoleErrorCode.OPERATOR_SELF);
    return operator;
  }

  async function newOperatorValues(values: NewOperator) {
    const email = values.email.trim().toLowerCase();
    const password = newPassword();
    return { email, name: values.name?.trim() || email.split('@')[0] || email, role: values.role, password, passwordHash: await hashPassword(password) };
  }

  async function createIn(tx: Tx, merchantId: string, made: Awaited<ReturnType<typeof newOperatorValues>>, actor: AuditActor) {
    const { email, name, role, password, passwordHash } = made;
    const row = await insertOperator(tx, { merchantId, email, name, role, passwordHash });
    if (!row) throw new AppError(ConsoleErrorCode.EMAIL_TAKEN);
    await audit(tx, merchantId, actor, 'OPERATOR_CREATED', { target: email, after: { email, name, role } });
    return { operator: operatorView(row), password };
  }

  async function disableIn(tx: Tx, merchantId: string, operator: OperatorRow, actor: AuditActor) {
    const row = await updateOperator(tx, operator.id, { status: 'DISABLED' });
    const ended = await revokeOperatorSessions(tx, operator.id, clock.now());
    await audit(tx, merchantId, actor, 'OPERATOR_DISABLED', { target: operator.email, before: { status: operator.status }, after: { status: 'DISABLED', sessions_ended: ended } });
    return operatorView(row);
  }

  async function resetIn(tx: Tx, merchantId: string, operator: OperatorRow, passwordHash: string, actor: AuditActor) {
    const updated = await updateOperator(tx, operator.id, {
      passwordHash,
      totpSecret: null,
      totpPendingSecret: null,
      totpEnrolledAt: null,
      totpLastStep: null,
      failures: 0,
      failuresSince: null,
      lockedUntil: null,
    });
    await replaceRecoveryCodes(tx, operator.id, []);
    const ended = await revokeOperatorSessions(tx, operator.id, clock.now());
    await audit(tx, merchantId, actor, 'OPERATOR_RESET', {
      target: operator.email,
      before: { totp_enrolled: operator.totpSecret !== null },
      after: { password: 'NEW', totp_enrolled: false, sessions_ended: ended },
    });
    return updated;
  }

  return {
    authenticate,
    requireAction,
    login: signIn.login,
    giveCode: signIn.giveCode,
    withActionCode: signIn.withActionCode,
    logout: signIn.logout,
    /** Writes an operator action's audit row inside the transaction of the change it records. */
    record: audit,

    /** A new operator with a password answered once; they enrol an authenticator at their first sign-in. */
    async create(merchantId: string, values: NewOperator, actor: AuditActor) {
      const made = await newOperatorValues(values);
      return db.transaction((tx) => createIn(tx, merchantId, made, actor));
    },

    list: async (merchantId: string) => (await listOperators(db, merchantId)).map(operatorView),

    /** Disables an operator and ends their sessions at once. */
    async disable(merchantId: string, email: string, actor: AuditActor) {
      const operator = await operatorByEmail(merchantId, email);
      return db.transaction((tx) => disableIn(tx, merchantId, operator, actor));
    },

    /**
     * A new password (answered once), no authenticator and no recovery codes (enrolled again at the next
     * sign-in), no lock, every session ended; a disabled operator stays disabled.
     */
    async reset(merchantId: string, email: string, actor: AuditActor) {
      const operator = await operatorByEmail(merchantId, email);
      const password = newPassword();
      const passwordHash = await hashPassword(password);
      const row = await db.transaction((tx) => resetIn(tx, merchantId, operator, passwordHash, actor));
      return { operator: operatorView(row), password };
    },

    /** POST /operators: an ADMIN adds an operator with their own code, taken in the same transaction. */
    async createByAdmin(merchant: ConsoleMerchant, signedIn: SignedInOperator, body: OperatorCreateBody, caller: ConsoleCaller) {
      const made = await newOperatorValues(body);
      return signIn.withActionCode(merchant, signedIn.operator, body.totp, caller, (tx) => createIn(tx, merchant.id, made, consoleActor(signedIn, caller)));
    },

    /** POST /operators/{id}/disable: another operator of the merchant, never the ADMIN themself. */
    async disableById(merchant: ConsoleMerchant, signedIn: SignedInOperator, id: string, totp: string, caller: ConsoleCaller) {
      const operator = await otherOperator(merchant.id, signedIn, id);
      return signIn.withActionCode(merchant, signedIn.operator, totp, caller, (tx) => disableIn(tx, merchant.id, operator, consoleActor(signedIn, caller)));
    },

    /** POST /operators/{id}/reset */
    async resetById(merchant: ConsoleMerchant, signedIn: SignedInOperator, id: string, totp: string, caller: ConsoleCaller) {
      const operator = await otherOperator(merchant.id, signedIn, id);
      const password = newPassword();
      const passwordHash = await hashPassword(password);
      const row = await signIn.withActionCode(merchant, signedIn.operator, totp, caller, (tx) => resetIn(tx, merchant.id, operator, passwordHash, consoleActor(signedIn, caller)));
      return { operator: operatorView(row), password };
    },

    /**
     * PUT /auth/password: the operator's own password, with the current one and a code of their
     * authenticator; a wrong current password counts towards the sign-in lock as a wrong code does.
     * Their other sessions end; this one stays.
     */
    async changePassword(merchant: ConsoleMerchant, signedIn: SignedInOperator, body: OperatorPasswordBody, caller: ConsoleCaller) {
      if (body.new_password === body.current_password) throw new AppError(ConsoleErrorCode.PASSWORD_SAME);
      const passwordHash = await hashPassword(body.new_password);
      await signIn.withActionCode(merchant, signedIn.operator, body.totp, caller, async (tx) => {
        const held = await lockOperator(tx, signedIn.operator.id);
        if (!held || !(await verifyPassword(held.passwordHash, body.current_password))) throw new AppError(ConsoleErrorCode.PASSWORD_WRONG);
        await updateOperator(tx, held.id, { passwordHash });
        const ended = await revokeOperatorSessions(tx, held.id, clock.now(), signedIn.session.id);
        await audit(tx, merchant.id, consoleActor(signedIn, caller), 'PASSWORD_CHANGED', { target: held.email, after: { password: 'NEW', other_sessions_ended: ended } });
      });
    },

    async me({ operator }: SignedInOperator) {
      const actions = (Object.keys(CONSOLE_ACTIONS) as ConsoleAction[]).filter((action) => operatorMay(operator.role as OperatorRole, action));
      return { operator: operatorView(operator), actions, recovery_codes_left: await countRecoveryCodesLeft(db, operator.id) };
    },

    async overview(merchantId: string): Promise<ConsoleOverview> {
      const now = clock.now();
      const [held, cards, today, jobs] = await Promise.all([
        heldPerCurrency(db, merchantId),
        cardsByStatus(db, merchantId),
        spendOfDay(db, merchantId, chinaDayNumber(now)),
        jobCounts(db, merchantId, new Date(now.getTime() - DAY_MS)),
      ]);
      const running = [
        { kind: 'CARD_BATCH', count: jobs.batches.filter((row) => row.status === 'RUNNING').reduce((sum, row) => sum + row.count, 0) },
        { kind: 'CARD_EXPORT', count: jobs.exports.filter((row) => row.status !== 'FAILED').reduce((sum, row) => sum + row.count, 0) },
        { kind: 'CARD_BULK', count: jobs.bulk.filter((row) => row.status !== 'DONE').reduce((sum, row) => sum + row.count, 0) },
      ];
      const failed = [
        { kind: 'CARD_BATCH', count: jobs.batches.filter((row) => row.status === 'FAIL').reduce((sum, row) => sum + row.count, 0) },
        { kind: 'CARD_EXPORT', count: jobs.exports.filter((row) => row.status === 'FAILED').reduce((sum, row) => sum + row.count, 0) },
        // a bulk action is done even when some of its cards failed: it counts as failed then
        { kind: 'CARD_BULK', count: jobs.bulk.filter((row) => row.status === 'DONE').reduce((sum, row) => sum + row.count, 0) },
      ];
      return {
        day: chinaDateTime(now).slice(0, 10),
        held: held.map((row) => ({
          currency: row.currency,
          wallets: fromMinorUnits(row.wallets),
          cards: fromMinorUnits(row.cards),
          total: fromMinorUnits(BigInt(row.wallets) + BigInt(row.cards)),
        })),
        cards: cards.map((row) => ({ status: row.status as ConsoleOverview['cards'][number]['status'], count: row.count })),
        today: today.map((row) => ({ currency: row.currency, spent: fromMinorUnits(row.spent), authorisations: row.authorisations, declined: row.declined })),
        jobs: { running, failed },
      };
    },

    /** A page of the merchant's audit log, newest first. */
    async audit(merchantId: string, query: z.output<typeof auditQuery>) {
      const filter = auditFilter(merchantId, query);
      const { rows, total } = await listAudit(db, filter, query.page_size, (query.page - 1) * query.page_size);
      return { items: rows.map(auditItem), total, page: query.page, page_size: query.page_size };
    },

    /** The audit log's rows with the same filters as CSV (UTF-8 with its mark, for spreadsheets); the export is audit-logged with it. */
    async exportAudit(merchantId: string, query: z.output<typeof auditExportQuery>, actor: AuditActor) {
      const filter = auditFilter(merchantId, query);
      return db.transaction(async (tx) => {
        const { rows, total } = await listAudit(tx, filter, AUDIT_EXPORT_MAX, 0);
        await audit(tx, merchantId, actor, 'AUDIT_EXPORTED', { after: { ...query, rows: rows.length, total } });
        const header = ['时间', '渠道', '操作人', '操作', '对象', '变更前', '变更后', 'IP'];
        const lines = rows.map((row) => [
          chinaDateTime(row.at, { seconds: true }),
          auditChannelLabel[row.channel as AuditItem['channel']] ?? row.channel,
          row.actor,
          auditActionLabel[row.action as AuditItem['action']] ?? row.action,
          row.target ?? '',
          row.before ? JSON.stringify(row.before) : '',
          row.after ? JSON.stringify(row.after) : '',
          row.ip,
        ]);
        const csv = `\uFEFF${[header, ...lines].map((line) => line.map(csvCell).join(',')).join('\r\n')}\r\n`;
        return { csv, day: chinaDateTime(clock.now()).slice(0, 10) };
      });
    },

    /** The role's 中文 label, for the command line's answers. */
    roleLabel: (role: OperatorRole) => operatorRoleLabel[role],
  };
}

function auditFilter(merchantId: string, query: { operator_id?: string | undefined; action?: string | undefined; from?: string | undefined; to?: string | undefined }): AuditFilter {
  return {
    merchantId,
    operatorId: query.operator_id,
    action: query.action,
    from: query.from ? chinaDayStartOf(query.from) : undefined,
    to: query.to ? new Date(chinaDayStartOf(query.to).getTime() + DAY_MS) : undefined,
  };
}

/** A CSV cell: quoted when it must be; a leading = + - @ is kept as text, never a spreadsheet formula. */
function csvCell(value: string) {
  const text = /^[=+\-@]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export type OperatorService = ReturnType<typeof createOperatorService>;
