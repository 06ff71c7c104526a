/**
 * Browser test of /settings → 开发者: an owner makes an API key with the trade password, copies its
 * secret from the dialog that shows it once, a script's call with it reads the cards, and once revoked
 * on the page the same call is refused. Screenshots at 1440 and 375 px go to /tmp/shots.
 *
 * The account is made through the API; nothing waits for a fixed time.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { ApiKeyErrorCode } from '@portal/contract/developer-errors';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi, createAccountByApi, PASSWORD, settle } from './accounts-support.ts';
import { useHarness } from './harness.ts';
import { portalCalls } from './portal-calls.ts';
import { openSignedIn } from './signed-in-session.ts';

const portal = useHarness();
const HOST = 'localhost';
const { api } = portalCalls(portal, HOST);
const shots = '/tmp/shots';
mkdirSync(shots, { recursive: true });
const TRADE = 'Trade123';

async function signedInPage(token: string, urlPath: string): Promise<Page> {
  const page = await portal.pageAt(HOST, '/sign-in');
  await page.setViewportSize({ width: 1440, height: 900 });
  const streamOpen = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v1/events' && response.status() === 200, settle);
  await openSignedIn(page, token, urlPath);
  await streamOpen;
  return page;
}

describe('开发者: API keys', () => {
  it('makes a key with the trade password, shows its secret once, and the key stops when revoked on the page', async () => {
    const phone = '13900290001';
    const token = await createAccountByApi(portal, HOST, { phone, email: 'keys-e2e-1@example.com' });
    await api(token, 'PUT', '/api/v1/account/trx-password', { trx_password: TRADE, password: PASSWORD });
    const page = await signedInPage(token, '/settings#developer');
    const section = page.getByTestId('settings-developer');
    await section.getByText('还没有 API 密钥').waitFor({ state: 'visible', ...settle });

    await section.getByTestId('api-key-create').click();
    const dialog = page.getByRole('dialog', { name: '创建 API 密钥' });
    await dialog.waitFor({ state: 'visible', ...settle });
    await dialog.getByTestId('api-key-name').fill('夜间开卡脚本');
    // nothing chosen: the contract's rule on its field, nothing sent
    await dialog.getByRole('button', { name: '创建' }).click();
    await dialog.getByText('请至少选择一个权限范围').waitFor({ state: 'visible', ...settle });
    await dialog.getByRole('checkbox', { name: /cards:read/ }).check();
    await dialog.getByRole('checkbox', { name: /wallet:read/ }).check();
    await expect.poll(() => dialog.getByText('请至少选择一个权限范围').count(), settle).toBe(0);
    await dialog.getByTestId('api-key-allowlist').fill('127.0.0.1\n10.0.0.0/8');
    await dialog.getByLabel('交易密码').fill(TRADE);
    await page.screenshot({ path: path.join(shots, 'api-key-create-1440.png') });
    await dialog.getByRole('button', { name: '创建' }).click();

    const shown = page.getByRole('dialog', { name: '请保存您的 API 密钥' });
    await shown.waitFor({ state: 'visible', ...settle });
    const secret = (await shown.getByTestId('api-key-secret').innerText()).trim();
    expect(secret).toMatch(/^sk_[A-Za-z0-9]{12}_[A-Za-z0-9]{40}$/);
    await page.screenshot({ path: path.join(shots, 'api-key-secret-1440.png') });
    await shown.getByRole('button', { name: '我已保存' }).click();
    await shown.waitFor({ state: 'hidden', ...settle });

    const row = section.getByTestId('api-key-row');
    await expect.poll(() => row.count(), settle).toBe(1);
    expect(await row.innerText()).toContain('夜间开卡脚本');
    expect(await row.innerText()).toContain('127.0.0.1, 10.0.0.0/8');
    // the list never holds the secret: only its prefix
    expect(await section.innerText()).not.toContain(secret.slice(16));
    expect(secret.startsWith((await row.getByTestId('api-key-prefix').innerText()).replace('…', ''))).toBe(true);

    // a script's call with the key
    const byKey = await callApi<{ total: number }>(portal, HOST, 'GET', '/api/v1/card?page=1&page_size=10', undefined, secret);
    expect(byKey.code, byKey.message).toBe(0);
    await page.reload();
    await expect.poll(() => section.getByTestId('api-key-row').innerText(), settle).toContain('127.0.0.1');

    await page.setViewportSize({ width: 375, height: 812 });
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(shots, 'api-keys-375.png') });
    await page.setViewportSize({ width: 1440, height: 900 });

    await section.getByTestId('api-key-revoke').click();
    await page.getByRole('button', { name: '撤销' }).last().click();
    await expect.poll(() => section.getByTestId('api-key-row').innerText(), settle).toContain('已撤销');
    const refused = await callApi(portal, HOST, 'GET', '/api/v1/card?page=1&page_size=10', undefined, secret);
    expect(refused.code).toBe(ApiKeyErrorCode.KEY_REVOKED);
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(shots, 'api-keys-1440.png') });
  });
});
