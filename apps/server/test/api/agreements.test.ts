import type { AgreementTitle } from '@portal/contract/merchant';
import { ErrorCode } from '@portal/contract/errors';
import { errorCatalogue } from '@portal/contract/error-catalogue';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agreementHtml } from '../../src/demo-data.ts';
import { insertAgreement } from '../../src/modules/agreements/store.ts';
import { findMerchantBySlug } from '../../src/modules/merchants/store.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
const HAN = /\p{Script=Han}/u;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe('GET /api/v1/merchant/user-agreement/title', () => {
  it("lists the merchant's one demo agreement", async () => {
    const answer = await t.api('purple.localhost').get<AgreementTitle[]>('/merchant/user-agreement/title');
    expect(answer.code).toBe(0);
    expect(answer.data).toEqual([{ id: expect.any(String), title: '紫晶卡用户服务协议' }]);
  });

  it('lists agreements newest first, and only the own merchant’s', async () => {
    const red = await findMerchantBySlug(t.database.db, 'red');
    if (!red) throw new Error('the red demo merchant is missing');
    const now = Date.now();
    await insertAgreement(t.database.db, {
      merchantId: red.id,
      title: '赤焰卡隐私政策',
      text: '<p>隐私</p>',
      publishedAt: new Date(now + 60_000),
    });
    await insertAgreement(t.database.db, {
      merchantId: red.id,
      title: '赤焰卡旧版协议',
      text: '<p>旧</p>',
      publishedAt: new Date(now - 86_400_000),
    });
    const titles = (await t.api('red.localhost').data<AgreementTitle[]>('GET', '/merchant/user-agreement/title')).map(
      (item) => item.title,
    );
    expect(titles).toEqual(['赤焰卡隐私政策', '赤焰卡用户服务协议', '赤焰卡旧版协议']);

    const yellow = await t.api('yellow.localhost').data<AgreementTitle[]>('GET', '/merchant/user-agreement/title');
    expect(yellow.map((item) => item.title)).toEqual(['金穗卡用户服务协议']);
  });
});

describe('GET /api/v1/merchant/user-agreement/:id', () => {
  it('answers one agreement with its title and HTML text', async () => {
    const orange = t.api('orange.localhost');
    const [first] = await orange.data<AgreementTitle[]>('GET', '/merchant/user-agreement/title');
    if (!first) throw new Error('orange has no agreement');
    const answer = await orange.get(`/merchant/user-agreement/${first.id}`);
    expect(answer.status).toBe(200);
    expect(answer.code).toBe(0);
    expect(answer.data).toEqual({ id: first.id, title: '橙意卡用户服务协议', text: agreementHtml('橙意卡') });
  });

  it("answers another merchant's agreement id with 1101, as if it did not exist", async () => {
    const [blueAgreement] = await t.api('blue.localhost').data<AgreementTitle[]>('GET', '/merchant/user-agreement/title');
    if (!blueAgreement) throw new Error('blue has no agreement');
    for (const host of ['orange.localhost', 'purple.localhost', 'red.localhost', 'yellow.localhost']) {
      const answer = await t.api(host).get(`/merchant/user-agreement/${blueAgreement.id}`);
      expect(answer.code, host).toBe(ErrorCode.AGREEMENT_NOT_FOUND);
      expect(answer.status, host).toBe(404);
      expect(answer.message, host).toBe(errorCatalogue[ErrorCode.AGREEMENT_NOT_FOUND]?.message);
      expect(answer.data, host).toBeNull();
    }
    // the same id on one of the owner's other hosts works
    expect((await t.api('127.0.0.1').get(`/merchant/user-agreement/${blueAgreement.id}`)).code).toBe(0);
  });

  it('answers an id that was never issued with 1101', async () => {
    const answer = await t.api().get('/merchant/user-agreement/00000000-0000-4000-8000-000000000000');
    expect(answer.code).toBe(ErrorCode.AGREEMENT_NOT_FOUND);
  });

  it('answers a malformed id with the validation code 1001 and a 中文 message', async () => {
    for (const id of ['not-a-uuid', '123', "1' or '1'='1"]) {
      const answer = await t.api().get(`/merchant/user-agreement/${encodeURIComponent(id)}`);
      expect(answer.status, id).toBe(400);
      expect(answer.code, id).toBe(ErrorCode.VALIDATION);
      expect(answer.message, id).toMatch(HAN);
    }
  });
});

describe('unknown /api/v1 paths', () => {
  it('answer 1002 with HTTP 404 and a 中文 message', async () => {
    for (const [method, path] of [
      ['GET', '/no-such-thing'],
      ['GET', '/merchant/user-agreement'],
    ] as const) {
      const answer = await t.api().request(method, path);
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.code, `${method} ${path}`).toBe(ErrorCode.NOT_FOUND);
      expect(answer.message, `${method} ${path}`).toMatch(HAN);
    }
  });

  it('a known path asked with another method is 405 with a 中文 message, not a 404', async () => {
    for (const [method, path] of [
      ['POST', '/merchant'],
      ['DELETE', '/merchant/user-agreement/title'],
    ] as const) {
      const answer = await t.api().request(method, path);
      expect([answer.status, answer.code], `${method} ${path}`).toEqual([405, ErrorCode.METHOD_NOT_ALLOWED]);
      expect(answer.message, `${method} ${path}`).toMatch(HAN);
    }
  });
});
