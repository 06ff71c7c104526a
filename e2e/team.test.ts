/**
 * Browser tests of the team against the real server and its simulated issuer:
 *
 * - the owner invites a 成员 with a monthly budget from 团队成员 on /settings; the invitee opens the link
 *   of the invitation e-mail, signs up with the spec's rules and is in the team at once; on /card they
 *   see the cards they hold and not the owner's, and their budget's use on /card and /create-card;
 * - an 观察员 reads /card, a card's page and /wallet without a button that moves money or changes a card;
 * - the owner gives a card to a member (更换持卡人 on the card's page); /card names its new holder in
 *   持卡成员 and filters by it; the member then sees the card;
 * - the owner hands ownership to an 管理员 with 转让所有权 and the trade password: a wrong one is said on
 *   its field and moves nothing; the right one makes the 管理员 the owner, the owner an 管理员, as the
 *   header and 团队成员 then show;
 * - 团队成员, the member's /card and the 观察员's /wallet at 1440 and 375 px: nothing wider than the
 *   screen (screenshots in /tmp/shots/team-*.png).
 *
 * Every test makes its own team through the API. Nothing waits for a fixed time.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { CardItem, OpenedAvailableAnswer } from '@portal/contract/cards';
import type { TeamBudget, TeamMember } from '@portal/contract/team';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callApi, codeIn, createAccountByApi, field, PASSWORD, phoneAddress, settle, watchOutbox } from './accounts-support.ts';
import { useHarness } from './harness.ts';
import { portalCalls } from './portal-calls.ts';
import { openSignedIn } from './signed-in-session.ts';

const portal = useHarness();
const HOST = 'localhost';
const { ops, api, postWithKey } = portalCalls(portal, HOST);
const PRODUCT = '订阅支付卡';
const TRADE_PASSWORD = '123456';
const WIDE = { width: 1440, height: 900 };
const NARROW = { width: 375, height: 812 };
const shots = '/tmp/shots';
/** each case first sets up two or three people and their cards through the API */
const CASE_TIMEOUT = 150_000;

beforeAll(async () => {
  await mkdir(shots, { recursive: true });
});

// ---------------------------------------------------------------------------------------------
// people, teams and cards, through the API

let people = 0;
/** A person new to this run's server: a phone and an e-mail no one has used. */
function freshPerson() {
  const n = ++people;
  return { phone: `1370027${String(n).padStart(4, '0')}`, email: `team-e2e-${n}@mail.example` };
}

const masked = (phone: string) => `${phone.slice(0, 3)}****${phone.slice(-4)}`;

/** The invitation link of a mail or SMS: /sign-up?invitation=… */
function invitationLinkIn(text: string) {
  const link = text.match(/https?:\/\/\S+\/sign-up\?invitation=[^\s"'<>]+/)?.[0];
  if (!link) throw new Error(`no invitation link in: ${text}`);
  return new URL(link);
}

interface Owner {
  phone: string;
  token: string;
  productId: string;
}

/** An owner whose account is verified and whose wallet holds 500.00 USD, so its members can open cards. */
async function ownerReady(): Promise<Owner> {
  const person = freshPerson();
  const token = await createAccountByApi(portal, HOST, person);
  await ops(['wallet:recharge', '--host', HOST, '--account', person.phone, '--amount', '500', '--currency', 'USD']);
  await api(token, 'PUT', '/api/v1/card/verification', { real_name: '王五', id_number: '11010519491231002X' });
  const available = await api<OpenedAvailableAnswer>(token, 'GET', '/api/v1/card/opened-available');
  const productId = available.products.find((candidate) => candidate.name === PRODUCT)?.id;
  if (!productId) throw new Error(`no product ${PRODUCT}`);
  return { phone: person.phone, token, productId };
}

let openings = 0;
/** A card opened by the caller (they hold it), in use. */
async function openCard(token: string, productId: string, nickname: string): Promise<CardItem> {
  const opened = await postWithKey<CardItem>(token, '/api/v1/card', { product_id: productId, amount: '20.00', nickname }, `e2e-team-${++openings}`);
  await expect.poll(async () => (await cardOf(token, opened.id)).status, settle).toBe('NORMAL');
  return cardOf(token, opened.id);
}

const cardOf = (token: string, id: string) => api<CardItem>(token, 'GET', `/api/v1/card/${encodeURIComponent(id)}`);

interface Member {
  phone: string;
  token: string;
  memberId: string;
}

/** Someone invited by e-mail through the API who signed up by the link: in the team, signed in at once. */
async function memberByApi(owner: Owner, role: 'VIEWER' | 'MEMBER' | 'FINANCE' | 'ADMIN', monthlyBudget: string | null = null): Promise<Member> {
  const person = freshPerson();
  const mail = await watchOutbox(portal, person.email);
  await api(owner.token, 'POST', '/api/v1/team/invitations', { email: person.email, role, monthly_budget: monthlyBudget });
  const invitation = invitationLinkIn((await mail.next()).text).searchParams.get('invitation') ?? '';
  const sms = await watchOutbox(portal, phoneAddress(person.phone));
  const sent = await callApi(portal, HOST, 'POST', '/api/v1/account/send/code', {
    send_type: 'SEND_TYPE_PHONE',
    mark_type: 'MARK_TYPE_REGISTER',
    phone_info: { phone: person.phone, phone_prefix: '86' },
  });
  if (sent.code !== 0) throw new Error(`send/code failed: ${sent.message} (${sent.code})`);
  const captcha = codeIn(await sms.next());
  const registered = await callApi<{ token: string; signed_in: boolean }>(portal, HOST, 'POST', '/api/v1/account/register', {
    phone_prefix: '86',
    phone: person.phone,
    password: PASSWORD,
    captcha,
    invitation_code: null,
    invitation,
  });
  if (registered.code !== 0) throw new Error(`register failed: ${registered.message} (${registered.code})`);
  expect(registered.data.signed_in).toBe(true);
  return { phone: person.phone, token: registered.data.token, memberId: await memberIdOf(owner, person.phone) };
}

async function memberIdOf(owner: Owner, phone: string) {
  const { items } = await api<{ items: TeamMember[] }>(owner.token, 'GET', '/api/v1/team/members');
  const member = items.find((item) => item.phone_masked === masked(phone));
  if (!member) throw new Error(`${masked(phone)} is not in the team`);
  return member.id;
}

/** What the budget line says: 本月预算 200.00 USD，已用 X，剩余 Y (the amounts here are below 1,000). */
function budgetLine(budget: TeamBudget) {
  const two = (amount: string | null) => Number(amount ?? '0').toFixed(2);
  return `本月预算 ${two(budget.monthly_budget)} ${budget.currency}，已用 ${two(budget.used)}，剩余 ${two(budget.left)}`;
}

// ---------------------------------------------------------------------------------------------
// the page

/** A browser of its own, signed in with the token at urlPath, 1440 px wide, once the menu shows. */
async function signedInAt(token: string, urlPath: string): Promise<Page> {
  const page = await portal.pageAt(HOST, '/sign-in');
  await page.setViewportSize(WIDE);
  await openSignedIn(page, token, urlPath);
  await page.getByRole('navigation', { name: '主菜单' }).waitFor({ state: 'visible', ...settle });
  return page;
}

const teamSection = (page: Page) => page.getByRole('region', { name: '团队成员' });
const cardRows = (page: Page) => page.getByTestId('card-row');
const nicknames = (page: Page) => cardRows(page).getByTestId('card-nickname').allInnerTexts();
const openDropdowns = (page: Page) => page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');

/**
 * Picks an option of an antd select by its label, once its list has finished opening (an option
 * clicked while the list still moves in may be missed); waits until the select shows it and the list is gone.
 */
async function pickOption(page: Page, select: Locator, name: string, label: string) {
  await select.getByRole('combobox', { name }).click();
  const settled = openDropdowns(page).and(page.locator(':not([class*="-appear"]):not([class*="-enter"])'));
  await settled.locator(`.ant-select-item-option[title="${label}"]`).click();
  await expect.poll(() => select.innerText(), settle).toContain(label);
  await expect.poll(() => openDropdowns(page).count(), settle).toBe(0);
}

/** Buttons whose name says they move money or change a card (their icon's name may come first). */
const moneyButtons = (page: Page) => page.getByRole('button', { name: /^(?:[\w-]+ )?(?:充值|提现|开卡|冻结|解冻|注销|更换持卡人)$/ });

/** The page at a width: nothing wider than the screen, and a full-page screenshot in /tmp/shots. */
async function drawnAt(page: Page, size: { width: number; height: number }, name: string) {
  await page.setViewportSize(size);
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth), settle).toBeLessThanOrEqual(size.width);
  await page.screenshot({ path: path.join(shots, `team-${name}-${size.width}.png`), fullPage: true });
}

// ---------------------------------------------------------------------------------------------

describe('the team', () => {
  it('invites a 成员 with a budget from 团队成员; the invitee signs up by the link and sees only the cards they hold and their budget', async () => {
    const owner = await ownerReady();
    await openCard(owner.token, owner.productId, '所有者的卡');
    const page = await signedInAt(owner.token, '/settings#team');
    const section = teamSection(page);
    await section.getByTestId('team-member').first().waitFor(settle);
    expect(await section.getByTestId('team-member').first().innerText()).toContain('我');

    const invitee = freshPerson();
    const mail = await watchOutbox(portal, invitee.email);
    await section.getByRole('button', { name: /邀请成员/ }).click();
    const dialog = page.getByRole('dialog', { name: '邀请成员' });
    await dialog.waitFor(settle);
    await dialog.getByRole('textbox', { name: '邮箱' }).fill(invitee.email);
    await dialog.getByRole('radio', { name: /^成员/ }).check();
    await dialog.getByRole('textbox', { name: '每月预算（USD，选填）' }).fill('200');
    await dialog.getByRole('button', { name: /发送邀请/ }).click();
    await page.getByText('邀请已发送，链接 72 小时内有效').waitFor(settle);
    const pending = section.getByTestId('team-invitation').filter({ hasText: invitee.email });
    await pending.waitFor(settle);
    expect(await pending.innerText()).toContain('200.00 USD');

    const link = invitationLinkIn((await mail.next()).text);
    const signUp = await portal.pageAt(HOST, `${link.pathname}${link.search}`);
    await signUp.getByTestId('invitation-preview').waitFor(settle);
    expect(await signUp.getByTestId('invitation-preview').innerText()).toMatch(/邀请你加入 .+，角色：成员$/);
    const sms = await watchOutbox(portal, phoneAddress(invitee.phone));
    await field(signUp, '手机号').fill(invitee.phone);
    await signUp.getByRole('button', { name: '获取验证码' }).click();
    await field(signUp, '验证码').fill(codeIn(await sms.next()));
    await field(signUp, '密码').fill(PASSWORD);
    await field(signUp, '确认密码').fill(PASSWORD);
    const agree = signUp.getByRole('checkbox', { name: '我已阅读并同意' });
    if (await agree.count()) await agree.check();
    await signUp.getByRole('button', { name: /^注册$/ }).click();
    // the invitation's e-mail is the member's: no e-mail to bind, the portal opens
    await signUp.waitForURL((url) => url.pathname === '/wallet', settle);
    await signUp.getByRole('navigation', { name: '主菜单' }).waitFor({ state: 'visible', ...settle });
    await expect.poll(() => signUp.getByTestId('account-member').innerText(), settle).toBe(`${masked(invitee.phone)} · 成员`);

    // the owner sees the new member, with the budget the invitation gave
    await page.reload();
    const joined = teamSection(page).getByTestId('team-member').filter({ hasText: masked(invitee.phone) });
    await joined.waitFor(settle);
    expect(await joined.innerText()).toMatch(/成员[\s\S]*200\.00 USD/);
    expect(await teamSection(page).getByTestId('team-invitation').filter({ hasText: invitee.email }).count()).toBe(0);

    // a card of their own, opened within the budget: the owner's stays out of their list
    const memberToken = await signUp.evaluate(() => localStorage.getItem('token') ?? '');
    await openCard(memberToken, owner.productId, '成员的卡');
    const budget = await api<TeamBudget>(memberToken, 'GET', '/api/v1/team/budget');
    expect(budget.monthly_budget).toBe('200.00');
    expect(Number(budget.used)).toBeGreaterThan(0);

    await signUp.goto(portal.url(HOST, '/card'));
    await expect.poll(() => nicknames(signUp), settle).toEqual(['成员的卡']);
    expect(await signUp.getByTestId('card-total').innerText()).toBe('共 1 张');
    await expect.poll(() => signUp.getByTestId('member-budget').innerText(), settle).toBe(budgetLine(budget));
    // a 成员 does not filter by the team's members
    expect(await signUp.getByTestId('filter-holder').count()).toBe(0);

    await signUp.goto(portal.url(HOST, '/create-card'));
    await expect.poll(() => signUp.getByTestId('member-budget').innerText(), settle).toBe(budgetLine(budget));
  }, CASE_TIMEOUT);

  it('gives an 观察员 readable lists on /card and /wallet and no button that moves money or changes a card', async () => {
    const owner = await ownerReady();
    const card = await openCard(owner.token, owner.productId, '团队的卡');
    const viewer = await memberByApi(owner, 'VIEWER');
    const page = await signedInAt(viewer.token, '/card');
    await expect.poll(() => nicknames(page), settle).toEqual(['团队的卡']);
    expect(await cardRows(page).first().getByTestId('card-holder-label').innerText()).toBe(`${masked(owner.phone)}（所有者）`);
    await page.getByTestId('bulk-export').waitFor(settle);
    expect(await page.getByTestId('open-card').count()).toBe(0);
    expect(await moneyButtons(page).count()).toBe(0);

    await cardRows(page).first().getByRole('button', { name: /详情/ }).click();
    await page.waitForURL((url) => url.pathname === '/card-details' && url.searchParams.get('id') === card.id, settle);
    await page.getByTestId('card-holder').waitFor(settle);
    expect(await page.getByTestId('card-holder').innerText()).toContain(`${masked(owner.phone)}（所有者）`);
    expect(await page.getByTestId('card-actions').count()).toBe(0);
    expect(await page.getByTestId('change-holder').count()).toBe(0);
    expect(await moneyButtons(page).count()).toBe(0);

    await page.goto(portal.url(HOST, '/wallet'));
    await page.getByTestId('balance-USD').waitFor(settle);
    await page.getByTestId('transaction-row').first().waitFor(settle);
    await page.getByTestId('wallet-export').waitFor(settle);
    // no budget for an 观察员
    expect(await page.getByTestId('member-budget').count()).toBe(0);
    expect(await moneyButtons(page).count()).toBe(0);
  }, CASE_TIMEOUT);

  it('gives a card to a member with 更换持卡人; /card names the holder and filters by them; the member then sees it', async () => {
    const owner = await ownerReady();
    const card = await openCard(owner.token, owner.productId, '转交的卡');
    await openCard(owner.token, owner.productId, '留下的卡');
    const member = await memberByApi(owner, 'MEMBER', '300.00');
    const memberLabel = `${masked(member.phone)}（成员）`;
    const ownerLabel = `${masked(owner.phone)}（所有者）`;

    const page = await signedInAt(owner.token, `/card-details?id=${encodeURIComponent(card.id)}`);
    const holder = page.getByTestId('card-holder');
    await holder.waitFor(settle);
    expect(await holder.innerText()).toContain(ownerLabel);
    await holder.getByTestId('change-holder').click();
    const dialog = page.getByRole('dialog', { name: /更换持卡人/ });
    await dialog.waitFor(settle);
    // once the dialog has finished opening: a list opened mid-way is drawn where the field was
    await page.locator('.ant-modal:not([class*="ant-zoom"])').filter({ hasText: '新的持卡成员' }).waitFor(settle);
    await pickOption(page, dialog.locator('.ant-select'), '新的持卡成员', memberLabel);
    await dialog.getByRole('button', { name: /确认更换/ }).click();
    await page.getByText('持卡人已更换').waitFor(settle);
    await expect.poll(() => holder.innerText(), settle).toContain(memberLabel);

    await page.goto(portal.url(HOST, '/card'));
    await expect.poll(() => nicknames(page), settle).toEqual(expect.arrayContaining(['转交的卡', '留下的卡']));
    const holderOf = (nickname: string) => cardRows(page).filter({ hasText: nickname }).getByTestId('card-holder-label').innerText();
    expect(await holderOf('转交的卡')).toBe(memberLabel);
    expect(await holderOf('留下的卡')).toBe(ownerLabel);

    await pickOption(page, page.getByTestId('filter-holder'), '持卡成员', memberLabel);
    await expect.poll(() => nicknames(page), settle).toEqual(['转交的卡']);
    expect(new URL(page.url()).searchParams.get('holder')).toBe(member.memberId);
    await page.reload();
    await expect.poll(() => nicknames(page), settle).toEqual(['转交的卡']);
    expect(await page.getByTestId('filter-holder').innerText()).toContain(memberLabel);

    const memberPage = await signedInAt(member.token, '/card');
    await expect.poll(() => nicknames(memberPage), settle).toEqual(['转交的卡']);
  }, CASE_TIMEOUT);

  it('hands ownership to an 管理员 with the trade password; a wrong one is said on its field and moves nothing', async () => {
    const owner = await ownerReady();
    const admin = await memberByApi(owner, 'ADMIN');
    await api(owner.token, 'PUT', '/api/v1/account/trx-password', { trx_password: TRADE_PASSWORD, password: PASSWORD });
    const rolesNow = async () => {
      const { items } = await api<{ items: TeamMember[] }>(owner.token, 'GET', '/api/v1/team/members');
      return Object.fromEntries(items.map((item) => [item.phone_masked, item.role]));
    };
    const before = { [masked(owner.phone)]: 'OWNER', [masked(admin.phone)]: 'ADMIN' };
    expect(await rolesNow()).toEqual(before);

    const page = await signedInAt(owner.token, '/settings#team');
    const section = teamSection(page);
    await section.getByTestId('team-member').nth(1).waitFor(settle);
    await expect.poll(() => page.getByTestId('account-member').innerText(), settle).toBe(`${masked(owner.phone)} · 所有者`);
    await section.getByRole('button', { name: /转让所有权/ }).click();
    const dialog = page.getByRole('dialog', { name: '转让所有权' });
    await dialog.waitFor(settle);
    await pickOption(page, dialog, '新的所有者', `${masked(admin.phone)}（管理员）`);

    // a wrong trade password: said on its field, the dialog stays, nothing moves
    await dialog.getByTestId('trade-password').fill('654321');
    await dialog.getByRole('button', { name: '确认转让' }).click();
    await expect.poll(() => dialog.getByTestId('trade-password-refusal').innerText(), settle).toMatch(/^交易密码错误，还可尝试\d次$/);
    expect(await rolesNow()).toEqual(before);
    expect(await page.getByTestId('account-member').innerText()).toBe(`${masked(owner.phone)} · 所有者`);

    await dialog.getByTestId('trade-password').fill(TRADE_PASSWORD);
    await dialog.getByRole('button', { name: '确认转让' }).click();
    await page.getByText('所有权已转让').waitFor(settle);
    await dialog.waitFor({ state: 'hidden', ...settle });
    expect(await rolesNow()).toEqual({ [masked(owner.phone)]: 'ADMIN', [masked(admin.phone)]: 'OWNER' });
    // the header and 团队成员 say so at once; an 管理员 has no 转让所有权
    await expect.poll(() => page.getByTestId('account-member').innerText(), settle).toBe(`${masked(owner.phone)} · 管理员`);
    const adminRow = section.getByTestId('team-member').filter({ hasText: masked(admin.phone) });
    await expect.poll(() => adminRow.innerText(), settle).toContain('所有者');
    await expect.poll(() => section.getByRole('button', { name: /转让所有权/ }).count(), settle).toBe(0);
  }, CASE_TIMEOUT);

  it('draws 团队成员, a member’s /card and an 观察员’s /wallet within 1440 and 375 px', async () => {
    const owner = await ownerReady();
    await openCard(owner.token, owner.productId, '所有者的卡');
    const member = await memberByApi(owner, 'MEMBER', '200.00');
    await openCard(member.token, owner.productId, '成员的卡');
    const viewer = await memberByApi(owner, 'VIEWER');
    // a pending invitation too, so the section shows both its lists
    await api(owner.token, 'POST', '/api/v1/team/invitations', { email: freshPerson().email, role: 'FINANCE', monthly_budget: null });

    const settings = await signedInAt(owner.token, '/settings#team');
    await teamSection(settings).getByTestId('team-member').nth(2).waitFor(settle);
    await teamSection(settings).getByTestId('team-invitation').first().waitFor(settle);
    const cards = await signedInAt(member.token, '/card');
    await cards.getByTestId('member-budget').waitFor(settle);
    const wallet = await signedInAt(viewer.token, '/wallet');
    await wallet.getByTestId('transaction-row').first().waitFor(settle);

    for (const size of [WIDE, NARROW]) {
      await drawnAt(settings, size, 'members');
      await teamSection(settings).scrollIntoViewIfNeeded();
      await teamSection(settings).screenshot({ path: path.join(shots, `team-section-${size.width}.png`) });
      await drawnAt(cards, size, 'member-card');
      await expect.poll(() => nicknames(cards), settle).toEqual(['成员的卡']);
      // the card's nickname and number keep their room beside 持卡成员, in the table as in the narrow list
      for (const testId of ['card-nickname', 'card-number']) {
        const shown = cardRows(cards).first().getByTestId(testId);
        expect(await shown.evaluate((element) => element.clientWidth > 0 && element.scrollWidth <= element.clientWidth), testId).toBe(true);
        expect((await shown.boundingBox())?.height ?? 0, testId).toBeLessThan(30);
      }
      await drawnAt(wallet, size, 'viewer-wallet');
      // the header keeps the company and the member inside the screen
      for (const page of [settings, cards, wallet]) {
        const who = await page.getByTestId('account-menu').boundingBox();
        expect(who && who.x + who.width).toBeLessThanOrEqual(size.width);
      }
    }
  }, CASE_TIMEOUT);
});
