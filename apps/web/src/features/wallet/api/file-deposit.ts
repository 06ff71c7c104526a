import type { DepositNoticeBody } from '@portal/contract/funding';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as fundingCalls from '../../../lib/generated/funding-calls.ts';
import { depositKeys } from './deposit-keys.ts';

/** POST /wallet/deposits: a top-up notice; the records are read again once it is filed. */
export const fileDeposit = (body: DepositNoticeBody) => call(fundingCalls.file, { body });

export const useFileDeposit = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fileDeposit,
    onSuccess: () => queryClient.invalidateQueries(depositKeys.records()),
  });
};
