/**
 * The operator's bearer token, kept for this tab only (sessionStorage): closing the tab signs out of
 * the console's view, and the server ends the session after 30 minutes idle or 12 hours.
 */
const KEY = 'console.token';

const listeners = new Set<() => void>();

export const consoleToken = () => sessionStorage.getItem(KEY);

export function setConsoleToken(token: string | null) {
  if (token === null) sessionStorage.removeItem(KEY);
  else sessionStorage.setItem(KEY, token);
  for (const listener of listeners) listener();
}

/** Runs `listener` when the token changes (sign-in, sign-out, a refusal of the session). */
export function onTokenChange(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
