/**
 * Browser test of the verification before a first card (product.md §4): a fresh account gives its
 * real name and ID number (a wrong check character refused on the field first), goes on to the card
 * opening, gives the secondary data the same way, and finds both shown as given when it comes back,
 * the ID number masked.
 */
import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { button, createAccountByApi, expectFieldError, expectPath, field, settle } from './accounts-support.ts';
import { useHarness } from './harness.ts';
import { openSignedIn } from './signed-in-session.ts';

const portal = useHarness();
const HOST = 'localhost';
/** a mainland ID number with a right check character (X), and the same with a wrong one */
const ID_NUMBER = '11010519491231002X';
const WRONG_CHECK = '110105194912310021';

/** A page signed in as a new account, which has given nothing yet. */
async function freshAccountAt(urlPath: string): Promise<Page> {
  const token = await createAccountByApi(portal, HOST, { phone: '13900007001', email: 'cards-verification@example.com' });
  const page = await portal.pageAt(HOST, '/sign-in');
  await openSignedIn(page, token, urlPath);
  return page;
}

/** The value shown next to a label of the given data. */
const givenValue = (page: Page, label: string) =>
  page.getByTestId('verification-given').locator('div', { has: page.locator('dt', { hasText: label }) }).locator('dd');

describe('the verification before a first card', () => {
  it('is given once, goes on to the card opening, and is shown as given afterwards', async () => {
    const page = await freshAccountAt('/create-card/verification');
    const puts: Request[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PUT' && new URL(request.url()).pathname === '/api/v1/card/verification') puts.push(request);
    });

    await field(page, '真实姓名').waitFor({ state: 'visible', ...settle });
    await field(page, '真实姓名').fill('张三');
    await field(page, '身份证号码').fill(WRONG_CHECK);
    await expectFieldError(page, '身份证号码', '请输入正确的身份证号码');
    await button(page, '提交认证').click();
    await expectFieldError(page, '身份证号码', '请输入正确的身份证号码');
    expect(puts).toEqual([]);

    await field(page, '身份证号码').fill(ID_NUMBER);
    await expectFieldError(page, '身份证号码', '');
    await button(page, '提交认证').click();
    await expectPath(page, '/create-card');
    expect(puts.map((request) => request.postDataJSON())).toEqual([{ real_name: '张三', id_number: ID_NUMBER }]);

    await page.goto(portal.url(HOST, '/create-card/secondary-verification-data?from=%2Fcreate-card'));
    await field(page, '英文姓名').waitFor({ state: 'visible', ...settle });
    await field(page, '英文姓名').fill('Zhang San');
    await field(page, '使用网站').fill('shop.example.com');
    await expectFieldError(page, '使用网站', '请输入url地址');
    await field(page, '使用网站').fill('https://shop.example.com');
    await expectFieldError(page, '使用网站', '');
    await button(page, '提交资料').click();
    await expectPath(page, '/create-card');
    expect(puts.at(-1)?.postDataJSON()).toEqual({ latin_name: 'Zhang San', website: 'https://shop.example.com' });

    // back on the verification: what was given, the number masked, and no form
    await page.goto(portal.url(HOST, '/create-card/verification'));
    await page.getByRole('heading', { name: '您已完成实名认证' }).waitFor(settle);
    expect(await givenValue(page, '真实姓名').innerText()).toBe('张三');
    const masked = await givenValue(page, '身份证号码').innerText();
    expect(masked).toContain('*');
    expect(masked).not.toBe(ID_NUMBER);
    expect(await page.locator('input').count()).toBe(0);
    expect(await page.evaluate(() => document.body.innerText)).not.toContain(ID_NUMBER);

    await button(page, '继续').click();
    await expectPath(page, '/create-card');

    await page.goto(portal.url(HOST, '/create-card/secondary-verification-data'));
    await page.getByRole('heading', { name: '您已提交补充资料' }).waitFor(settle);
    expect(await givenValue(page, '英文姓名').innerText()).toBe('Zhang San');
    expect(await givenValue(page, '使用网站').innerText()).toBe('https://shop.example.com');
    expect(puts).toHaveLength(2);
  });
});
