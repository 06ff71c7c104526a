import { writeStorage } from './storage.ts';

/** The selected menu entry of the signed-in layout, kept per tab (spec §2). */
export const MENU_KEY = 'menuKey';
export const DEFAULT_MENU_KEY = 'wallet';

export const setMenuKey = (key: string) => writeStorage('session', MENU_KEY, key);

export const resetMenuKey = () => setMenuKey(DEFAULT_MENU_KEY);
