/**
 * The OpenAPI document the server builds (what /api/docs/json answers), made without a server
 * running: the app is built on an embedded database in memory, asked for its document and closed.
 * `packages/sdk` generates its types from the calls open to API keys in it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/engine.ts';

/** An OpenAPI 3 document, as far as its readers here look into it. */
export interface OpenApiDocument {
  openapi: string;
  info: Record<string, unknown>;
  paths: Record<string, Record<string, { security?: Array<Record<string, string[]>> } & Record<string, unknown>>>;
  components?: Record<string, unknown>;
  [field: string]: unknown;
}

export async function buildOpenApiDocument(): Promise<OpenApiDocument> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-open-api-'));
  const database = await openDatabase({ dataDir: 'memory://' });
  try {
    await database.migrate();
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'error', DATA_DIR: dataDir, API_DOCS: 'true' });
    const { app } = await buildApp({ config, database, logger: false });
    try {
      await app.ready();
      return app.swagger() as unknown as OpenApiDocument;
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const METHODS = new Set(['get', 'put', 'post', 'patch', 'delete']);

/** The document cut to the calls an API key may make (those whose security names the `apiKey` scheme). */
export function keyCallsOnly(document: OpenApiDocument): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const [url, item] of Object.entries(document.paths)) {
    const kept = Object.fromEntries(
      Object.entries(item).filter(([method, operation]) => METHODS.has(method) && (operation.security ?? []).some((entry) => 'apiKey' in entry)),
    );
    if (Object.keys(kept).length > 0) paths[url] = kept;
  }
  return { ...document, paths };
}
