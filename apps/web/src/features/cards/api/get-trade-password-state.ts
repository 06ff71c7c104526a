import type { AccountInfo } from '@portal/contract/account';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import { cardKeys } from './card-keys.ts';

/**
 * GET /api/v1/account/info, as the money dialogs read it: whether the account has a trade password.
 * Read again each time a dialog asks (it may have been set on /settings a moment ago).
 */
export const getTradePasswordSet = () => http.get<AccountInfo>('/api/v1/account/info').then((info) => info.trx_password_set);

export const getTradePasswordSetQueryOptions = () =>
  queryOptions({ queryKey: cardKeys.tradePassword(), queryFn: getTradePasswordSet, staleTime: 0 });

export const useTradePasswordSet = () => useQuery(getTradePasswordSetQueryOptions());
