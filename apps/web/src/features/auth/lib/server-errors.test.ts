import { ErrorCode } from '@portal/contract/errors';
import { errorCatalogue } from '@portal/contract/error-catalogue';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/http.ts';
import { fieldErrorsOf, showOnFields } from './server-errors.ts';

const apiError = (code: number, data: unknown = null, message = errorCatalogue[code]?.message ?? '') =>
  new ApiError({ kind: 'api', code, message, status: 400, data });

describe('fieldErrorsOf', () => {
  it('puts an account refusal on the field it is about', () => {
    expect(fieldErrorsOf(apiError(ErrorCode.INVITATION_UNKNOWN), ['phone', 'invitation_code'])).toEqual([
      { name: 'invitation_code', errors: ['邀请码不存在'] },
    ]);
    expect(fieldErrorsOf(apiError(ErrorCode.PHONE_TAKEN), ['phone'])).toEqual([{ name: 'phone', errors: ['该手机号已注册，请直接登录'] }]);
    expect(fieldErrorsOf(apiError(ErrorCode.CODE_WRONG, { remaining: 3 }, '验证码错误，还可尝试3次'), ['captcha'])).toEqual([
      { name: 'captcha', errors: ['验证码错误，还可尝试3次'] },
    ]);
  });

  it('names validation fields of the body as the forms do', () => {
    const error = apiError(ErrorCode.VALIDATION, {
      fields: [
        { field: 'phone_info.phone', message: '手机号格式有误' },
        { field: 'trx_password', message: '请输入6到10位的纯数字或大小写英文字母' },
        { field: 'captcha', message: '请输入正确验证码' },
      ],
    });
    expect(fieldErrorsOf(error, ['phone', 'password', 'captcha'])).toEqual([
      { name: 'phone', errors: ['手机号格式有误'] },
      { name: 'password', errors: ['请输入6到10位的纯数字或大小写英文字母'] },
      { name: 'captcha', errors: ['请输入正确验证码'] },
    ]);
  });

  it('leaves out fields the form does not have, and errors that are about no field', () => {
    expect(fieldErrorsOf(apiError(ErrorCode.INVITATION_UNKNOWN), ['phone'])).toEqual([]);
    expect(fieldErrorsOf(apiError(ErrorCode.INTERNAL), ['phone', 'captcha'])).toEqual([]);
    expect(fieldErrorsOf(new Error('offline'), ['phone'])).toEqual([]);
  });
});

describe('showOnFields', () => {
  it('sets the errors on the form and answers whether there were any', () => {
    const set: unknown[] = [];
    const form = { setFields: (fields: unknown[]) => set.push(...fields) };
    expect(showOnFields(form, apiError(ErrorCode.EMAIL_TAKEN), ['email', 'captcha'])).toBe(true);
    expect(set).toEqual([{ name: 'email', errors: ['该邮箱已被其他账户绑定'] }]);
    expect(showOnFields(form, apiError(ErrorCode.INTERNAL), ['email'])).toBe(false);
    expect(set).toHaveLength(1);
  });
});
