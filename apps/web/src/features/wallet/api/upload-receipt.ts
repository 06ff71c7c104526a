import type { DepositReceipt } from '@portal/contract/funding';
import { useMutation } from '@tanstack/react-query';
import { download, urlOf } from '../../../lib/api-client.ts';
import * as fundingCalls from '../../../lib/generated/funding-calls.ts';
import { http } from '../../../lib/http.ts';

/** POST /wallet/deposits/receipts: the image itself as the body, its type as the Content-Type. */
export const uploadReceipt = (file: File) =>
  http.post<DepositReceipt>(urlOf(fundingCalls.uploadReceipt), file, { headers: { 'content-type': file.type || 'application/octet-stream' } });

export const useUploadReceipt = () => useMutation({ mutationFn: uploadReceipt });

/** GET /wallet/deposits/receipts/:id: the image, as a blob the page shows by its object URL. */
export const getReceipt = async (id: string) => (await download(fundingCalls.receipt, { params: { id } })).data;
