import { ErrorCode } from '@portal/contract/errors';
import { errorCatalogue } from '@portal/contract/error-catalogue';
import { copyrightYears } from '@portal/contract/merchant';
import { themeFor } from '@portal/contract/theme';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useHarness } from './harness.ts';

const portal = useHarness();

/** The demo merchants as the browser should see them (apps/server/src/demo-data.ts). */
const merchants = [
  { host: 'localhost', name: '蓝鲸卡', color: 'MERCHANT_COLOR_BLUE', slug: 'blue', website: 'bluewhale.example', icp: '沪ICP备2021018801号-1', version: '2021' },
  { host: 'orange.localhost', name: '橙意卡', color: 'MERCHANT_COLOR_ORANGE', slug: 'orange', website: 'orangecard.example', icp: '粤ICP备2023045502号-2', version: '2023' },
  { host: 'purple.localhost', name: '紫晶卡', color: 'MERCHANT_COLOR_PURPLE', slug: 'purple', website: 'amethyst.example', icp: '浙ICP备2019072203号-1', version: '2019' },
  { host: 'red.localhost', name: '赤焰卡', color: 'MERCHANT_COLOR_RED', slug: 'red', website: 'redflame.example', icp: '京ICP备2022096604号-3', version: '2022' },
  { host: 'yellow.localhost', name: '金穗卡', color: 'MERCHANT_COLOR_YELLOW', slug: 'yellow', website: 'goldenear.example', icp: '苏ICP备2026010705号-1', version: '2026' },
];

/** '#3399FF' → 'rgb(51, 153, 255)', as getComputedStyle reports colours. */
function rgb(hex: string) {
  const value = Number.parseInt(hex.replace('#', ''), 16);
  return `rgb(${(value >> 16) & 255}, ${(value >> 8) & 255}, ${value & 255})`;
}

/** how long the page may take to apply what the merchant call returned (a busy CI machine is slow) */
const settle = { timeout: 10_000 };

const signInButton = (page: Page) => page.getByRole('button', { name: /^登\s*录$/ });
const visibleText = (page: Page) => page.evaluate(() => document.body.innerText.replace(/\s+/g, ' ').trim());

describe('merchant branding on /sign-in', () => {
  for (const merchant of merchants) {
    it(`shows ${merchant.host} in the ${merchant.slug} theme with its title, logo and footer`, async () => {
      const page = await portal.pageAt(merchant.host, '/sign-in');

      await expect.poll(() => page.title(), settle).toBe(merchant.website.toUpperCase());

      const button = signInButton(page);
      await button.waitFor({ state: 'visible' });
      await page.mouse.move(0, 0);
      await expect
        .poll(() => button.evaluate((element) => getComputedStyle(element).backgroundColor), settle)
        .toBe(rgb(themeFor(merchant.color).primary));

      // every image named after the merchant is its dark logo, and it really loads
      const logos = page.getByAltText(merchant.name, { exact: true });
      await logos.first().waitFor({ state: 'visible' });
      for (const logo of await logos.all()) {
        expect(await logo.evaluate((img) => (img as HTMLImageElement).src)).toBe(
          portal.url(merchant.host, `/brand/${merchant.slug}/logo-dark.svg`),
        );
        await expect.poll(() => logo.evaluate((img) => (img as HTMLImageElement).naturalWidth), settle).toBeGreaterThan(0);
      }

      const footer = page.locator('footer');
      await expect
        .poll(async () => (await footer.innerText()).replace(/\s+/g, ' '), settle)
        .toContain(`Copyright © ${copyrightYears(merchant.version)} ${merchant.website} 版权所有`);
      expect(await footer.innerText()).toContain(merchant.icp);
    });
  }

  it('shows a readable error page, not a blank one, on a host that is no merchant', async () => {
    const page = await portal.pageAt('nope.localhost', '/sign-in');
    await expect.poll(() => visibleText(page), settle).toContain(errorCatalogue[ErrorCode.MERCHANT_UNKNOWN]?.message);
    expect(await page.locator('input[type="password"]').count()).toBe(0);
  });
});

describe('/agreement', () => {
  it('shows the agreement whose id is in the query', async () => {
    const titles = await portal.getJson<{ code: number; data: { id: string; title: string }[] }>(
      'purple.localhost',
      '/api/v1/merchant/user-agreement/title',
    );
    const agreement = titles.body.data[0];
    if (!agreement) throw new Error('the purple merchant has no agreement');
    expect(agreement.title).toBe('紫晶卡用户服务协议');

    const page = await portal.pageAt('purple.localhost', `/agreement?id=${agreement.id}`);
    await page.getByText(agreement.title).first().waitFor({ state: 'visible' });
    // the HTML text is shown as well
    await page.getByText('一、账户注册与安全').waitFor({ state: 'visible' });
    expect(new URL(page.url()).pathname).toBe('/agreement');
  });

  it('sends a visitor without an id to /sign-in', async () => {
    const page = await portal.pageAt('orange.localhost', '/agreement');
    await expect.poll(() => new URL(page.url()).pathname, settle).toBe('/sign-in');
    await signInButton(page).waitFor({ state: 'visible' });
  });
});
