import { z } from 'zod';
import {
  batchCreateCardAnswer,
  batchCreateCardBody,
  batchExportAnswer,
  batchExportBody,
  batchExportList,
  batchExportStatusAnswer,
  batchExportStatusQuery,
  batchStatusAnswer,
} from '../card-batches.ts';
import { defineCalls, member } from './call.ts';

const tags = ['cards'];

/** Opening cards in a batch, and exporting chosen cards to a spreadsheet: the account's own only. */
export const cardBatchCalls = defineCalls({
  create: {
    method: 'POST',
    path: '/batch-create-card',
    body: batchCreateCardBody,
    answer: batchCreateCardAnswer,
    summary: 'Open 2–500 cards of a product at once: the whole cost is held, a job opens them (Idempotency-Key; trx_password once set)',
    tags,
    who: member('cards.open', 'cards:write'),
    movesMoney: true,
    idempotencyKey: true,
    tradePassword: 'always',
  },
  status: {
    method: 'GET',
    path: '/card/batch-create-card-status',
    answer: batchStatusAnswer,
    summary: "The account's running batch (exist), else its latest",
    tags,
    who: member('cards.read', 'cards:read'),
  },
  createExport: {
    method: 'POST',
    path: '/card/batch-export',
    body: batchExportBody,
    answer: batchExportAnswer,
    summary: 'Export the chosen cards to an .xlsx file (full numbers only with an access code, and trx_password once set)',
    tags,
    who: member('cards.export'),
    tradePassword: 'sensitive',
  },
  exportStatus: {
    method: 'GET',
    path: '/card/batch-export-status',
    query: batchExportStatusQuery,
    answer: batchExportStatusAnswer,
    summary: "An export's progress (without export_id: the account's latest; null when there is none)",
    tags,
    who: member('cards.export'),
  },
  exports: {
    method: 'GET',
    path: '/card/batch-exports',
    answer: batchExportList,
    summary: "The account's recent exports, newest first",
    tags,
    who: member('cards.export'),
  },
  exportFile: {
    method: 'GET',
    path: '/card/batch-export/:export_id/file',
    params: z.object({ export_id: z.string().max(100) }),
    raw: 'xlsx',
    summary: "An export's .xlsx file, raw (kept 24 hours; one with full numbers only to the session that made it)",
    tags,
    who: member('cards.export'),
  },
});
