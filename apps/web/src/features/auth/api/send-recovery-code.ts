import type { SendCodeAnswer } from '@portal/contract/account';
import type { ResetType } from '@portal/contract/enums';
import type { PhoneInfo } from '@portal/contract/validation';
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';

/** An SMS code to a phone, or a reset link to an e-mail (for the login or the trade password). */
export type RecoveryCodeBody = { phone_info: PhoneInfo } | { email: string; type?: ResetType };

/** POST /api/v1/account/forget-password/code. */
export const sendRecoveryCode = (body: RecoveryCodeBody) => http.post<SendCodeAnswer>('/api/v1/account/forget-password/code', body);

export const useSendRecoveryCode = () => useMutation({ mutationFn: sendRecoveryCode });
