/**
 * Browser tests of the team against the real server: the owner invites by e-mail from 团队成员, the
 * invitee signs up with the link from the outbox and sees only their own cards; an 观察员's /card and
 * /wallet offer no money button; the members section at 1440 and 375 px (screenshots in test-results/).
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callApi, codeIn, createAccountByApi, field, PASSWORD, phoneAddress, settle, watchOutbox } from './accounts-support.ts';
import { repoRoot, useHarness } from './harness.ts';
import { openSignedIn } from './signed-in-session.ts';

const portal = useHarness();
const HOST = 'localhost';

let serial = 0;
/** A new person's phone and e-mail, unused by the demo data and by earlier tests. */
function freshPerson() {
  serial += 1;
  const tail = `${Date.now() % 1_000_000}`.padStart(6, '0');
  return { phone: `136${tail}${String(serial).padStart(2, '0')}`, email: `team${tail}${serial}@mail.example` };
}

/** The invitation link of a mail or SMS: /sign-up?invitation=… */
function invitationLinkIn(text: string) {
  const link = text.match(/https?:\/\/\S+\/sign-up\?invitation=[^\s"'<>]+/)?.[0];
  if (!link) throw new Error(`no invitation link in: ${text}`);
  return new URL(link);
}

async function signedInAt(token: string, urlPath: string) {
  const page = await portal.pageAt(HOST, '/sign-in');
  await openSignedIn(page, token, urlPath);
  await page.getByRole('navigation', { name: '主菜单' }).waitFor({ state: 'visible', ...settle });
  return page;
}

const teamSection = (page: Page) => page.getByRole('region', { name: '团队成员' });

/** A member who joined the owner's team through an invitation made by the API; answers their session's token. */
async function memberByApi(ownerToken: string, role: 'VIEWER' | 'MEMBER' | 'FINANCE') {
  const person = freshPerson();
  const mail = await watchOutbox(portal, person.email);
  const invited = await callApi(portal, HOST, 'POST', '/api/v1/team/invitations', { email: person.email, role }, ownerToken);
  expect(invited.code).toBe(0);
  const token = invitationLinkIn((await mail.next()).text).searchParams.get('invitation') ?? '';
  const sms = await watchOutbox(portal, phoneAddress(person.phone));
  const phone_info = { phone: person.phone, phone_prefix: '86' };
  await callApi(portal, HOST, 'POST', '/api/v1/account/send/code', { send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_REGISTER', phone_info });
  const captcha = codeIn(await sms.next());
  const registered = await callApi<{ token: string }>(portal, HOST, 'POST', '/api/v1/account/register', {
    phone_prefix: '86',
    phone: person.phone,
    password: PASSWORD,
    captcha,
    invitation_code: null,
    invitation: token,
  });
  expect(registered.code).toBe(0);
  const bindMail = await watchOutbox(portal, person.email);
  await callApi(portal, HOST, 'POST', '/api/v1/account/send/code', { send_type: 'SEND_TYPE_EMAIL', mark_type: 'MARK_TYPE_BIND_EMAIL', email: person.email }, registered.data.token);
  const bound = await callApi<{ token: string }>(
    portal,
    HOST,
    'POST',
    '/api/v1/account/email/bind',
    { email: person.email, captcha: codeIn(await bindMail.next()) },
    registered.data.token,
  );
  expect(bound.code).toBe(0);
  return bound.data.token;
}

describe('the team', () => {
  it('invites by e-mail from 团队成员; the invitee signs up with the link and sees only their own cards', async () => {
    const owner = freshPerson();
    const ownerToken = await createAccountByApi(portal, HOST, owner);
    const page = await signedInAt(ownerToken, '/settings#team');
    const section = teamSection(page);
    await section.getByTestId('team-member').first().waitFor(settle);
    expect(await section.getByTestId('team-member').first().innerText()).toContain('我');

    const invitee = freshPerson();
    const mail = await watchOutbox(portal, invitee.email);
    await section.getByRole('button', { name: /邀请成员/ }).click();
    const dialog = page.getByRole('dialog', { name: '邀请成员' });
    await dialog.waitFor(settle);
    await dialog.getByLabel('邮箱', { exact: true }).fill(invitee.email);
    await dialog.getByRole('radio', { name: /^成员/ }).check();
    await dialog.getByLabel('每月预算（USD，选填）').fill('200');
    await dialog.getByRole('button', { name: '发送邀请' }).click();
    await page.getByText('邀请已发送，链接 72 小时内有效').waitFor(settle);
    await section.getByTestId('team-invitation').filter({ hasText: invitee.email }).waitFor(settle);

    const link = invitationLinkIn((await mail.next()).text);
    const signUp = await portal.pageAt(HOST, `${link.pathname}${link.search}`);
    await signUp.getByTestId('invitation-preview').waitFor(settle);
    expect(await signUp.getByTestId('invitation-preview').innerText()).toMatch(/邀请你加入 .+，角色：成员/);
    const sms = await watchOutbox(portal, phoneAddress(invitee.phone));
    await field(signUp, '手机号').fill(invitee.phone);
    await signUp.getByRole('button', { name: '获取验证码' }).click();
    await field(signUp, '验证码').fill(codeIn(await sms.next()));
    await field(signUp, '密码').fill(PASSWORD);
    await field(signUp, '确认密码').fill(PASSWORD);
    const agree = signUp.getByRole('checkbox');
    if (await agree.count()) await agree.first().check();
    await signUp.getByRole('button', { name: '注册' }).click();
    await signUp.waitForURL(/\/sign-email/, settle);
    const bindMail = await watchOutbox(portal, invitee.email);
    await field(signUp, '邮箱').fill(invitee.email);
    await signUp.getByRole('button', { name: '获取验证码' }).click();
    await field(signUp, '验证码').fill(codeIn(await bindMail.next()));
    await signUp.getByRole('button', { name: /绑定|完成|确定/ }).first().click();
    await signUp.getByRole('navigation', { name: '主菜单' }).waitFor({ state: 'visible', ...settle });

    await signUp.goto(portal.url(HOST, '/card'));
    await signUp.getByTestId('member-budget').waitFor(settle);
    expect(await signUp.getByTestId('member-budget').innerText()).toContain('本月预算 200.00 USD');
    // a 成员 sees the cards they hold: none yet, whatever the team holds
    await signUp.getByTestId('cards-empty').waitFor(settle);
    expect(await signUp.getByTestId('account-member').innerText()).toMatch(/ · 成员$/);
  });

  it('gives an 观察员 no money button on /card and /wallet', async () => {
    const ownerToken = await createAccountByApi(portal, HOST, freshPerson());
    const viewerToken = await memberByApi(ownerToken, 'VIEWER');
    const page = await signedInAt(viewerToken, '/card');
    await page.getByTestId('card-filters').or(page.getByTestId('cards-empty')).first().waitFor(settle);
    await page.getByTestId('bulk-export').waitFor(settle);
    expect(await page.getByTestId('open-card').count()).toBe(0);
    await page.goto(portal.url(HOST, '/wallet'));
    await page.getByTestId('wallet-export').waitFor(settle);
    for (const name of ['充值', '提现', '开卡']) expect(await page.getByRole('button', { name, exact: true }).count(), name).toBe(0);
  });

  it('looks right at 1440 and at 375 px', async () => {
    const ownerToken = await createAccountByApi(portal, HOST, freshPerson());
    await memberByApi(ownerToken, 'MEMBER');
    const dir = path.join(repoRoot, 'test-results');
    await mkdir(dir, { recursive: true });
    for (const [width, height] of [
      [1440, 900],
      [375, 812],
    ] as const) {
      const page = await signedInAt(ownerToken, '/settings#team');
      await page.setViewportSize({ width, height });
      await teamSection(page).getByTestId('team-member').nth(1).waitFor(settle);
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth), { timeout: 10_000 }).toBeLessThanOrEqual(width);
      // the header keeps to one row: the company and the member stay inside it
      const header = await page.locator('header').first().boundingBox();
      expect(header?.width ?? 0).toBeLessThanOrEqual(width);
      await page.screenshot({ path: path.join(dir, `team-${width}.png`), fullPage: true });
    }
  });
});
