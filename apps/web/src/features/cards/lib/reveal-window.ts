import { REVEAL_WINDOW_SECONDS } from '@portal/contract/cards';

/**
 * When this tab last had an access code checked for a reveal. Within REVEAL_WINDOW_SECONDS of it the
 * server shows a number without a new code, so the dialog tries that first (and asks for a code when
 * the server says 4009). Kept for the tab's session, so a reload inside the window needs no code.
 */
const KEY = 'cardRevealCheckedAt';

export function markAccessCodeChecked(now = Date.now()) {
  try {
    sessionStorage.setItem(KEY, String(now));
  } catch {
    // storage refused (private mode): the next reveal asks for a code, which is only slower
  }
}

export function forgetAccessCode() {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // nothing kept, nothing to forget
  }
}

export function withinRevealWindow(now = Date.now()): boolean {
  let checkedAt: number;
  try {
    checkedAt = Number(sessionStorage.getItem(KEY));
  } catch {
    return false;
  }
  return checkedAt > 0 && now >= checkedAt && now - checkedAt < REVEAL_WINDOW_SECONDS * 1000;
}
