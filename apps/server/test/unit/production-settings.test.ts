import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { productionEnv } from '../helpers/production-env.ts';

const refusal = (env: NodeJS.ProcessEnv) => {
  try {
    loadConfig(env);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the configuration was accepted');
};

/** productionEnv without these settings. */
function without(...names: Array<keyof typeof productionEnv>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...productionEnv };
  for (const name of names) delete env[name];
  return env;
}

describe('production settings', () => {
  it('starts with every setting given', () => {
    expect(loadConfig(productionEnv).production).toBe(true);
  });

  it('names every missing setting in one refusal, so an operator fixes them in one go', () => {
    const message = refusal({ NODE_ENV: 'production' });
    for (const name of [
      'SMTP_URL',
      'CARD_DATA_KEY',
      'CODE_HASH_KEY',
      'ISSUER_WEBHOOK_SECRET',
      'ISSUER_URL',
      'SMS_PROVIDER=aliyun',
      'ALIYUN_SMS_ACCESS_KEY_ID',
      'ALIYUN_SMS_TEMPLATE_RESET_PASSWORD',
    ]) {
      expect(message).toContain(name);
    }
    expect(message.startsWith('Invalid configuration:\n')).toBe(true);
  });

  it('lists the missing ones, one a line, and only those', () => {
    expect(refusal(without('SMTP_URL', 'CODE_HASH_KEY', 'ALIYUN_SMS_SIGN_NAME', 'ALIYUN_SMS_TEMPLATE_ACCESS'))).toBe(
      [
        'Invalid configuration:',
        'SMTP_URL is required in production',
        'CODE_HASH_KEY is required in production',
        'SMS_PROVIDER=aliyun needs ALIYUN_SMS_SIGN_NAME, ALIYUN_SMS_TEMPLATE_ACCESS',
      ].join('\n'),
    );
  });

  it('an empty value is as missing as an absent one', () => {
    expect(refusal({ ...productionEnv, CARD_DATA_KEY: '', ISSUER_WEBHOOK_SECRET: ' ' })).toBe(
      ['Invalid configuration:', 'CARD_DATA_KEY is required in production', 'ISSUER_WEBHOOK_SECRET is required in production'].join('\n'),
    );
  });

  it('a malformed setting and a missing one are named together', () => {
    const message = refusal({ ...without('CARD_DATA_KEY'), SMTP_URL: 'garbage', ISSUER_URL: 'http://issuer.example' });
    expect(message.split('\n')).toEqual([
      'Invalid configuration:',
      expect.stringMatching(/^SMTP_URL: SMTP_URL must be an smtp:\/\/ or smtps:\/\/ address/),
      'CARD_DATA_KEY is required in production',
      expect.stringMatching(/^ISSUER_URL must be an https:\/\/ address in production/),
    ]);
    expect(message).not.toContain('garbage');
  });

  it('one problem alone is said on one line', () => {
    expect(refusal(without('SMTP_URL'))).toBe('Invalid configuration: SMTP_URL is required in production');
  });
});
