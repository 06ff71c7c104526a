import { http } from '../../../lib/http.ts';

/** DELETE /api/v1/account/login: the server ends the session at once. */
export const logout = () => http.delete<null>('/api/v1/account/login');
