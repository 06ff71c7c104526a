// Generated from packages/contract/src/api/cards.ts by apps/web/scripts/generate-calls.ts: do not edit.
export { verification } from './cards/verification.ts';
export { saveVerification } from './cards/save-verification.ts';
export { openedAvailable } from './cards/opened-available.ts';
export { list } from './cards/list.ts';
export { summary } from './cards/summary.ts';
export { tagCounts } from './cards/tag-counts.ts';
export { open } from './cards/open.ts';
export { detail } from './cards/detail.ts';
export { rename } from './cards/rename.ts';
export { setTags } from './cards/set-tags.ts';
export { changeStatus } from './cards/change-status.ts';
export { remove } from './cards/remove.ts';
export { recharge } from './cards/recharge.ts';
export { withdraw } from './cards/withdraw.ts';
export { reveal } from './cards/reveal.ts';
