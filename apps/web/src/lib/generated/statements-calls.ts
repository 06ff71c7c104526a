// Generated from packages/contract/src/api/statements.ts by apps/web/scripts/generate-calls.ts: do not edit.
export { statement } from './statements/statement.ts';
