import { useMatches } from 'react-router';
import type { MenuKey } from '../lib/menu-key.ts';

/**
 * What a screen's route says of it (its `handle`, set by the router from route-table.ts): where it is
 * drawn and which menu entry it selects. Layouts read it from the matched route, so they need not
 * import the table whose lazy modules include them.
 */
export interface ScreenHandle {
  area: 'login' | 'signed-in' | 'alone';
  menuKey?: MenuKey;
}

/** The matched screen's handle; undefined on a page that is no screen of the table (not found). */
export function useScreen(): ScreenHandle | undefined {
  const matches = useMatches();
  const handle = matches[matches.length - 1]?.handle as { screen?: ScreenHandle } | undefined;
  return handle?.screen;
}
