// Generated from packages/contract/src/api/funding.ts by apps/web/scripts/generate-calls.ts: do not edit.
export { instructions } from './funding/instructions.ts';
export { file } from './funding/file.ts';
export { list } from './funding/list.ts';
export { uploadReceipt } from './funding/upload-receipt.ts';
export { receipt } from './funding/receipt.ts';
