// Generated from packages/contract/src/api/card-batches.ts by apps/web/scripts/generate-calls.ts: do not edit.
import type { cardBatchCalls as declared } from '@portal/contract/api/card-batches';
import type { CallRef } from '../api-client.ts';

export const create: CallRef<(typeof declared)['create']> = { name: 'cardBatches.create', method: 'POST', path: '/batch-create-card' };
export const status: CallRef<(typeof declared)['status']> = { name: 'cardBatches.status', method: 'GET', path: '/card/batch-create-card-status' };
export const createExport: CallRef<(typeof declared)['createExport']> = { name: 'cardBatches.createExport', method: 'POST', path: '/card/batch-export' };
export const exportStatus: CallRef<(typeof declared)['exportStatus']> = { name: 'cardBatches.exportStatus', method: 'GET', path: '/card/batch-export-status' };
export const exports: CallRef<(typeof declared)['exports']> = { name: 'cardBatches.exports', method: 'GET', path: '/card/batch-exports' };
export const exportFile: CallRef<(typeof declared)['exportFile']> = { name: 'cardBatches.exportFile', method: 'GET', path: '/card/batch-export/:export_id/file', raw: 'xlsx' };
