/**
 * What a card's list figures are at a moment, read from `card_figures` (schema/spending.ts), the row the
 * trigger on card_transactions keeps: one definition for the card list's sorts and for the figures a page
 * shows, so the card sorted first shows the largest figure.
 * - spent this month: approved and settled CONSUME amounts since the 1st, China time (a figure of an
 *   earlier month reads as 0);
 * - the decline rate's counts: of the authorisations of the last RISK_WINDOW_DAYS China days (today and the
 *   days before it), those with an authorisation id, and those declined;
 * - last used: the card's latest authorisation.
 * Only when the clock reads earlier than a card's latest authorisation (a row written "in the future") is a
 * figure counted from the card's rows instead: the row keeps the latest month and days alone.
 */
import { RISK_WINDOW_DAYS } from '@portal/contract/card-spending';
import { type SQL, sql } from 'drizzle-orm';

const DAY_MS = 24 * 60 * 60_000;
const CHINA_OFFSET_MS = 8 * 60 * 60_000;

/** The moment's month and window, as the figures are kept (China days since 1970-01-01, months as year × 12 + month − 1). */
export interface FigureMoment {
  month: number;
  monthStart: Date;
  /** the window's first day */
  firstDay: number;
  windowStart: Date;
}

/** The month and the decline-rate window the figures are read for at `now`. */
export function figureMoment(now: Date): FigureMoment {
  const today = Math.floor((now.getTime() + CHINA_OFFSET_MS) / DAY_MS);
  const shifted = new Date(today * DAY_MS);
  const firstDay = today - (RISK_WINDOW_DAYS - 1);
  return {
    month: shifted.getUTCFullYear() * 12 + shifted.getUTCMonth(),
    monthStart: new Date(Date.UTC(shifted.getUTCFullYear(), shifted.getUTCMonth(), 1) - CHINA_OFFSET_MS),
    firstDay,
    windowStart: new Date(firstDay * DAY_MS - CHINA_OFFSET_MS),
  };
}

/** The ring of counts in card_figures holds this many days (the migration's 30). */
const RING_DAYS = 30;

/**
 * The figures of the card_figures row `f` (a table or subquery alias; null columns when the card has no
 * row: no authorisation) at the moment: `spent` (numeric), `authorised` and `declined` (integers).
 */
export function cardFigureTerms(f: string, at: FigureMoment): { spent: SQL; authorised: SQL; declined: SQL } {
  const row = sql.raw(f);
  const slot = sql.raw(String((((at.firstDay % RING_DAYS) + RING_DAYS) % RING_DAYS) + 1));
  const month = sql.raw(String(at.month));
  const firstDay = sql.raw(String(at.firstDay));
  const ofRows = (what: SQL, since: Date) =>
    sql`(select ${what} from card_transactions t where t.card_id = ${row}.card_id and t.type = 'CONSUME' and t.created_at >= ${since.toISOString()}::timestamptz)`;
  const counted = (total: string, before: string, what: SQL) =>
    sql`case when ${row}.window_day is null or ${row}.window_day < ${firstDay} then 0
      when ${row}.window_day - ${sql.raw(String(RING_DAYS - 1))} <= ${firstDay} then ${row}.${sql.raw(total)} - ${row}.${sql.raw(before)}[${slot}]
      else ${ofRows(what, at.windowStart)} end`;
  return {
    spent: sql`case when ${row}.spent_month is null or ${row}.spent_month < ${month} then 0 when ${row}.spent_month = ${month} then ${row}.spent::numeric
      else ${ofRows(sql`coalesce(sum(t.amount) filter (where t.status in ('PENDING', 'CLOSED')), 0)`, at.monthStart)} end`,
    authorised: counted('authorised', 'authorised_before', sql`(count(*) filter (where t.authorization_id is not null))::int`),
    declined: counted('declined', 'declined_before', sql`(count(*) filter (where t.decline_code is not null))::int`),
  };
}
