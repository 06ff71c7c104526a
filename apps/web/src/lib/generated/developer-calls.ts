// Generated from packages/contract/src/api/developer.ts by apps/web/scripts/generate-calls.ts: do not edit.
export { apiKeys } from './developer/api-keys.ts';
export { createApiKey } from './developer/create-api-key.ts';
export { revokeApiKey } from './developer/revoke-api-key.ts';
export { rotateApiKey } from './developer/rotate-api-key.ts';
