import { sendAccessCode } from '../../../domain/account/api/send-code-auto.ts';
import { useRequest } from '../../../lib/use-request.ts';

/** The access code of the sign-in's second verification, sent from a screen that works without the query cache (see useRequest). */
export const useSendAccessCode = () => useRequest(sendAccessCode);
