import { describe, expect, it } from 'vitest';
import { DEFAULT_PORTAL_WEBHOOK_URL, loadConfig, loadIssuerSimulatorConfig } from '../../src/config.ts';
import { productionEnv } from '../helpers/production-env.ts';

const refusal = (load: () => unknown) => {
  try {
    load();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the configuration was accepted');
};

describe('the issuer settings', () => {
  it('default to the built-in simulator on port 4100, answering after 800 ms, failing nothing', () => {
    expect(loadConfig({}).issuer).toEqual({ url: undefined, simPort: 4100, simDelayMs: 800, simFailRate: 0 });
    // an empty value is an unset one
    expect(loadConfig({ ISSUER_URL: '', ISSUER_SIM_PORT: '', ISSUER_SIM_DELAY_MS: '', ISSUER_SIM_FAIL_RATE: '' }).issuer).toEqual(
      loadConfig({}).issuer,
    );
  });

  it('take an issuer address and the simulator settings, port 0 and delay 0 included', () => {
    const env = { ISSUER_URL: 'http://issuer-sim.internal:4100', ISSUER_SIM_PORT: '0', ISSUER_SIM_DELAY_MS: '0', ISSUER_SIM_FAIL_RATE: '0.25' };
    expect(loadConfig(env).issuer).toEqual({ url: 'http://issuer-sim.internal:4100', simPort: 0, simDelayMs: 0, simFailRate: 0.25 });
    expect(loadConfig({ ISSUER_SIM_FAIL_RATE: '1' }).issuer.simFailRate).toBe(1);
  });

  it('refuse values out of range, naming the setting and what it must be', () => {
    for (const [env, message] of [
      [{ ISSUER_SIM_PORT: '65536' }, 'ISSUER_SIM_PORT must be a port, 0 to 65535'],
      [{ ISSUER_SIM_PORT: 'http' }, 'ISSUER_SIM_PORT must be a port'],
      [{ ISSUER_SIM_DELAY_MS: '-1' }, 'ISSUER_SIM_DELAY_MS must be whole milliseconds, 0 to 600000'],
      [{ ISSUER_SIM_DELAY_MS: '0.5' }, 'ISSUER_SIM_DELAY_MS must be whole milliseconds'],
      [{ ISSUER_SIM_FAIL_RATE: '1.01' }, 'ISSUER_SIM_FAIL_RATE must be a share between 0 and 1'],
      [{ ISSUER_SIM_FAIL_RATE: '-0.1' }, 'ISSUER_SIM_FAIL_RATE must be a share between 0 and 1'],
      [{ ISSUER_URL: 'issuer.example' }, 'ISSUER_URL must be an http:// or https:// address'],
      [{ ISSUER_URL: 'ftp://issuer.example' }, 'ISSUER_URL must be an http:// or https:// address'],
    ] as const) {
      expect(refusal(() => loadConfig(env)), JSON.stringify(env)).toContain(message);
    }
  });

  it('in production require an issuer address, https:// unless on this machine: no simulator in production', () => {
    const { ISSUER_URL: _, ...withoutIssuer } = productionEnv;
    expect(refusal(() => loadConfig(withoutIssuer))).toBe(
      "Invalid configuration: ISSUER_URL is required in production (the card issuer's https:// address; the issuer simulator never runs in production)",
    );
    expect(refusal(() => loadConfig({ ...productionEnv, ISSUER_URL: 'http://issuer.example' }))).toMatch(/ISSUER_URL must be an https:\/\/ address in production/);
    expect(loadConfig(productionEnv).issuer.url).toBe('https://issuer.example');
    expect(loadConfig({ ...productionEnv, ISSUER_URL: 'http://127.0.0.1:4100' }).issuer.url).toBe('http://127.0.0.1:4100');
  });
});

describe('the standalone simulator settings (npm run issuer-sim)', () => {
  it('default to port 4100 and the webhook of a portal on port 3000, with the secret from DATA_DIR', () => {
    expect(loadIssuerSimulatorConfig({ DATA_DIR: '/tmp/portal-data' })).toEqual({
      port: 4100,
      delayMs: 800,
      failRate: 0,
      webhookUrl: DEFAULT_PORTAL_WEBHOOK_URL,
      secret: undefined,
      dataDir: '/tmp/portal-data',
    });
    expect(DEFAULT_PORTAL_WEBHOOK_URL).toBe('http://127.0.0.1:3000/api/v1/issuer/webhook');
  });

  it('take their own values, and refuse bad ones and production', () => {
    const env = {
      ISSUER_SIM_PORT: '4200',
      ISSUER_SIM_DELAY_MS: '50',
      ISSUER_SIM_FAIL_RATE: '0.5',
      PORTAL_WEBHOOK_URL: 'http://127.0.0.1:3100/api/v1/issuer/webhook',
      ISSUER_WEBHOOK_SECRET: 'test-only-issuer-webhook-secret-of-32-chars',
    };
    expect(loadIssuerSimulatorConfig(env)).toMatchObject({ port: 4200, delayMs: 50, failRate: 0.5, webhookUrl: env.PORTAL_WEBHOOK_URL, secret: env.ISSUER_WEBHOOK_SECRET });
    expect(refusal(() => loadIssuerSimulatorConfig({ ISSUER_SIM_FAIL_RATE: '2' }))).toContain('ISSUER_SIM_FAIL_RATE must be a share between 0 and 1');
    expect(refusal(() => loadIssuerSimulatorConfig({ PORTAL_WEBHOOK_URL: 'localhost:3000' }))).toContain('PORTAL_WEBHOOK_URL must be an http:// or https:// address');
    expect(refusal(() => loadIssuerSimulatorConfig({ ISSUER_WEBHOOK_SECRET: 'short' }))).toContain('ISSUER_WEBHOOK_SECRET must be at least 32 characters');
    expect(refusal(() => loadIssuerSimulatorConfig({ NODE_ENV: 'production' }))).toMatch(/does not run in production/);
  });
});
