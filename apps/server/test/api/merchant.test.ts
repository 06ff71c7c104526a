import { ErrorCode } from '@portal/contract/errors';
import { errorCatalogue } from '@portal/contract/error-catalogue';
import { type Merchant, merchantSchema } from '@portal/contract/merchant';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const expected = [
  {
    hosts: ['localhost', '127.0.0.1', 'blue.localhost'],
    slug: 'blue',
    color: 'MERCHANT_COLOR_BLUE',
    website: 'bluewhale.example',
    icp: '沪ICP备2021018801号-1',
    version: '2021',
  },
  {
    hosts: ['orange.localhost'],
    slug: 'orange',
    color: 'MERCHANT_COLOR_ORANGE',
    website: 'orangecard.example',
    icp: '粤ICP备2023045502号-2',
    version: '2023',
  },
  {
    hosts: ['purple.localhost'],
    slug: 'purple',
    color: 'MERCHANT_COLOR_PURPLE',
    website: 'amethyst.example',
    icp: '浙ICP备2019072203号-1',
    version: '2019',
  },
  {
    hosts: ['red.localhost'],
    slug: 'red',
    color: 'MERCHANT_COLOR_RED',
    website: 'redflame.example',
    icp: '京ICP备2022096604号-3',
    version: '2022',
  },
  {
    hosts: ['yellow.localhost'],
    slug: 'yellow',
    color: 'MERCHANT_COLOR_YELLOW',
    website: 'goldenear.example',
    icp: '苏ICP备2026010705号-1',
    version: '2026',
  },
];

describe('GET /api/v1/merchant', () => {
  for (const merchant of expected) {
    for (const host of merchant.hosts) {
      it(`answers ${host} with the ${merchant.slug} merchant's branding`, async () => {
        const answer = await t.api(host).get<Merchant>('/merchant');
        expect(answer.status).toBe(200);
        expect(answer.code).toBe(0);
        const data = merchantSchema.parse(answer.data);
        expect(data).toMatchObject({
          color: merchant.color,
          website: merchant.website,
          icp: merchant.icp,
          version: merchant.version,
          favicon: `/brand/${merchant.slug}/favicon.svg`,
          dark_logo: `/brand/${merchant.slug}/logo-dark.svg`,
          light_logo: `/brand/${merchant.slug}/logo-light.svg`,
        });
      });
    }
  }

  it('gives each host name of one merchant the same merchant', async () => {
    const ids = await Promise.all(
      ['localhost', '127.0.0.1', 'blue.localhost'].map(async (host) => (await t.api(host).data<Merchant>('GET', '/merchant')).id),
    );
    expect(new Set(ids).size).toBe(1);
  });

  it('gives the five merchants five different ids', async () => {
    const ids = await Promise.all(expected.map(async (m) => (await t.api(m.hosts[0]).data<Merchant>('GET', '/merchant')).id));
    expect(new Set(ids).size).toBe(5);
  });

  it('resolves a host that carries a port or upper-case letters', async () => {
    for (const host of ['orange.localhost:3000', 'ORANGE.LOCALHOST', 'Orange.Localhost:8443', 'LOCALHOST:3000']) {
      const answer = await t.api(host).get<Merchant>('/merchant');
      expect(answer.code, host).toBe(0);
      expect(answer.data.color, host).toBe(host.toLowerCase().startsWith('orange') ? 'MERCHANT_COLOR_ORANGE' : 'MERCHANT_COLOR_BLUE');
    }
  });

  it('answers an unknown host with 1003, its catalogue message and HTTP 404', async () => {
    for (const host of ['nope.localhost', 'example.com', 'orange.localhost.evil.example']) {
      const answer = await t.api(host).get('/merchant');
      expect(answer.status, host).toBe(404);
      expect(answer.code, host).toBe(ErrorCode.MERCHANT_UNKNOWN);
      expect(answer.message, host).toBe(errorCatalogue[ErrorCode.MERCHANT_UNKNOWN]?.message);
      expect(answer.data, host).toBeNull();
    }
  });

  it('answers an unknown host with 1003 on every /api/v1 path, even one that does not exist', async () => {
    const answer = await t.api('nope.localhost').get('/merchant/user-agreement/title');
    expect(answer.code).toBe(ErrorCode.MERCHANT_UNKNOWN);
    const missing = await t.api('nope.localhost').get('/no-such-thing');
    expect(missing.code).toBe(ErrorCode.MERCHANT_UNKNOWN);
  });
});
