import * as securityCalls from '../../../lib/generated/security-calls.ts';
import { answersOf } from '../../../lib/query-keys.ts';

/** The security centre's answers; each is keyed by its call (lib/query-keys.ts). */
export const settingsKeys = {
  /** everything the centre shows: what changes the account's security reads it all again */
  all: () => answersOf(securityCalls.overview, securityCalls.devices, securityCalls.sessions, securityCalls.loginHistory),
};
