import type { Currency } from '@portal/contract/enums';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as fundingCalls from '../../../lib/generated/funding-calls.ts';
import { depositKeys } from './deposit-keys.ts';

/** GET /wallet/deposit-instructions: the receiving account of a currency and the account's reference. */
export const getDepositInstructions = (currency: Currency) => call(fundingCalls.instructions, { query: { currency } });

export const getDepositInstructionsQueryOptions = (currency: Currency) =>
  queryOptions({ queryKey: depositKeys.instructions(currency), queryFn: () => getDepositInstructions(currency) });

export const useDepositInstructions = (currency: Currency) => useQuery(getDepositInstructionsQueryOptions(currency));
