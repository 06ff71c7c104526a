/**
 * Times are shown as the portal's customers read them: China Standard Time, "2026-03-01 08:30",
 * or to the second ("2026-03-01 08:30:05") where a record needs it (wallet transactions).
 */
const formatter = new Intl.DateTimeFormat('zh-CN', {
  timeZone: 'Asia/Shanghai',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

export function formatDateTime(iso: string, { seconds = false }: { seconds?: boolean } = {}): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const parts = formatter.formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  const minutes = `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}`;
  return seconds ? `${minutes}:${part('second')}` : minutes;
}
