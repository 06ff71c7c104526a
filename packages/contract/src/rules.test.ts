import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isMainlandIdNumber, messages, passwordChecklist, rules } from './rules.ts';

const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
const alnum = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789');

describe('phone (spec §5)', () => {
  it('is required', () => expect(rules.phone('')).toBe('您当前输入为空'));
  it('accepts every 11-digit number starting 13 to 19', () => {
    fc.assert(fc.property(fc.integer({ min: 3, max: 9 }), digits(9, 9), (second, rest) => rules.phone(`1${second}${rest}`) === null));
  });
  it('refuses other first two digits with 手机号格式有误', () => {
    fc.assert(
      fc.property(digits(11, 11).filter((p) => !/^1[3-9]/.test(p)), (phone) => rules.phone(phone) === messages.phoneFormat),
    );
  });
  it('refuses any other length or a non-digit', () => {
    fc.assert(fc.property(digits(0, 20).filter((tail) => tail.length !== 9), (tail) => rules.phone(`13${tail}`) === messages.phoneFormat));
    expect(rules.phone('1381234567')).toBe(messages.phoneFormat);
    expect(rules.phone('138123456789')).toBe(messages.phoneFormat);
    expect(rules.phone('1381234567a')).toBe(messages.phoneFormat);
    expect(rules.phone(' 13812345678')).toBe(messages.phoneFormat);
  });
});

describe('e-mail (spec §5)', () => {
  it('accepts x@y.z shapes up to 40 characters', () => {
    const part = fc.string({ unit: alnum, minLength: 1, maxLength: 10 });
    fc.assert(fc.property(part, part, part, (a, b, c) => rules.email(`${a}@${b}.${c}`) === null));
  });
  it('refuses anything without the @ and dot shape with 请输入正确的邮箱', () => {
    for (const bad of ['plain', 'a@b', '@b.c', 'a@.c', 'a b@c.d', 'a@b.', 'a@@b.c']) expect(rules.email(bad), bad).toBe('请输入正确的邮箱');
  });
  it('over 40 characters is 长度超过限制', () => {
    fc.assert(
      fc.property(fc.string({ unit: alnum, minLength: 37, maxLength: 60 }), (name) => rules.email(`${name}@b.cn`) === '长度超过限制'),
    );
    expect(rules.email(`${'a'.repeat(35)}@b.cn`)).toBeNull();
  });
  it('is required', () => expect(rules.email('')).toBe('您当前输入为空'));
});

describe('password (spec §5)', () => {
  const valid = fc
    .tuple(fc.string({ unit: alnum, minLength: 5, maxLength: 13 }), fc.constantFrom(...'ABCXYZ'), fc.constantFrom(...'abcxyz'), fc.constantFrom(...'0189'))
    .map(([rest, u, l, d]) => `${u}${rest}${l}${d}`);
  it('accepts 8–16 letters and digits with an upper case, a lower case and a digit', () => {
    fc.assert(fc.property(valid, (password) => rules.password(password) === null));
  });
  it('under 8 is 输入小于最小输入限制, over 16 is 输入大于最大输入限制', () => {
    fc.assert(fc.property(fc.string({ minLength: 1, maxLength: 7 }), (p) => rules.password(p) === '输入小于最小输入限制'));
    fc.assert(fc.property(fc.string({ minLength: 17, maxLength: 40 }), (p) => rules.password(p) === '输入大于最大输入限制'));
  });
  it('missing a class, or another character, is the pattern message', () => {
    const pattern = '需包含大写字母、小写字母、数字，密码长度为8-16位';
    for (const bad of ['abcdefgh1', 'ABCDEFGH1', 'Abcdefghi', 'Abcdefg 1', 'Abcdefg!1', 'Abcdéfgh1']) expect(rules.password(bad), bad).toBe(pattern);
  });
  it('the sign-up checklist ticks each line on its own', () => {
    expect(passwordChecklist('')).toEqual({ length: false, upper: false, lower: false, digit: false });
    expect(passwordChecklist('abcdefgh')).toEqual({ length: true, upper: false, lower: true, digit: false });
    expect(passwordChecklist('Abcdefg1')).toEqual({ length: true, upper: true, lower: true, digit: true });
    expect(passwordChecklist('Ab1!')).toEqual({ length: false, upper: true, lower: true, digit: true });
  });
});

describe('the other rules of spec §5', () => {
  it('trade password: 6–10 letters or digits', () => {
    fc.assert(fc.property(fc.string({ unit: alnum, minLength: 6, maxLength: 10 }), (p) => rules.tradePassword(p) === null));
    for (const bad of ['abc12', 'abcdefghijk', 'abc 123', '密码123456']) expect(rules.tradePassword(bad)).toBe('请输入6到10位的纯数字或大小写英文字母');
  });
  it('code: exactly 6 digits', () => {
    fc.assert(fc.property(digits(6, 6), (c) => rules.code(c) === null));
    for (const bad of ['12345', '1234567', '12345a']) expect(rules.code(bad)).toBe('请输入正确验证码');
  });
  it('fields the spec gives no required message say what to enter; the phone keeps the spec’s 您当前输入为空', () => {
    expect(rules.code('')).toBe('请输入验证码');
    expect(rules.tradePassword('')).toBe('请输入交易密码');
    expect(rules.phone('')).toBe('您当前输入为空');
  });
  it('invitation code: optional, else 4 letters or digits', () => {
    expect(rules.invitationCode('')).toBeNull();
    fc.assert(fc.property(fc.string({ unit: alnum, minLength: 4, maxLength: 4 }), (c) => rules.invitationCode(c) === null));
    for (const bad of ['abc', 'abcde', 'ab-1']) expect(rules.invitationCode(bad)).toBe('请输入正确邀请码');
  });
  it('ID number: 18 characters with a valid date and check character', () => {
    expect(isMainlandIdNumber('11010519491231002X')).toBe(true);
    expect(rules.idNumber('11010519491231002X')).toBeNull();
    expect(rules.idNumber('110105194912310021')).toBe('请输入正确的身份证号码');
    expect(rules.idNumber('11010519491331002X')).toBe('请输入正确的身份证号码');
    expect(rules.idNumber('1101051949123100')).toBe('请输入正确的身份证号码');
  });
  it('URL must start with http(s)', () => {
    expect(rules.url('https://shop.example.com')).toBeNull();
    expect(rules.url('http://a.b')).toBeNull();
    expect(rules.url('ftp://a.b')).toBe('请输入url地址');
    expect(rules.url('shop.example.com')).toBe('请输入url地址');
  });
  it('non-Chinese text', () => {
    expect(rules.nonChinese('ZHANG SAN')).toBeNull();
    expect(rules.nonChinese('张三')).toBe(messages.nonChinese);
  });
});
