/**
 * Browser test of /settings → 开发者 → Webhooks: an owner adds an endpoint pointing at a receiver this
 * test runs, copies its secret from the dialog that shows it once, a wallet recharge (an operator
 * command) reaches the receiver signed with that secret, the delivery log shows it delivered, and
 * 重新发送 sends it again under the same webhook-id. Screenshots at 1440 and 375 px go to /tmp/shots.
 */
import { mkdirSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { createAccountByApi, settle } from './accounts-support.ts';
import { useHarness } from './harness.ts';
import { openSignedIn, runOpsInProcess } from './signed-in-session.ts';

const portal = useHarness();
const HOST = 'localhost';
const shots = '/tmp/shots';
mkdirSync(shots, { recursive: true });

const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
const receiver = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end('收到');
  });
});
const listening = new Promise<number>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve((receiver.address() as AddressInfo).port)));
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

async function signedInPage(token: string, urlPath: string): Promise<Page> {
  const page = await portal.pageAt(HOST, '/sign-in');
  await page.setViewportSize({ width: 1440, height: 900 });
  const streamOpen = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v1/events' && response.status() === 200, settle);
  await openSignedIn(page, token, urlPath);
  await streamOpen;
  return page;
}

describe('开发者: webhooks', () => {
  it('adds an endpoint, shows its secret once, and logs a signed delivery that can be sent again', async () => {
    const url = `http://127.0.0.1:${await listening}/hooks/${Date.now().toString(36)}`;
    const phone = `139003${String(Date.now()).slice(-5)}`;
    const token = await createAccountByApi(portal, HOST, { phone, email: `hooks-e2e-${Date.now().toString(36)}@example.com` });
    const page = await signedInPage(token, '/settings#webhooks');
    const section = page.getByTestId('settings-webhooks');
    await section.getByText('还没有 Webhook 端点').waitFor({ state: 'visible', ...settle });
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(shots, 'webhooks-empty-1440.png') });

    await section.getByTestId('webhook-create').click();
    const dialog = page.getByRole('dialog', { name: '添加 Webhook 端点' });
    await dialog.waitFor({ state: 'visible', ...settle });
    // a plain-http address elsewhere than this machine: the contract's rule on its field, nothing sent
    await dialog.getByTestId('webhook-url').fill('http://hooks.example.com/x');
    await dialog.getByRole('checkbox', { name: /wallet\.balance_changed/ }).check();
    await dialog.getByRole('button', { name: '添加' }).click();
    await dialog.getByText('回调地址须以 https:// 开头', { exact: false }).waitFor({ state: 'visible', ...settle });
    await dialog.getByTestId('webhook-url').fill(url);
    await dialog.getByTestId('webhook-description').fill('记账系统');
    await page.screenshot({ path: path.join(shots, 'webhook-create-1440.png') });
    await dialog.getByRole('button', { name: '添加' }).click();

    const shown = page.getByRole('dialog', { name: '端点已添加' });
    await shown.waitFor({ state: 'visible', ...settle });
    const secret = (await shown.getByTestId('webhook-secret').innerText()).trim();
    expect(secret).toMatch(/^whsec_/);
    await page.screenshot({ path: path.join(shots, 'webhook-secret-1440.png') });
    await shown.getByRole('button', { name: '我已保存' }).click();
    await shown.waitFor({ state: 'hidden', ...settle });
    const row = section.getByTestId('webhook-row');
    await expect.poll(() => row.count(), settle).toBe(1);
    expect(await row.innerText()).toContain(url);
    expect(await section.innerText()).not.toContain(secret.slice(10));

    // money reaches the wallet: the endpoint hears it, signed with the secret shown once
    await runOpsInProcess(portal.server.dataDir, ['wallet:recharge', '--host', HOST, '--account', phone, '--amount', '25.00', '--currency', 'USD', '--key', `hooks-e2e-${phone}`]);
    await expect.poll(() => received.length, settle).toBe(1);
    const first = received[0] as { headers: IncomingHttpHeaders; body: string };
    const verified = new Webhook(secret).verify(first.body, first.headers as Record<string, string>) as { type: string; data: { available: string } };
    expect(verified).toMatchObject({ type: 'wallet.balance_changed', data: { available: '25.00' } });

    await row.getByTestId('webhook-log').click();
    const drawer = page.getByRole('dialog', { name: /发送记录/ });
    await drawer.waitFor({ state: 'visible', ...settle });
    await expect.poll(() => drawer.getByTestId('webhook-delivery-status').first().innerText(), settle).toContain('已送达');
    await drawer.getByRole('button', { name: /展开行|Expand row/ }).first().click();
    await expect.poll(() => drawer.getByTestId('webhook-delivery-tries').innerText(), settle).toContain('HTTP 200');
    await page.screenshot({ path: path.join(shots, 'webhook-log-1440.png') });

    await drawer.getByTestId('webhook-redeliver').first().click();
    await expect.poll(() => received.length, settle).toBe(2);
    expect(received[1]?.headers['webhook-id']).toBe(first.headers['webhook-id']);
    await drawer.getByTestId('webhook-deliveries-refresh').click();
    await expect.poll(() => drawer.getByTestId('webhook-delivery-tries').innerText(), settle).toMatch(/HTTP 200[\s\S]*HTTP 200/);

    await page.setViewportSize({ width: 375, height: 812 });
    await page.screenshot({ path: path.join(shots, 'webhook-log-375.png') });
    await drawer.getByRole('button', { name: '关闭', exact: true }).click();
    await drawer.waitFor({ state: 'hidden', ...settle });
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(shots, 'webhooks-375.png') });
  });
});
