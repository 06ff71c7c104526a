import { writeStorage } from './storage.ts';

/** The entries of the signed-in layout's menu; a route names the one it belongs to (app/route-table.ts). */
export type MenuKey = 'wallet' | 'card' | 'spendingAnalysis' | 'bulkExport' | 'settings';

/** The selected menu entry of the signed-in layout, kept per tab (spec §2). */
const MENU_KEY = 'menuKey';
const DEFAULT_MENU_KEY: MenuKey = 'wallet';

export const setMenuKey = (key: MenuKey) => writeStorage('session', MENU_KEY, key);

export const resetMenuKey = () => setMenuKey(DEFAULT_MENU_KEY);
