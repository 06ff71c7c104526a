/**
 * Browser test of the activity log against the real server: the demo team's owner freezes and
 * unfreezes a card on its page, and the card's 操作记录 says who did it; /settings 操作日志 lists the
 * same entries, filters them by 类别 and by 操作人, and exports what the filters select as an .xlsx
 * file that is opened here with exceljs and compared with the rows shown. The section and the card's
 * 操作记录 are photographed at 1440 and 375 px (/tmp/shots/activity-*.png).
 *
 * The server is this file's own, seeded with the demo data; nothing waits for a fixed time.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { CardItem } from '@portal/contract/cards';
import type { ActivityItem, TeamMember } from '@portal/contract/team';
import ExcelJS from 'exceljs';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settle } from './accounts-support.ts';
import { useHarness } from './harness.ts';
import { portalCalls } from './portal-calls.ts';
import { demoSignIn, openSignedIn } from './signed-in-session.ts';

const portal = useHarness();
const HOST = 'localhost';
const { api } = portalCalls(portal, HOST);
const WIDE = { width: 1440, height: 900 };
const NARROW = { width: 375, height: 812 };
const SHOTS = '/tmp/shots';
const OWNER = '138****8000（所有者）';
const ADMIN = '138****8001（管理员）';

let downloads: string;
let signIn: ReturnType<typeof demoSignIn>;

beforeAll(async () => {
  signIn = demoSignIn(portal.server.port);
  downloads = await mkdtemp(path.join(os.tmpdir(), 'activity-export-'));
  await mkdir(SHOTS, { recursive: true });
});

afterAll(async () => {
  await rm(downloads, { recursive: true, force: true });
});

/** A page signed in as the demo owner at urlPath, once its event stream is open (the card's status rides on it). */
async function signedInPage(token: string, urlPath: string): Promise<Page> {
  const page = await portal.pageAt(HOST, '/sign-in');
  await page.setViewportSize(WIDE);
  const streamOpen = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v1/events' && response.status() === 200, settle);
  await openSignedIn(page, token, urlPath);
  await streamOpen;
  return page;
}

const actionButton = (page: Page, action: string) => page.getByTestId('card-actions').locator(`[data-action="${action}"]`);

async function expectStatus(page: Page, label: string) {
  await expect.poll(() => page.getByTestId('card-status').innerText().catch(() => ''), settle).toBe(label);
}

/** The rows a list shows: who, and what. */
async function shownRows(list: Locator) {
  const rows = list.getByTestId('activity-row');
  const count = await rows.count();
  const shown: { member: string; summary: string }[] = [];
  for (let index = 0; index < count; index++) {
    const row = rows.nth(index);
    shown.push({ member: await row.getByTestId('activity-member').innerText(), summary: await row.getByTestId('activity-summary').innerText() });
  }
  return shown;
}

/** Picks an option of one of the filter bar's drop-downs by its words. */
async function pickOption(page: Page, selectLabel: string, option: string) {
  await page.getByRole('combobox', { name: selectLabel }).click();
  await page.locator(`.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option[title="${option}"]`).click();
}

/** An element's picture, scrolled into view first. */
async function shoot(target: Locator, name: string) {
  await target.scrollIntoViewIfNeeded();
  await target.screenshot({ path: path.join(SHOTS, name) });
}

/** The box of an element sticks out of the page's width at no point (nothing scrolls sideways). */
async function expectNoOverflow(page: Page, target: Locator) {
  const width = await page.evaluate(() => document.documentElement.clientWidth);
  const box = await target.boundingBox();
  if (!box) throw new Error('the element is not drawn');
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(width + 0.5);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

describe('the activity log', () => {
  it("shows who froze and unfroze a card on the card's page and in /settings 操作日志, filtered and exported", async () => {
    const token = await signIn(HOST);
    const cards = await api<{ items: CardItem[] }>(token, 'GET', '/api/v1/card?page=1&page_size=50');
    const card = cards.items.find((item) => item.nickname === 'Meta 广告投放' && item.status === 'NORMAL');
    if (!card) throw new Error(`no usable demo card in ${cards.items.map((item) => `${item.nickname} ${item.status}`).join(', ')}`);
    const members = await api<{ items: TeamMember[] }>(token, 'GET', '/api/v1/team/members');
    const finance = members.items.find((member) => member.role === 'FINANCE');
    if (!finance) throw new Error('the demo team has no 财务');

    // the owner freezes and unfreezes the card on its page
    const page = await signedInPage(token, `/card-details?id=${encodeURIComponent(card.id)}`);
    await expectStatus(page, '使用中');
    const cardLog = page.getByRole('region', { name: '操作记录' });
    await actionButton(page, 'FREEZE').click();
    await page.getByRole('dialog', { name: '冻结卡片' }).getByRole('button', { name: '确认冻结' }).click();
    await expectStatus(page, '已冻结');
    await actionButton(page, 'UNFREEZE').click();
    await page.getByRole('dialog', { name: '解冻卡片' }).getByRole('button', { name: '确认解冻' }).click();
    await expectStatus(page, '使用中');

    // 操作记录: newest first, by the owner, with where it was done from
    const named = `Meta 广告投放（****${card.last4}）`;
    const cardEntries = [
      { member: OWNER, summary: `解冻卡片 ${named}` },
      { member: OWNER, summary: `冻结卡片 ${named}` },
    ];
    await expect.poll(() => shownRows(cardLog), settle).toEqual(cardEntries);
    expect(await cardLog.getByTestId('card-activity-total').innerText()).toBe('共 2 条');
    const sources = await cardLog.getByTestId('activity-source').allInnerTexts();
    for (const source of sources) expect(source).toMatch(/\d+\.\d+\.\d+\.\d+|::/);
    await shoot(cardLog, 'activity-card-1440.png');
    await page.setViewportSize(NARROW);
    await expect.poll(() => shownRows(cardLog), settle).toEqual(cardEntries);
    await expectNoOverflow(page, cardLog);
    await shoot(cardLog, 'activity-card-375.png');

    // a change of a member, for the 类别 filter to tell apart
    await api(token, 'PUT', `/api/v1/team/members/${encodeURIComponent(finance.id)}`, { monthly_budget: null });
    const memberEntry = { member: OWNER, summary: `成员 ${finance.phone_masked}：月度预算改为不限` };

    // 操作日志 on /settings, newest first
    const settings = await signedInPage(token, '/settings#activity');
    const log = settings.getByRole('region', { name: '操作日志' });
    await expect.poll(() => shownRows(log), settle).toEqual([memberEntry, ...cardEntries]);
    const apiLog = await api<{ items: ActivityItem[]; total: number }>(token, 'GET', '/api/v1/team/activity?page=1&page_size=20');
    expect(apiLog.items.map((item) => ({ member: item.member_label, summary: item.summary }))).toEqual([memberEntry, ...cardEntries]);
    // the card's rows lead to the card
    await log.getByTestId('activity-row').nth(1).getByRole('link', { name: '查看卡片' }).waitFor(settle);
    expect(await log.getByTestId('activity-row').nth(0).getByRole('link').count()).toBe(0);
    expect(await log.getByTestId('activity-row').nth(0).getByTestId('activity-kind').innerText()).toBe('成员');
    await shoot(log, 'activity-settings-1440.png');

    // 类别: 卡片 — the two card entries, kept in the address
    await pickOption(settings, '类别', '卡片');
    await expect.poll(() => shownRows(log), settle).toEqual(cardEntries);
    expect(new URL(settings.url()).searchParams.get('kind')).toBe('CARD');

    // 操作人: another member did none of it
    await pickOption(settings, '操作人', ADMIN);
    await log.getByText('没有符合条件的操作记录').waitFor(settle);
    expect(await log.getByTestId('activity-export').isDisabled()).toBe(true);
    await pickOption(settings, '操作人', OWNER);
    await expect.poll(() => shownRows(log), settle).toEqual(cardEntries);

    // the export: what the filters select, the same rows
    const downloaded = settings.waitForEvent('download');
    await log.getByTestId('activity-export').click();
    const download = await downloaded;
    expect(download.suggestedFilename()).toMatch(/^操作日志-\d{8}\.xlsx$/);
    const file = path.join(downloads, download.suggestedFilename());
    await download.saveAs(file);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(file);
    const sheet = workbook.worksheets[0];
    if (!sheet) throw new Error('the export has no worksheet');
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(['时间', '操作人', '类别', '操作', '金额', '币种', 'IP', '设备']);
    const exported: { member: string; summary: string }[] = [];
    sheet.eachRow((row, number) => {
      if (number === 1) return;
      const [time, member, kind, summary] = (row.values as unknown[]).slice(1);
      if (!(time instanceof Date)) throw new Error(`row ${number}: the time is no date cell but ${String(time)}`);
      expect(kind).toBe('卡片');
      exported.push({ member: String(member), summary: String(summary) });
    });
    expect(exported).toEqual(await shownRows(log));

    // on a phone: the same rows as lines, nothing wider than the screen
    await settings.setViewportSize(NARROW);
    await expect.poll(() => shownRows(log), settle).toEqual(cardEntries);
    await expectNoOverflow(settings, log);
    await shoot(log, 'activity-settings-375.png');
    // one journey through two pages, the issuer answering each freeze: longer than the suite's minute on a busy machine
  }, 150_000);
});
