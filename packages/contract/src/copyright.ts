// Imports nothing, so the browser can use it without loading the schema library.
/** "2021" or "2021-2026": a single year, or a range ending at the current year. */
export const VERSION_PATTERN = /^\d{4}(-\d{4})?$/;

/** The copyright years from the merchant's version: a start year becomes a range up to this year. */
export function copyrightYears(version: string, now: Date = new Date()): string {
  const current = now.getFullYear();
  const match = /^(\d{4})(?:-(\d{4}))?$/.exec(version.trim());
  if (!match) return String(current);
  const start = Number(match[1]);
  if (start >= current) return String(start);
  return `${start}-${current}`;
}
