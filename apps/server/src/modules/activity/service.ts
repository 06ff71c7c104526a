import type { ActivityKind } from '@portal/contract/team';
import { ACTIVITY_KIND_LABELS, ROLE_LABELS, teamLimits } from '@portal/contract/team';
import type { activityExportQuery, activityQuery } from '@portal/contract/team';
import { fromMinorUnits } from '@portal/contract/money';
import { ErrorCode } from '@portal/contract/errors';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/engine.ts';
import { AppError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { maskPhone } from '../../lib/mask.ts';
import { deviceName } from '../../lib/user-agent.ts';
import { type XlsxCell, xlsxStream } from '../../lib/xlsx-stream.ts';
import type { Authenticated } from '../sessions/service.ts';
import { type ActivityFilter, type ActivityRow, activityPage, currentMembers, deleteActivity, insertActivity, loggedMembers } from './store.ts';

/** What was done, as a module describes it: the log adds who, when and from where. */
export interface ActivityNote {
  kind: ActivityKind;
  /** a code for what was done: CARD_FREEZE, CARD_RECHARGE, MEMBER_INVITE … */
  action: string;
  /** 中文, as the log shows it: 冻结卡片 旅行卡（****4242） */
  summary: string;
  cardId?: string | null;
  /** minor units */
  amount?: bigint | null;
  currency?: string | null;
}

/** Who did it and from where: the signed-in member and the request's address and browser. */
export interface ActivityActor {
  merchantId: string;
  accountId: string;
  memberId: string | null;
  label: string;
  ip: string;
  userAgent: string;
}

/** The member as the log names them: 138****8000（管理员）. */
export const memberLabel = (member: { phone: string; role: string }) => `${maskPhone(member.phone)}（${ROLE_LABELS[member.role as keyof typeof ROLE_LABELS] ?? member.role}）`;

/** Who the log names for a call: the member, and when the call came with an API key, that key (by its prefix). */
export const actorOf = (
  auth: Pick<Authenticated, 'account' | 'member'> & { key?: { prefix?: string } },
  caller: { ip: string; userAgent: string },
  merchantId: string,
): ActivityActor => ({
  merchantId,
  accountId: auth.account.id,
  memberId: auth.member.id,
  label: auth.key ? `${memberLabel(auth.member)} · API 密钥` : memberLabel(auth.member),
  ip: caller.ip,
  userAgent: caller.userAgent,
});

type ActivityQuery = z.infer<typeof activityQuery>;
type ActivityExportQuery = z.infer<typeof activityExportQuery>;

const DAY_MS = 86_400_000;
/** A China-time day (YYYY-MM-DD) as the instant it starts. */
const chinaDay = (day: string) => new Date(`${day}T00:00:00+08:00`);

function filterOf(query: ActivityExportQuery): ActivityFilter {
  return {
    memberId: query.member_id,
    kind: query.kind,
    cardId: query.card_id,
    since: query.from ? chinaDay(query.from) : undefined,
    before: query.to ? new Date(chinaDay(query.to).getTime() + DAY_MS) : undefined,
  };
}

function itemOf(row: ActivityRow) {
  return {
    id: row.id,
    at: row.at.toISOString(),
    member_id: row.memberId,
    member_label: row.memberLabel,
    kind: row.kind as ActivityKind,
    summary: row.summary,
    card_id: row.cardId,
    amount: row.amount === null ? null : fromMinorUnits(row.amount),
    currency: row.currency,
    ip: row.ip,
    device: row.userAgent ? deviceName(row.userAgent) : '',
  };
}

/** The activity log: every change of money, cards, members, keys and security, with who made it and from where. */
export function createActivityService({ db, clock }: { db: Db; clock: Clock }) {
  return {
    /** Writes one entry, inside the caller's transaction when it gives one; answers its id. */
    async record(actor: ActivityActor, note: ActivityNote, tx: Tx = db) {
      return insertActivity(tx, {
        merchantId: actor.merchantId,
        accountId: actor.accountId,
        memberId: actor.memberId,
        memberLabel: actor.label,
        kind: note.kind,
        action: note.action,
        summary: note.summary,
        cardId: note.cardId ?? null,
        amount: note.amount ?? null,
        currency: note.currency ?? null,
        ip: actor.ip,
        userAgent: actor.userAgent.slice(0, 300),
        at: clock.now(),
      });
    },

    /** Takes an entry back (the change it told of was undone), inside the caller's transaction. */
    retract: (id: string, tx: Tx = db) => deleteActivity(tx, id),

    /**
     * GET /team/activity/members: whom the log can be filtered by, for every role that reads it (财务
     * included, who may not list the team): the members now, then any removed member the log names.
     */
    async members(merchantId: string, accountId: string) {
      const [now, logged] = await Promise.all([currentMembers(db, accountId), loggedMembers(db, merchantId, accountId)]);
      const items = now.map((member) => ({ id: member.id, label: memberLabel(member) }));
      const listed = new Set(items.map((item) => item.id));
      for (const member of logged) if (!listed.has(member.id)) items.push({ id: member.id, label: member.label });
      return { items };
    },

    /** GET /team/activity */
    async list(merchantId: string, accountId: string, query: ActivityQuery) {
      const { rows, total } = await activityPage(db, merchantId, accountId, filterOf(query), {
        limit: query.page_size,
        offset: (query.page - 1) * query.page_size,
      });
      return { items: rows.map(itemOf), total, page: query.page, page_size: query.page_size };
    },

    /** GET /team/activity/export: the filtered log as .xlsx, newest first; more than the limit is refused. */
    async export(merchantId: string, accountId: string, query: ActivityExportQuery) {
      const limit = teamLimits.activityExportMax;
      const { rows, total } = await activityPage(db, merchantId, accountId, filterOf(query), { limit, offset: 0 });
      if (total > limit) throw new AppError(ErrorCode.EXPORT_TOO_LARGE, { params: { limit }, data: { limit, total } });
      async function* lines(): AsyncGenerator<Record<string, XlsxCell>> {
        for (const row of rows) {
          const item = itemOf(row);
          yield {
            time: row.at,
            member: item.member_label,
            kind: ACTIVITY_KIND_LABELS[item.kind],
            summary: item.summary,
            amount: item.amount === null ? null : Number(item.amount),
            currency: item.currency,
            ip: item.ip,
            device: item.device,
          };
        }
      }
      return xlsxStream({
        name: '操作日志',
        columns: [
          { header: '时间', key: 'time', width: 21, kind: 'time' },
          { header: '操作人', key: 'member', width: 24 },
          { header: '类别', key: 'kind', width: 10 },
          { header: '操作', key: 'summary', width: 40 },
          { header: '金额', key: 'amount', width: 14, kind: 'amount' },
          { header: '币种', key: 'currency', width: 8 },
          { header: 'IP', key: 'ip', width: 18 },
          { header: '设备', key: 'device', width: 24 },
        ],
        rows: lines(),
      });
    },
  };
}

export type ActivityService = ReturnType<typeof createActivityService>;
