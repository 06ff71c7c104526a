import { ErrorCode } from '@portal/contract/errors';
import type { VerificationAnswer } from '@portal/contract/cards';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../helpers/accounts.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const ID_NUMBER = '11010519491231002X';

async function customer(host = 'localhost') {
  const who = await signUp(t, host);
  return { ...who, api: t.api(host, who.token) };
}

/** The verification table's rows as stored, for the account. */
async function storedRow(accountToken: string, host = 'localhost') {
  const { id } = await t.api(host, accountToken).data<{ id: string }>('GET', '/account/info');
  const { rows } = (await t.database.db.execute(sql`select * from card_verifications where account_id = ${id}`)) as unknown as { rows: Array<Record<string, unknown>> };
  return rows[0];
}

describe('GET and PUT /api/v1/card/verification', () => {
  it('answers nothing given for a new account, then keeps the basic pair with the ID number masked and sealed', async () => {
    const who = await customer();
    expect(await who.api.data<VerificationAnswer>('GET', '/card/verification')).toEqual({ basic: null, secondary: null });
    const answer = await who.api.data<VerificationAnswer>('PUT', '/card/verification', { body: { real_name: '张三', id_number: ID_NUMBER.toLowerCase() } });
    expect(answer).toEqual({ basic: { real_name: '张三', id_number_masked: '110***********002X' }, secondary: null });
    expect(await who.api.data('GET', '/card/verification')).toEqual(answer);
    // the table holds the number sealed, never in clear
    const row = await storedRow(who.token);
    expect(JSON.stringify(row)).not.toContain(ID_NUMBER);
    expect(JSON.stringify(row).toUpperCase()).not.toContain(ID_NUMBER);
    expect(String(row?.id_number_sealed)).toMatch(/^v1\./);
  });

  it('adds the secondary pair beside the basic one, and a pair given again replaces the one before', async () => {
    const who = await customer();
    await who.api.data('PUT', '/card/verification', { body: { real_name: '李四', id_number: ID_NUMBER } });
    const both = await who.api.data<VerificationAnswer>('PUT', '/card/verification', { body: { latin_name: '  Li   Si ', website: 'https://shop.example.com' } });
    expect(both).toEqual({ basic: { real_name: '李四', id_number_masked: '110***********002X' }, secondary: { latin_name: 'Li Si', website: 'https://shop.example.com' } });
    const again = await who.api.data<VerificationAnswer>('PUT', '/card/verification', { body: { latin_name: 'Lee Si', website: 'https://ads.example.com' } });
    expect(again.secondary).toEqual({ latin_name: 'Lee Si', website: 'https://ads.example.com' });
    expect(again.basic).toEqual(both.basic);
  });

  it('refuses bad input with the field and its 中文 message, and keeps nothing of it', async () => {
    const who = await customer();
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ real_name: '张三', id_number: '110105194912310021' }, 'id_number', '请输入正确的身份证号码'],
      [{ real_name: '张三', id_number: '1101051949123100' }, 'id_number', '请输入正确的身份证号码'],
      [{ real_name: '张', id_number: ID_NUMBER }, 'real_name', '请输入真实姓名'],
      [{ real_name: '张三' }, 'id_number', '请同时填写真实姓名和身份证号码'],
      [{ latin_name: '张 San', website: 'https://a.example' }, 'latin_name', '不能包含中文字符'],
      [{ latin_name: 'Zhang San', website: 'a.example' }, 'website', '请输入url地址'],
      [{ website: 'https://a.example' }, 'latin_name', '请同时填写英文姓名和网址'],
    ];
    for (const [body, field, message] of cases) {
      const answer = await who.api.put('/card/verification', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.code).toBe(ErrorCode.VALIDATION);
      expect(answer.message).toBe(message);
      expect((answer.data as { fields: Array<{ field: string; message: string }> }).fields).toContainEqual({ field, message });
    }
    expect(await storedRow(who.token)).toBeUndefined();
    expect(await who.api.data('GET', '/card/verification')).toEqual({ basic: null, secondary: null });
  });

  it('needs a full session', async () => {
    const none = await t.api('localhost').get('/card/verification');
    expect(none.code).toBe(ErrorCode.SESSION_MISSING);
    const put = await t.api('localhost').put('/card/verification', { real_name: '张三', id_number: ID_NUMBER });
    expect(put.code).toBe(ErrorCode.SESSION_MISSING);
  });

  it("shows no account another's data, at its own merchant or another", async () => {
    const owner = await customer();
    await owner.api.data('PUT', '/card/verification', { body: { real_name: '王五', id_number: ID_NUMBER, latin_name: 'Wang Wu', website: 'https://w.example' } });
    const neighbour = await customer();
    expect(await neighbour.api.data('GET', '/card/verification')).toEqual({ basic: null, secondary: null });
    const elsewhere = await customer('orange.localhost');
    expect(await elsewhere.api.data('GET', '/card/verification')).toEqual({ basic: null, secondary: null });
    // the owner's token is not good at another merchant's host
    const crossHost = await t.api('orange.localhost', owner.token).get('/card/verification');
    expect(crossHost.code).toBe(ErrorCode.SESSION_UNKNOWN);
  });
});
