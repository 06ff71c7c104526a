/**
 * /card finds any card: a figure's column sorts on the server, a BIN finds its cards, a tag filters
 * them, the address keeps all of it through a reload and the back button, and "all N that match" is
 * chosen beyond the page. Screenshots in /tmp/shots/card-find-*.png.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { CardItem, OpenedAvailableAnswer } from '@portal/contract/cards';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAccountByApi, settle } from './accounts-support.ts';
import { useHarness } from './harness.ts';
import { portalCalls } from './portal-calls.ts';
import { openSignedIn } from './signed-in-session.ts';

const portal = useHarness();
const HOST = 'localhost';
const { ops, api, postWithKey } = portalCalls(portal, HOST);
const WIDE = { width: 1440, height: 900 };
const NARROW = { width: 375, height: 812 };
const shots = '/tmp/shots';

beforeAll(async () => {
  await mkdir(shots, { recursive: true });
});

let openings = 0;
async function openCard(token: string, productId: string, nickname: string, amount: string): Promise<CardItem> {
  const opened = await postWithKey<CardItem>(token, '/api/v1/card', { product_id: productId, amount, nickname }, `e2e-find-${Date.now()}-${++openings}`);
  await expect.poll(async () => (await api<CardItem>(token, 'GET', `/api/v1/card/${opened.id}`)).status, settle).toBe('NORMAL');
  return opened;
}

const cardRows = (page: Page) => page.getByTestId('card-row');
const nicknames = (page: Page) => cardRows(page).getByTestId('card-nickname').allInnerTexts();
const openDropdowns = (page: Page) => page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');

async function pickOption(page: Page, select: Locator, name: string, label: string) {
  await select.getByRole('combobox', { name }).click();
  const settled = openDropdowns(page).and(page.locator(':not([class*="-appear"]):not([class*="-enter"])'));
  await settled.locator(`.ant-select-item-option[title="${label}"]`).click();
  await expect.poll(() => select.innerText(), settle).toContain(label);
  await expect.poll(() => openDropdowns(page).count(), settle).toBe(0);
}

async function drawnAt(page: Page, size: { width: number; height: number }, name: string) {
  await page.setViewportSize(size);
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth), settle).toBeLessThanOrEqual(size.width);
  await page.screenshot({ path: path.join(shots, `card-find-${name}-${size.width}.png`), fullPage: true });
}

const search = (page: Page) => new URL(page.url()).searchParams;

describe('/card finds any card', () => {
  it('sorts by a column, finds a BIN, filters by a tag, keeps it all in the address, and selects all that match', async () => {
    const phone = `13700${String(Date.now()).slice(-6)}`;
    const token = await createAccountByApi(portal, HOST, { phone, email: `find-${phone}@mail.example` });
    await ops(['wallet:recharge', '--host', HOST, '--account', phone, '--amount', '1000', '--currency', 'USD']);
    await api(token, 'PUT', '/api/v1/card/verification', { real_name: '王五', id_number: '11010519491231002X', latin_name: 'Wang Wu', website: 'https://shop.example' });
    const available = await api<OpenedAvailableAnswer>(token, 'GET', '/api/v1/card/opened-available');
    const productId = (name: string) => available.products.find((candidate) => candidate.name === name)?.id ?? '';
    await openCard(token, productId('订阅支付卡'), '订阅一号', '20.00');
    const ad = await openCard(token, productId('广告投放卡'), '广告投放', '60.00');
    await openCard(token, productId('订阅支付卡'), '订阅二号', '40.00');
    await api(token, 'PUT', `/api/v1/card/${ad.id}/tags`, { tags: ['重点', 'Meta'] });

    const page = await portal.pageAt(HOST, '/sign-in');
    await page.setViewportSize(WIDE);
    await openSignedIn(page, token, '/card');
    await expect.poll(() => nicknames(page), settle).toEqual(['订阅二号', '广告投放', '订阅一号']);
    await expect.poll(() => page.getByTestId('card-tags').first().innerText(), settle).toContain('重点');

    // a figure's header sorts on the server: highest balance first, then lowest
    await page.getByRole('columnheader', { name: /可用余额/ }).click();
    await expect.poll(() => search(page).get('sort'), settle).toBe('-balance');
    await expect.poll(() => nicknames(page), settle).toEqual(['广告投放', '订阅二号', '订阅一号']);
    await page.getByRole('columnheader', { name: /可用余额/ }).click();
    await expect.poll(() => search(page).get('sort'), settle).toBe('balance');
    await expect.poll(() => nicknames(page), settle).toEqual(['订阅一号', '订阅二号', '广告投放']);
    await drawnAt(page, WIDE, 'sorted');

    // a BIN finds its cards
    const box = page.getByTestId('filter-keyword').getByRole('searchbox');
    await box.fill('55555555');
    await box.press('Enter');
    await expect.poll(() => search(page).get('keyword'), settle).toBe('55555555');
    await expect.poll(() => nicknames(page), settle).toEqual(['订阅一号', '订阅二号']);
    await box.fill('42424242');
    await box.press('Enter');
    await expect.poll(() => nicknames(page), settle).toEqual(['广告投放']);
    await box.fill('');
    await expect.poll(() => search(page).get('keyword'), settle).toBeNull();
    await expect.poll(() => cardRows(page).count(), settle).toBe(3);

    // a tag, with its count
    await pickOption(page, page.getByTestId('card-filters'), '标签', '重点（1）');
    await expect.poll(() => search(page).get('tag'), settle).toBe('重点');
    await expect.poll(() => nicknames(page), settle).toEqual(['广告投放']);

    // a reload keeps the filter and the sort; back returns to the list before the tag
    await page.reload();
    await expect.poll(() => nicknames(page), settle).toEqual(['广告投放']);
    expect(search(page).get('sort')).toBe('balance');
    await page.goBack();
    await expect.poll(() => search(page).get('tag'), settle).toBeNull();
    await expect.poll(() => cardRows(page).count(), settle).toBe(3);
    expect(search(page).get('sort')).toBe('balance');

    // one card ticked, then all that match: the selection is the filter, beyond the page
    await page.getByTestId('card-pager').waitFor({ state: 'attached', ...settle }).catch(() => undefined);
    await page.goto(new URL('/card?size=10&status=NORMAL', page.url()).toString());
    await expect.poll(() => cardRows(page).count(), settle).toBe(3);
    await page.getByRole('checkbox', { name: '选择 订阅一号' }).check();
    await expect.poll(() => page.getByTestId('export-selected').innerText(), settle).toContain('导出所选（1）');
    await page.getByTestId('select-all-matching').click();
    await expect.poll(() => page.getByTestId('bulk-count').innerText(), settle).toContain('已选择全部 3 张符合条件的卡片');
    // the bar names the selection once: no second line under it
    expect(await page.getByTestId('selection-note').count()).toBe(0);
    await expect.poll(() => page.getByTestId('export-selected').innerText(), settle).toContain('导出所选（3）');
    await drawnAt(page, WIDE, 'all-matching');
    await page.getByTestId('export-selected').click();
    await expect.poll(() => new URL(page.url()).pathname, settle).toBe('/bulk-export');
    expect(search(page).get('status')).toBe('NORMAL');

    // the tags edited in the list
    await page.goto(new URL('/card', page.url()).toString());
    await expect.poll(() => cardRows(page).count(), settle).toBe(3);
    await page.getByRole('button', { name: '编辑 订阅一号 的标签' }).click();
    const input = page.getByTestId('card-tags-input').getByRole('combobox');
    await input.fill('夜间');
    await input.press('Enter');
    // the known tags are offered only while one is typed: 保存 is in sight again
    await expect.poll(() => openDropdowns(page).count(), settle).toBe(0);
    await page.getByTestId('card-tags-save').click();
    await expect.poll(async () => (await api<{ items: Array<{ tag: string; count: number }> }>(token, 'GET', '/api/v1/card/tags')).items.map((item) => item.tag), settle).toContain('夜间');

    await drawnAt(page, NARROW, 'list');
  }, 180_000);
});
