import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { builtInIssuerUrl, issuerUrlFor, portalWebhookUrl, startBuiltInIssuer } from '../../src/providers/issuer/built-in.ts';
import { productionEnv } from '../helpers/production-env.ts';

const secret = () => 'test-only-issuer-webhook-secret-of-32-chars';

describe('the built-in issuer simulator', () => {
  it('is where the portal goes when ISSUER_URL is unset: the one this process runs, else the default port', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'issuer-built-in-'));
    const config = loadConfig({ ISSUER_SIM_PORT: '0', DATA_DIR: dataDir });
    expect(issuerUrlFor(loadConfig({ ISSUER_URL: 'https://issuer.example' }))).toBe('https://issuer.example');
    expect(issuerUrlFor(loadConfig({}))).toBe('http://127.0.0.1:4100');
    expect(builtInIssuerUrl()).toBeUndefined();
    const started = await startBuiltInIssuer(config, { secret });
    try {
      expect(started.url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/);
      expect(builtInIssuerUrl()).toBe(started.url);
      expect(issuerUrlFor(config)).toBe(started.url);
      await expect(startBuiltInIssuer(config, { secret })).rejects.toThrow(/runs already/);
    } finally {
      await started.close();
    }
    expect(builtInIssuerUrl()).toBeUndefined();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('never starts in production, nor when ISSUER_URL names an issuer', async () => {
    await expect(startBuiltInIssuer(loadConfig(productionEnv), { secret })).rejects.toThrow(/never runs in production/);
    await expect(startBuiltInIssuer(loadConfig({ ISSUER_URL: 'http://127.0.0.1:4200' }), { secret })).rejects.toThrow(/ISSUER_URL is set/);
    expect(builtInIssuerUrl()).toBeUndefined();
  });

  it("sends events to the portal's webhook on this machine, whatever address the portal listens on", () => {
    expect(portalWebhookUrl('0.0.0.0', 3000)).toBe('http://127.0.0.1:3000/api/v1/issuer/webhook');
    expect(portalWebhookUrl('::', 3000)).toBe('http://127.0.0.1:3000/api/v1/issuer/webhook');
    expect(portalWebhookUrl('127.0.0.1', 41234)).toBe('http://127.0.0.1:41234/api/v1/issuer/webhook');
    expect(portalWebhookUrl('::1', 3000)).toBe('http://[::1]:3000/api/v1/issuer/webhook');
    expect(portalWebhookUrl('10.0.0.5', 3000)).toBe('http://10.0.0.5:3000/api/v1/issuer/webhook');
  });
});
