import { apiKeyIdParams, apiKeyList, apiKeySecret, createApiKeyBody } from '../developer.ts';
import { defineCalls, member } from './call.ts';

/**
 * The open API's keys (/settings → 开发者): made by the owner, admins and finance (finance: read scopes
 * only), each acting as the member who made it. Never callable with a key.
 */
export const developerCalls = defineCalls({
  apiKeys: {
    method: 'GET',
    path: '/developer/api-keys',
    answer: apiKeyList,
    summary: "The account's API keys (a FINANCE member sees their own), never their secrets",
    tags: ['developer'],
    who: member('developer.keys'),
  },
  createApiKey: {
    method: 'POST',
    path: '/developer/api-keys',
    body: createApiKeyBody,
    answer: apiKeySecret,
    summary: 'Make an API key: name, scopes, optional IP allow-list (CIDR) and expiry; the secret (sk_…) is answered this once and kept only hashed (trx_password once set)',
    tags: ['developer'],
    who: member('developer.keys'),
    tradePassword: 'always',
  },
  revokeApiKey: {
    method: 'DELETE',
    path: '/developer/api-keys/:id',
    params: apiKeyIdParams,
    answer: apiKeyList.shape.items.element,
    summary: 'Revoke a key: refused from its next call on',
    tags: ['developer'],
    who: member('developer.keys'),
  },
  rotateApiKey: {
    method: 'POST',
    path: '/developer/api-keys/:id/rotate',
    params: apiKeyIdParams,
    answer: apiKeySecret,
    summary: 'A new secret for the key, answered this once; the one it replaces still works for 24 hours',
    tags: ['developer'],
    who: member('developer.keys'),
  },
});
