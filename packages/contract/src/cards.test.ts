import { describe, expect, it } from 'vitest';
import { verificationBody, verificationRules } from './cards.ts';

const firstMessage = (body: unknown) => {
  const result = verificationBody.safeParse(body);
  return result.success ? null : result.error.issues[0]?.message;
};

describe('the verification rules', () => {
  it('take a real name of 2–30 characters as on an ID card, and nothing else', () => {
    expect(verificationRules.realName('张三')).toBeNull();
    expect(verificationRules.realName('阿依古丽·买买提')).toBeNull();
    expect(verificationRules.realName('')).toBe('您当前输入为空');
    expect(verificationRules.realName('张')).toBe('请输入真实姓名');
    expect(verificationRules.realName('张三3')).toBe('请输入真实姓名');
    expect(verificationRules.realName('张'.repeat(31))).toBe('请输入真实姓名');
  });

  it('take a Latin name without Chinese characters, and a website that starts with http(s)', () => {
    expect(verificationRules.latinName('Zhang San')).toBeNull();
    expect(verificationRules.latinName("O'Neil-Smith Jr.")).toBeNull();
    expect(verificationRules.latinName('张 San')).toBe('不能包含中文字符');
    expect(verificationRules.latinName('Zhang_San')).toBe('请输入英文姓名（字母与空格）');
    expect(verificationRules.website('https://shop.example.com')).toBeNull();
    expect(verificationRules.website('shop.example.com')).toBe('请输入url地址');
    expect(verificationRules.website(`https://${'a'.repeat(200)}.com`)).toBe('网址长度超过限制');
  });

  it('want a pair whole, at least one of them, and the ID number with its right check digit', () => {
    expect(firstMessage({ real_name: '张三', id_number: '11010519491231002X' })).toBeNull();
    expect(firstMessage({ latin_name: 'Zhang San', website: 'https://a.example' })).toBeNull();
    expect(firstMessage({ real_name: '张三', id_number: '11010519491231002X', latin_name: 'Zhang San', website: 'https://a.example' })).toBeNull();
    expect(firstMessage({ real_name: '张三', id_number: '110105194912310021' })).toBe('请输入正确的身份证号码');
    expect(firstMessage({ real_name: '张三' })).toBe('请同时填写真实姓名和身份证号码');
    expect(firstMessage({ website: 'https://a.example' })).toBe('请同时填写英文姓名和网址');
    expect(firstMessage({})).toBe('请填写认证信息');
  });
});
