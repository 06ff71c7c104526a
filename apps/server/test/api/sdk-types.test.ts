/**
 * packages/sdk's committed types are those the server's OpenAPI document gives now: a change to a call
 * open to API keys (its path, input, answer, refusals) fails here until `npm run generate -w
 * @portal/sdk` is run and its output committed.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { typesOf } from '../../../../packages/sdk/src/types-of.ts';
import { keyCallsOnly, type OpenApiDocument } from '../../src/open-api/document.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: false });
});
afterAll(() => t?.close());

const committed = path.resolve(import.meta.dirname, '../../../../packages/sdk/src/open-api.ts');

describe('the SDK types', () => {
  it('are the ones generated from the document the server builds', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as OpenApiDocument;
    const generated = await typesOf(document);
    const onDisk = await readFile(committed, 'utf8');
    // a difference names the first line that differs: run `npm run generate -w @portal/sdk`
    const first = generated.split('\n').findIndex((line, at) => line !== onDisk.split('\n')[at]);
    expect(first, `packages/sdk/src/open-api.ts is stale from line ${first + 1}: run npm run generate -w @portal/sdk`).toBe(-1);
    expect(onDisk).toBe(generated);
  });

  it('hold the calls open to keys and no other', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as OpenApiDocument;
    const kept = keyCallsOnly(document);
    expect(Object.keys(kept.paths)).toEqual(expect.arrayContaining(['/api/v1/card', '/api/v1/card/{id}/recharge', '/api/v1/card/{id}/transactions']));
    expect(Object.keys(kept.paths)).not.toContain('/api/v1/developer/api-keys');
    expect(Object.keys(kept.paths)).not.toContain('/api/v1/account/info');
    // the document keeps the card's reveal (never open to keys) out, though its path is a card's
    expect(kept.paths['/api/v1/card/{id}/reveal']).toBeUndefined();
  });
});
