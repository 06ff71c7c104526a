import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { ErrorCode } from '@portal/contract/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, logCollector, type TestApp } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { productionEnv } from '../helpers/production-env.ts';


let database: TestDatabase;
let dev: TestApp;
let webDist: string;

beforeAll(async () => {
  database = await createTestDatabase();
  // a stand-in for the built web app, so a page answer exists whether or not apps/web was built
  webDist = await mkdtemp(path.join(os.tmpdir(), 'portal-web-dist-'));
  await writeFile(path.join(webDist, 'index.html'), '<!doctype html><html lang="zh-CN"><title>portal</title><div id="root"></div></html>');
  dev = await createTestApp({ database, config: { webDist } });
});
afterAll(async () => {
  await dev?.close();
  await database?.close();
  await rm(webDist, { recursive: true, force: true });
});

describe('development outbox', () => {
  it('lists what the development providers sent, newest first, filtered by ?to=', async () => {
    await dev.services.sms.send({ phone: '13800138000', phonePrefix: '86', purpose: 'MARK_TYPE_REGISTER', code: '111111', text: '验证码 111111' });
    await dev.services.mail.send({ to: 'a@example.com', subject: '邮箱验证', text: '验证码 222222' });
    await dev.services.sms.send({ phone: '13900139000', phonePrefix: '86', purpose: 'MARK_TYPE_ACCESS', code: '333333', text: '验证码 333333' });

    const all = await dev.api().get('/api/dev/outbox');
    expect(all.status).toBe(200);
    expect(all.body).toEqual([
      expect.objectContaining({ channel: 'sms', to: '+86 13900139000', text: '验证码 333333' }),
      expect.objectContaining({ channel: 'email', to: 'a@example.com', subject: '邮箱验证', text: '验证码 222222' }),
      expect.objectContaining({ channel: 'sms', to: '+86 13800138000', text: '验证码 111111' }),
    ]);
    for (const entry of all.body as { created_at: string }[]) expect(Number.isNaN(Date.parse(entry.created_at))).toBe(false);

    const one = await dev.api().get('/api/dev/outbox', { query: { to: 'a@example.com' } });
    expect(one.body).toEqual([expect.objectContaining({ channel: 'email', to: 'a@example.com' })]);
  });

  it('is absent (404) when NODE_ENV=production', async () => {
    const production = await createTestApp({ database, env: productionEnv });
    try {
      expect(production.config.production).toBe(true);
      const answer = await production.api().get('/api/dev/outbox');
      expect(answer.status).toBe(404);
      expect(answer.code).toBe(ErrorCode.NOT_FOUND);
      // the rest of the API is there
      expect((await production.api().get('/merchant')).code).toBe(0);
    } finally {
      await production.close();
    }
  });
});

describe('GET /healthz', () => {
  it('answers ok with the engine in use', async () => {
    const response = await dev.app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: database.engine });
  });

  it('answers on any host, known or not (a load balancer probes it by address)', async () => {
    const response = await dev.app.inject({ method: 'GET', url: '/healthz', headers: { host: '10.0.0.7:3000' } });
    expect(response.statusCode).toBe(200);
  });
});

describe('security headers', () => {
  function expectSecurityHeaders(headers: Record<string, unknown>) {
    const csp = String(headers['content-security-policy'] ?? '');
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-frame-options']).toBe('DENY');
  }

  it('are set on an API answer', async () => {
    const answer = await dev.api('orange.localhost').get('/merchant');
    expect(answer.code).toBe(0);
    expectSecurityHeaders(answer.headers);
  });

  it('are set on an error answer', async () => {
    const answer = await dev.api('nope.localhost').get('/merchant');
    expect(answer.code).toBe(ErrorCode.MERCHANT_UNKNOWN);
    expectSecurityHeaders(answer.headers);
  });

  it('are set on a page answer', async () => {
    const response = await dev.app.inject({
      method: 'GET',
      url: '/sign-in',
      headers: { host: 'red.localhost', accept: 'text/html' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toContain('<div id="root">');
    expectSecurityHeaders(response.headers);
  });
});

describe('GET /api/docs/json', () => {
  it('is a valid OpenAPI document listing the /api/v1 routes', async () => {
    const response = await dev.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toMatch(/^3\./);
    // the validator dereferences in place: give it a copy
    await expect(SwaggerParser.validate(structuredClone(document))).resolves.toBeTruthy();
    const paths = Object.keys(document.paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/v1/merchant',
        '/api/v1/merchant/user-agreement/title',
        '/api/v1/merchant/user-agreement/{id}',
      ]),
    );
    expect(paths).not.toContain('/healthz');
    expect(document.paths['/api/v1/merchant'].get.responses['200']).toBeDefined();
  });

  it('serves the swagger UI at /api/docs', async () => {
    const response = await dev.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
  });
});

describe('request logs', () => {
  it('carry no secret query values and no bearer token', async () => {
    const log = logCollector();
    const logged = await createTestApp({ database, config: { webDist }, logStream: log.stream });
    try {
      const page = await logged.app.inject({
        method: 'GET',
        url: '/reset-password?email=a@b.c&code=123456&type=FORGET_PASSWORD',
        headers: { host: 'localhost', accept: 'text/html' },
      });
      expect(page.statusCode).toBe(200);
      const call = await logged.api('localhost', 'secret-token').get('/merchant');
      expect(call.code).toBe(0);
      const failed = await logged.api('nope.localhost', 'secret-token').get('/merchant', { query: { token: 'another-secret' } });
      expect(failed.code).toBe(ErrorCode.MERCHANT_UNKNOWN);
    } finally {
      await logged.close();
    }

    const text = log.text();
    // the requests were logged, so the absence below means something
    const urls = log.records().flatMap((record) => {
      const req = record.req as { url?: string } | undefined;
      return req?.url ? [req.url] : [];
    });
    // who the customer is stays out of the log as well as the code
    expect(urls).toContain('/reset-password?email=***&code=***&type=FORGET_PASSWORD');
    expect(urls).toContain('/api/v1/merchant');
    expect(urls).toContain('/api/v1/merchant?token=***');
    expect(text).not.toContain('123456');
    expect(text).not.toContain('secret-token');
    expect(text).not.toContain('another-secret');
  });
});
