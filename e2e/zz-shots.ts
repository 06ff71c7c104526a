import { chromium } from 'playwright-core';
import { apiCall, demoSignIn, openSignedIn } from './signed-in-session.ts';

const port = 3312;
const token = await demoSignIn(port)('localhost');
const av = await apiCall<{ products: { id: string; name: string; remaining: number; max_per_batch: number }[] }>(port, 'localhost', 'GET', '/api/v1/card/opened-available', { token });
console.log(JSON.stringify(av.body.data.products.map((p) => [p.name, p.remaining, p.max_per_batch])));
const product = av.body.data.products.find((p) => p.name === '广告投放卡') ?? av.body.data.products[0];
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
for (const [name, viewport] of [['wide', { width: 1440, height: 900 }], ['narrow', { width: 375, height: 812 }]] as const) {
  const page = await browser.newPage({ viewport });
  await page.goto(`http://localhost:${port}/sign-in`);
  await openSignedIn(page, token, `/create-card?product=${product?.id}`);
  await page.getByRole('spinbutton', { name: '开卡数量' }).fill('12');
  await page.getByRole('textbox', { name: '首充金额' }).fill('20');
  await page.getByRole('textbox', { name: '卡片昵称前缀' }).fill('FB');
  await page.getByTestId('cost-total').waitFor();
  await page.waitForTimeout(500);
  await page.screenshot({ path: `/tmp/bw-shots/create-${name}.png`, fullPage: true });
  if (name === 'wide') {
    await page.getByTestId('open-card-submit').click();
    await page.getByRole('button', { name: '确认并支付' }).click();
    await page.getByText('批量开卡已提交').waitFor();
    await page.screenshot({ path: `/tmp/bw-shots/submitted-${name}.png` });
    await page.getByTestId('batch-to-cards').click();
  } else await page.goto(`http://localhost:${port}/card`);
  await page.getByTestId('batch-progress').waitFor();
  await page.waitForTimeout(700);
  await page.screenshot({ path: `/tmp/bw-shots/card-${name}.png` });
  await page.getByTestId('batch-progress').and(page.locator('[data-status="FAIL"], [data-status="SUCCESS"]')).waitFor({ timeout: 30000 }).catch(() => {});
  await page.screenshot({ path: `/tmp/bw-shots/card-done-${name}.png` });
  await page.goto(`http://localhost:${port}/bulk-export`);
  await page.getByTestId('export-matching').waitFor();
  await page.waitForTimeout(500);
  await page.screenshot({ path: `/tmp/bw-shots/export-${name}.png`, fullPage: true });
  await page.getByTestId('export-submit').click();
  await page.getByTestId('export-current-download').waitFor({ timeout: 20000 }).catch(() => {});
  await page.waitForTimeout(500);
  await page.screenshot({ path: `/tmp/bw-shots/export-done-${name}.png`, fullPage: true });
  await page.close();
}
await browser.close();
