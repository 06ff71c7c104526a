/**
 * The channel on which triggers on sessions, members and accounts announce every change to what a
 * signed-in caller is made of (migration 0025): payload `<account id>:<transaction id>`. The callers a
 * process keeps (modules/sessions) and the roles its event streams serve (modules/events) follow it.
 */
export const PRINCIPAL_CHANGED_CHANNEL = 'principal_changed';

/** The account a change names. */
export function accountOfChange(payload: string) {
  const at = payload.indexOf(':');
  return at < 0 ? payload : payload.slice(0, at);
}
