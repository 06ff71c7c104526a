import type { SendType } from '@portal/contract/enums';
import { useMutation } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as accountCalls from '../../../lib/generated/account-calls.ts';

/** The current address's code of an e-mail or phone change: by e-mail for the e-mail, by phone for the phone. */
export type CurrentAddressCodeBody =
  | { send_type: 'SEND_TYPE_EMAIL'; mark_type: 'MARK_TYPE_CHANGE_EMAIL' }
  | { send_type: 'SEND_TYPE_PHONE'; mark_type: 'MARK_TYPE_CHANGE_PHONE' };

/**
 * POST /account/send/code-auto: a code to the signed-in account's own phone or e-mail, which the
 * server picks (a screen's copy of the address may be out of date). An access code (MARK_TYPE_ACCESS)
 * before the sign-in's second verification, a card's number or an export with full numbers; the
 * current address's code of an e-mail or phone change.
 */
export const sendCodeAuto = (body: CurrentAddressCodeBody | { send_type: SendType; mark_type: 'MARK_TYPE_ACCESS' }) =>
  call(accountCalls.sendCodeAuto, { body });

export const sendAccessCode = (sendType: SendType) => sendCodeAuto({ send_type: sendType, mark_type: 'MARK_TYPE_ACCESS' });

export const useSendAccessCode = () => useMutation({ mutationFn: sendAccessCode });

export const useSendCurrentAddressCode = () => useMutation({ mutationFn: (body: CurrentAddressCodeBody) => sendCodeAuto(body) });
