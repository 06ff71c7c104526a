/**
 * Browser storage the portal keeps. The session token lives in both session and local storage
 * (spec §3) and every call reads it from local storage (spec §6). Storage can be unavailable
 * (private modes, blocked site data); reads then answer nothing and writes are dropped rather than
 * breaking the page.
 */
const TOKEN_KEY = 'token';
const SIGNED_IN_KEY = 'isLogin';

type Area = 'local' | 'session';

const areaOf = (area: Area): Storage => (area === 'local' ? window.localStorage : window.sessionStorage);

export function readStorage(area: Area, key: string): string | null {
  try {
    return areaOf(area).getItem(key);
  } catch {
    return null;
  }
}

export function writeStorage(area: Area, key: string, value: string | null) {
  try {
    if (value === null) areaOf(area).removeItem(key);
    else areaOf(area).setItem(key, value);
  } catch {
    // storage is unavailable; the value lives only as long as the page
  }
}

/** Codes asked for are kept in session storage under this prefix (lib/code-send-limits.ts). */
export const CODE_REQUEST_PREFIX = 'codeRequest:';

/**
 * Codes whose target is the signed-in account's own phone or e-mail (access codes, and the codes of a
 * change of phone or e-mail, kept under the current address).
 */
const ACCOUNT_CODE_PURPOSES = ['MARK_TYPE_ACCESS', 'MARK_TYPE_CHANGE_EMAIL', 'MARK_TYPE_CHANGE_PHONE'] as const;

/**
 * Forgets the codes asked for that belong to an account (ACCOUNT_CODE_PURPOSES): at logout and at a
 * sign-in, so the next account signed in in this tab has codes of its own.
 */
export function forgetAccountCodeRequests() {
  try {
    const keys = Array.from({ length: window.sessionStorage.length }, (_, index) => window.sessionStorage.key(index));
    for (const key of keys) {
      if (key !== null && ACCOUNT_CODE_PURPOSES.some((purpose) => key.startsWith(`${CODE_REQUEST_PREFIX}${purpose}:`))) window.sessionStorage.removeItem(key);
    }
  } catch {
    // storage is unavailable: nothing was kept
  }
}

export const tokenStorage = {
  /** The token every call sends; local storage outlives the tab, session storage is the fallback. */
  get: (): string | null => readStorage('local', TOKEN_KEY) ?? readStorage('session', TOKEN_KEY),
  set(token: string) {
    writeStorage('session', TOKEN_KEY, token);
    writeStorage('local', TOKEN_KEY, token);
  },
  clear() {
    writeStorage('session', TOKEN_KEY, null);
    writeStorage('local', TOKEN_KEY, null);
  },
};

/**
 * Whether the stored token belongs to a finished sign-in. A token can exist before that (an account
 * without an e-mail gets one that only binds the e-mail), so the flag is kept beside it.
 */
export const signedInStorage = {
  get: (): boolean => readStorage('local', SIGNED_IN_KEY) === '1',
  set: (value: boolean) => writeStorage('local', SIGNED_IN_KEY, value ? '1' : null),
};
