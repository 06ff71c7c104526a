import { call } from '../../../lib/api-client.ts';
import * as accountCalls from '../../../lib/generated/account-calls.ts';

/** DELETE /account/login: the server ends the session at once. */
export const logout = () => call(accountCalls.logout);
