import { WebhookErrorCode } from '@portal/contract/webhook-errors';
import { webhookUrlProblem } from '@portal/contract/webhooks';
import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, isNonPublicAddress } from '../../src/modules/webhooks/url-guard.ts';

const resolvesTo = (addresses: string[]) => async () => addresses;
const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 0,
    (error: { code?: number }) => error.code ?? -1,
  );

describe('where a webhook endpoint may point', () => {
  it('takes https anywhere, and http only to this machine outside production', () => {
    expect(webhookUrlProblem('https://hooks.example.com/x', true)).toBeNull();
    expect(webhookUrlProblem('http://localhost:8080/x', false)).toBeNull();
    expect(webhookUrlProblem('http://127.0.0.1/x', false)).toBeNull();
    expect(webhookUrlProblem('http://[::1]:9/x', false)).toBeNull();
    expect(webhookUrlProblem('http://localhost:8080/x', true)).not.toBeNull();
    expect(webhookUrlProblem('http://hooks.example.com/x', false)).not.toBeNull();
    expect(webhookUrlProblem('ftp://hooks.example.com/x', false)).not.toBeNull();
    expect(webhookUrlProblem('https://user:pw@hooks.example.com/x', false)).not.toBeNull();
  });

  it('tells private, loopback, link-local and unique-local addresses from public ones', () => {
    for (const address of ['10.1.2.3', '172.16.0.1', '192.168.1.1', '127.0.0.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fd00::1', 'fe80::1', '::ffff:10.0.0.1', '::ffff:127.0.0.1']) {
      expect(isNonPublicAddress(address), address).toBe(true);
    }
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8']) expect(isNonPublicAddress(address), address).toBe(false);
  });

  it('in production refuses a host that resolves to any non-public address, or to none', async () => {
    expect(await codeOf(checkWebhookUrl('https://hooks.example.com/x', true, resolvesTo(['93.184.216.34'])))).toBe(0);
    expect(await codeOf(checkWebhookUrl('https://hooks.example.com/x', true, resolvesTo(['93.184.216.34', '10.0.0.5'])))).toBe(WebhookErrorCode.WEBHOOK_URL_PRIVATE);
    expect(await codeOf(checkWebhookUrl('https://[fd00::1]/x', true, resolvesTo([])))).toBe(WebhookErrorCode.WEBHOOK_URL_PRIVATE);
    expect(await codeOf(checkWebhookUrl('https://169.254.169.254/latest', true, resolvesTo([])))).toBe(WebhookErrorCode.WEBHOOK_URL_PRIVATE);
    expect(await codeOf(checkWebhookUrl('https://nowhere.invalid/x', true, async () => Promise.reject(new Error('ENOTFOUND'))))).toBe(WebhookErrorCode.WEBHOOK_URL_UNRESOLVED);
    expect(await codeOf(checkWebhookUrl('http://localhost/x', true, resolvesTo(['127.0.0.1'])))).toBe(WebhookErrorCode.WEBHOOK_URL_SCHEME);
    // outside production no address is looked up
    expect(await codeOf(checkWebhookUrl('http://localhost/x', false, async () => Promise.reject(new Error('not asked'))))).toBe(0);
  });
});
