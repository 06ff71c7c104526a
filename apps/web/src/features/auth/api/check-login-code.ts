import type { CodeCheckAnswer } from '@portal/contract/account';
import type { SendType } from '@portal/contract/enums';
import { http } from '../../../lib/http.ts';
import { useRequest } from '../../../lib/use-request.ts';

export interface CheckLoginCodeBody {
  captcha: string;
  /** trust this device for 30 days */
  thirty_day: boolean;
  send_type: SendType;
}

/** POST /api/v1/account/login/code/check: the second verification of a sign-in (spec §4). */
export const checkLoginCode = (body: CheckLoginCodeBody) => http.post<CodeCheckAnswer>('/api/v1/account/login/code/check', body);

/** Used from the sign-in screen, which works without the query cache (see useRequest). */
export const useCheckLoginCode = () => useRequest(checkLoginCode);
