import { PassThrough } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { loggerOptions, prettyLogStream } from '../../src/http/logging.ts';

const production = {
  NODE_ENV: 'production',
  SMTP_URL: 'smtp://127.0.0.1:1',
  CARD_DATA_KEY: 'dGVzdC1vbmx5LWNhcmQtZGF0YS1rZXktMzItYnl0ZXM=',
  ISSUER_WEBHOOK_SECRET: 'test-only-issuer-webhook-secret-of-32-chars',
  ISSUER_URL: 'https://issuer.example',
  CODE_HASH_KEY: 'k'.repeat(32),
  SMS_PROVIDER: 'aliyun',
  ALIYUN_SMS_ACCESS_KEY_ID: 'id',
  ALIYUN_SMS_ACCESS_KEY_SECRET: 'secret',
  ALIYUN_SMS_SIGN_NAME: 'sign',
  ALIYUN_SMS_TEMPLATE_REGISTER: 'SMS_1',
  ALIYUN_SMS_TEMPLATE_ACCESS: 'SMS_2',
  ALIYUN_SMS_TEMPLATE_RESET_PASSWORD: 'SMS_3',
  ALIYUN_SMS_TEMPLATE_INVITATION: 'SMS_4',
};

describe('the log format for each environment', () => {
  it('is readable in development and test, JSON in production', () => {
    expect(loadConfig({}).logFormat).toBe('pretty');
    expect(loadConfig({ NODE_ENV: 'development' }).logFormat).toBe('pretty');
    expect(loadConfig({ NODE_ENV: 'test' }).logFormat).toBe('pretty');
    expect(loadConfig(production).logFormat).toBe('json');
  });

  it('is JSON whenever LOG_FORMAT=json, and LOG_FORMAT=pretty is honoured in production', () => {
    expect(loadConfig({ LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(loadConfig({ NODE_ENV: 'development', LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(loadConfig({ ...production, LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(loadConfig({ ...production, LOG_FORMAT: '' }).logFormat).toBe('json');
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT/);
  });
});

describe('readable log lines', () => {
  it('show a request as one line in and one line out, with the message and no JSON', async () => {
    const sink = new PassThrough();
    let text = '';
    sink.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
    });
    const app = Fastify({ logger: { ...loggerOptions('info'), stream: prettyLogStream(sink) } });
    app.get('/api/v1/merchant', async () => ({ code: 0 }));
    await app.inject({ method: 'GET', url: '/api/v1/merchant?code=123456', headers: { host: 'localhost', authorization: 'Bearer secret' } });
    app.log.info({ engine: 'pglite' }, 'portal ready on http://localhost:3000');
    await app.close();
    await new Promise((resolve) => setImmediate(resolve));

    const lines = text.trimEnd().split('\n');
    expect(lines.some((line) => /INFO.*\[req-1\] → GET \/api\/v1\/merchant\?code=\*\*\* \(localhost\)$/.test(line))).toBe(true);
    expect(lines.some((line) => /INFO.*\[req-1\] ← 200 in \d+ ms$/.test(line))).toBe(true);
    // what tests and operators look for stays on one line
    expect(lines.some((line) => /INFO.*portal ready on http:\/\/localhost:3000 \{"engine":"pglite"\}$/.test(line))).toBe(true);
    expect(text).not.toContain('"level"');
    expect(text).not.toContain('secret');
    expect(text).not.toContain('123456');
  });
});
