/**
 * Every time a customer reads (screens, station messages, e-mails, exports) is China Standard Time
 * (Asia/Shanghai, UTC+8 all year) in one format: "2026-03-01 08:30", or to the second
 * ("2026-03-01 08:30:05") where a record needs it.
 */

const CHINA_OFFSET_MS = 8 * 60 * 60_000;

/** The instant whose UTC reading is China's wall clock at `at` (what a spreadsheet's date cell holds). */
export const chinaWallClock = (at: Date) => new Date(at.getTime() + CHINA_OFFSET_MS);

/** An instant (a Date or an ISO text) in China time; '' for a time that cannot be read. */
export function chinaDateTime(at: Date | string, { seconds = false }: { seconds?: boolean } = {}): string {
  const date = typeof at === 'string' ? new Date(at) : at;
  if (Number.isNaN(date.getTime())) return '';
  const text = chinaWallClock(date).toISOString();
  return `${text.slice(0, 10)} ${text.slice(11, seconds ? 19 : 16)}`;
}

/** The spreadsheet number format of a time written as chinaSheetTime: the same text as chinaDateTime to the second. */
export const CHINA_DATE_TIME_NUMBER_FORMAT = 'yyyy-mm-dd hh:mm:ss';

/**
 * What a spreadsheet's date cell holds for an instant: China's wall clock cut to the whole second, as
 * chinaDateTime cuts it (a spreadsheet rounds the milliseconds it is given, which can read a second later).
 */
export const chinaSheetTime = (at: Date) => chinaWallClock(new Date(Math.floor(at.getTime() / 1_000) * 1_000));

/** Whether a customer's text holds a machine's time (ISO 8601, or a time in UTC 'Z'): none should. */
export const MACHINE_TIME_PATTERN = /\d{4}-\d\d-\d\dT\d\d:\d\d|\d\d:\d\d(:\d\d(\.\d+)?)?Z\b/;
