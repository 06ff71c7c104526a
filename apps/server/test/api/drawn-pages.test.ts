import { ErrorCode } from '@portal/contract/errors';
import type { Merchant } from '@portal/contract/merchant';
import { themeFor } from '@portal/contract/theme';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { runOpsOn } from '../helpers/ops.ts';
import { createWebBuild, fixtureIndexHtml, type WebBuild } from '../helpers/web-build.ts';

let t: TestApp;
let web: WebBuild;
beforeAll(async () => {
  // a stand-in for the web build: the API tests run before the real one is made
  web = await createWebBuild();
  t = await createTestApp({ config: { webDist: web.webDist } });
});
afterAll(async () => {
  await t?.close();
  await web?.remove();
});

type Method = 'GET' | 'HEAD' | 'POST';

function request(host: string, url = '/sign-in', method: Method = 'GET') {
  return t.app.inject({ method, url, headers: { host } });
}

/** What the page carries as the merchant's data. */
function merchantData(body: string) {
  const found = /<script type="application\/json" id="portal-merchant">([^<]*)<\/script>/.exec(body);
  expect(found, 'no merchant data in the page').not.toBeNull();
  return JSON.parse(found?.[1] ?? 'null') as Merchant;
}

/** GET /sign-in on a host, checked to be a drawn page. */
async function drawn(host: string, url = '/sign-in') {
  const response = await request(host, url);
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(response.headers['cache-control']).toBe('no-cache');
  expect(response.headers.vary).toBe('host');
  expect(response.body).toContain('<div id="root" data-shell="">');
  expect(response.body).not.toContain('<div class="boot-spinner"');
  // the security headers stand on a drawn page too, and it needs no inline script: its only inline
  // script elements are JSON data, which a browser never runs
  expect(String(response.headers['content-security-policy'])).toContain("script-src 'self';");
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  for (const [tag] of response.body.matchAll(/<script\b[^>]*>/g)) {
    expect(tag, tag).toMatch(/ src="\/assets\/[^"]+"|type="application\/json"/);
  }
  return response.body;
}

/** A page path answered with index.html as it is. */
async function plain(host: string, url: string) {
  const response = await request(host, url);
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toMatch(/^text\/html/);
  expect(response.headers['cache-control']).toBe('no-cache');
  expect(response.headers.vary).toBeUndefined();
  expect(response.body).toBe(fixtureIndexHtml);
  return response.body;
}

describe('GET /sign-in drawn by the server', () => {
  it("answers localhost with the blue merchant's page", async () => {
    const body = await drawn('localhost');
    const { primary } = themeFor('MERCHANT_COLOR_BLUE');
    expect(body).toContain('<title>BLUEWHALE.EXAMPLE</title>');
    expect(body).toContain('<h1 class="brand-name">蓝鲸卡</h1>');
    expect(body).toContain('<form class="sign-in-form">');
    expect(body).toContain(`<html lang="zh-CN" style="--brand-primary:${primary};`);
    expect(body).toContain('<link rel="icon" id="favicon" href="/brand/blue/favicon.svg" type="image/svg+xml">');
    expect(body).toContain('<link rel="preload" as="image" href="/brand/blue/logo-dark.svg" fetchPriority="high"/>');
    // the data is what the API answers the same host
    const merchant = await t.api('localhost').data<Merchant>('GET', '/merchant');
    expect(merchantData(body)).toEqual(merchant);
    expect(merchant.name).toBe('蓝鲸卡');
  });

  it("answers orange.localhost with the orange merchant's page, and neither page has the other's branding", async () => {
    const orange = await drawn('orange.localhost');
    const blue = await drawn('localhost');
    expect(orange).toContain('<title>ORANGECARD.EXAMPLE</title>');
    expect(orange).toContain('<h1 class="brand-name">橙意卡</h1>');
    expect(orange).toContain(`--brand-primary:${themeFor('MERCHANT_COLOR_ORANGE').primary};`);
    expect(merchantData(orange)).toEqual(await t.api('orange.localhost').data<Merchant>('GET', '/merchant'));
    expect(orange).not.toContain('蓝鲸卡');
    expect(orange).not.toContain('bluewhale');
    expect(orange).not.toContain(themeFor('MERCHANT_COLOR_BLUE').primary);
    expect(blue).not.toContain('橙意卡');
    expect(blue).not.toContain('orangecard');
    expect(blue).not.toContain(themeFor('MERCHANT_COLOR_ORANGE').primary);
  });

  it("answers every host of a merchant with that merchant's page", async () => {
    const blue = await drawn('localhost');
    for (const host of ['127.0.0.1', 'blue.localhost', 'localhost:3000', 'Blue.Localhost']) {
      expect(await drawn(host), host).toBe(blue);
    }
  });

  it('draws the path with a trailing slash or a query too', async () => {
    const blue = await drawn('localhost');
    expect(await drawn('localhost', '/sign-in/')).toBe(blue);
    expect(await drawn('localhost', '/sign-in?x=1')).toBe(blue);
    expect(await drawn('orange.localhost', '/sign-in/?redirect=%2Fwallet')).toContain('<h1 class="brand-name">橙意卡</h1>');
  });
});

describe('what is not drawn', () => {
  it('answers an unknown host with index.html', async () => {
    const body = await plain('nobody.example', '/sign-in');
    expect(body).toContain('<div id="root"><div class="boot-spinner" role="status" aria-label="加载中"></div></div>');
    expect(body).not.toContain('data-shell');
  });

  it('answers any other page path with index.html', async () => {
    await plain('localhost', '/wallet');
    await plain('orange.localhost', '/');
    await plain('localhost', '/sign-up');
    await plain('localhost', '/sign-in/more');
  });

  it('does not draw for HEAD or POST', async () => {
    for (const method of ['HEAD', 'POST'] as const) {
      const response = await request('localhost', '/sign-in', method);
      expect(response.statusCode, method).toBe(404);
      expect(response.headers.vary, method).toBeUndefined();
      expect(response.body, method).not.toContain('data-shell');
    }
    const post = await request('localhost', '/sign-in', 'POST');
    expect(post.json()).toEqual({ code: ErrorCode.NOT_FOUND, message: '请求的内容不存在', data: null });
  });

  it('serves the hashed assets for good and index.html itself afresh', async () => {
    for (const [url, type] of [
      ['/assets/main-M1.css', /^text\/css/],
      ['/assets/boot-B1.js', /javascript/],
    ] as const) {
      const response = await request('localhost', url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toMatch(type);
      expect(response.headers['cache-control'], url).toBe('public, max-age=31536000, immutable');
    }
    const index = await request('localhost', '/index.html');
    expect(index.statusCode).toBe(200);
    expect(index.headers['cache-control']).toBe('no-cache');
    expect(index.body).toBe(fixtureIndexHtml);
  });

  it('answers an unknown API path with the JSON 404', async () => {
    const answer = await t.api('localhost').get('/api/v1/nope');
    expect(answer.status).toBe(404);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.body).toEqual({ code: ErrorCode.NOT_FOUND, message: '请求的内容不存在', data: null });
  });
});

describe('a merchant whose branding changes', () => {
  it('shows the new branding on the page once the change is heard', async () => {
    // fills the server's merchant cache with the old branding
    const before = await drawn('yellow.localhost');
    expect(before).toContain('<title>GOLDENEAR.EXAMPLE</title>');
    expect(before).toContain('<h1 class="brand-name">金穗卡</h1>');

    const run = await runOpsOn(t.database, [
      'merchant:set',
      '--slug',
      'yellow',
      '--name',
      '金穗卡Plus',
      '--website',
      'newgold.example',
      '--color',
      'purple',
    ]);
    expect(run.code, run.stderr).toBe(0);

    // the change NOTIFYs every server, which drops its cache: well before the 5 s the cache keeps a merchant
    const until = Date.now() + 4_000;
    let after = before;
    while (!after.includes('金穗卡Plus') && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      after = await drawn('yellow.localhost');
    }
    expect(after).toContain('<title>NEWGOLD.EXAMPLE</title>');
    expect(after).toContain('<h1 class="brand-name">金穗卡Plus</h1>');
    expect(after).toContain(`--brand-primary:${themeFor('MERCHANT_COLOR_PURPLE').primary};`);
    expect(after).not.toContain('GOLDENEAR');
    expect(after).not.toContain(themeFor('MERCHANT_COLOR_YELLOW').primary);
    expect(merchantData(after)).toMatchObject({ name: '金穗卡Plus', website: 'newgold.example', color: 'MERCHANT_COLOR_PURPLE' });
    // the other merchants' pages are as they were
    expect(await drawn('orange.localhost')).toContain('<h1 class="brand-name">橙意卡</h1>');
  });
});
