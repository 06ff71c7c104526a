// Prints the JavaScript a page loads on a cold visit and its gzip size.
// Usage: node apps/web/scripts/first-load.mjs http://localhost:3100/sign-in [--budget=220]
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const url = process.argv[2] ?? 'http://localhost:3000/sign-in';
const budgetArg = process.argv.find((arg) => arg.startsWith('--budget='));
const budgetKb = budgetArg ? Number(budgetArg.slice('--budget='.length)) : null;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
try {
  const page = await browser.newPage();
  const scripts = [];
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script') return;
    try {
      const body = await response.body();
      scripts.push({ url: new URL(response.url()).pathname, raw: body.length, gzip: gzipSync(body, { level: 9 }).length });
    } catch {
      // a response without a body (a redirect) carries no script
    }
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  scripts.sort((a, b) => b.gzip - a.gzip);
  const kb = (bytes) => (bytes / 1024).toFixed(1).padStart(7);
  for (const script of scripts) console.log(`${kb(script.raw)} KB ${kb(script.gzip)} KB gzip  ${script.url}`);
  const total = scripts.reduce((sum, script) => sum + script.gzip, 0);
  console.log(`${scripts.length} scripts, ${(total / 1024).toFixed(1)} KB gzip in total`);
  if (budgetKb !== null && total / 1024 > budgetKb) {
    console.error(`over the budget of ${budgetKb} KB`);
    process.exitCode = 1;
  }
} finally {
  await browser.close();
}
