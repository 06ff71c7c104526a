// Generated from packages/contract/src/api/card-batches.ts by apps/web/scripts/generate-calls.ts: do not edit.
export { create } from './card-batches/create.ts';
export { status } from './card-batches/status.ts';
export { createExport } from './card-batches/create-export.ts';
export { exportStatus } from './card-batches/export-status.ts';
export { exports } from './card-batches/exports.ts';
export { exportFile } from './card-batches/export-file.ts';
