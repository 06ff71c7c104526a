import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { productionEnv } from '../helpers/production-env.ts';

describe('GET /healthz while the database does not answer', () => {
  it('answers 503, so a load balancer sends the traffic elsewhere', { timeout: 120_000 }, async () => {
    const t = await createTestApp();
    try {
      expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      await t.database.close();
      const response = await t.app.inject({ method: 'GET', url: '/healthz' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ status: 'unavailable' });
    } finally {
      await t.close().catch(() => {});
    }
  });
});

describe('the API docs', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  }, 120_000);
  afterAll(() => database?.close());

  it('are off in production unless API_DOCS=true', { timeout: 120_000 }, async () => {
    const off = await createTestApp({ database, env: productionEnv });
    try {
      expect((await off.app.inject({ method: 'GET', url: '/api/docs/' })).statusCode).toBe(404);
      expect((await off.app.inject({ method: 'GET', url: '/api/docs/json' })).statusCode).toBe(404);
    } finally {
      await off.close();
    }
    const on = await createTestApp({ database, env: { ...productionEnv, API_DOCS: 'true' } });
    try {
      expect((await on.app.inject({ method: 'GET', url: '/api/docs/json' })).statusCode).toBe(200);
    } finally {
      await on.close();
    }
  });
});
