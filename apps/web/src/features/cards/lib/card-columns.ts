import { readStorage, writeStorage } from '../../../lib/storage.ts';

/** The card table's columns a member may hide; the card itself and 详情 always show. */
export const CHOOSABLE_COLUMNS = ['holder', 'tags', 'product', 'currency', 'balance', 'spent', 'declines', 'status', 'lastUsed', 'created'] as const;
export type ChoosableColumn = (typeof CHOOSABLE_COLUMNS)[number];

/** Shown until the member chooses: all but the currency (the balance names it) and last use. */
export const DEFAULT_COLUMNS: readonly ChoosableColumn[] = ['holder', 'tags', 'product', 'balance', 'spent', 'declines', 'status', 'created'];

const STORAGE_KEY = 'cardTableColumns';

/** The columns this browser chose last (unknown names dropped), or the defaults. */
export function readChosenColumns(): ChoosableColumn[] {
  const text = readStorage('local', STORAGE_KEY);
  if (!text) return [...DEFAULT_COLUMNS];
  try {
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed)) return [...DEFAULT_COLUMNS];
    return CHOOSABLE_COLUMNS.filter((column) => parsed.includes(column));
  } catch {
    return [...DEFAULT_COLUMNS];
  }
}

export const saveChosenColumns = (columns: readonly ChoosableColumn[]) => writeStorage('local', STORAGE_KEY, JSON.stringify(columns));
