import type { WalletTransactionItem } from '@portal/contract/wallet';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as walletCalls from '../../../lib/generated/wallet-calls.ts';
import { queryKeyOf } from '../../../lib/query-keys.ts';

type Group = NonNullable<WalletTransactionItem['group']>;

/** The most parts one opened row shows; the rest are in the export. */
export const GROUP_PARTS_SHOWN = 100;

const partsQuery = (group: Group) => ({ group_kind: group.kind, group_id: group.id, page_size: GROUP_PARTS_SHOWN });

/** GET /balance/transactions?group_kind&group_id: the postings one row of the list stands for, newest first. */
export const getWalletGroupParts = (group: Group) => call(walletCalls.transactions, { query: partsQuery(group) });

export const getWalletGroupPartsQueryOptions = (group: Group) =>
  queryOptions({ queryKey: queryKeyOf(walletCalls.transactions, { query: partsQuery(group) }), queryFn: () => getWalletGroupParts(group) });

/** Asked when the row is opened. */
export const useWalletGroupParts = (group: Group) => useQuery(getWalletGroupPartsQueryOptions(group));
