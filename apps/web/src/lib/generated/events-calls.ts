// Generated from packages/contract/src/api/events.ts by apps/web/scripts/generate-calls.ts: do not edit.
export { stream } from './events/stream.ts';
