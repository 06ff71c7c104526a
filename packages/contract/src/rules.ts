/**
 * The validation rules of spec §5 with their exact messages. Each rule is a function that answers
 * the message of the first failed check, or null; the zod schemas in validation.ts and the forms of
 * the portal both call them, so a rule is written once. This file imports nothing, so the browser can
 * load the rules without a schema library.
 */
export const messages = {
  /** the spec's required message (the phone's); fields the spec gives none say what to enter */
  required: '您当前输入为空',
  controlCharacter: '不能包含控制字符',
  invalidCharacter: '不能包含无效字符',
  tooDeep: '请求内容嵌套层级过深',
  unknownParameter: '不支持的参数',
  phoneFormat: '手机号格式有误',
  phoneForCode: '请输入正确手机号',
  emailFormat: '请输入正确的邮箱',
  emailTooLong: '长度超过限制',
  emailForCode: '请输入邮箱',
  passwordTooShort: '输入小于最小输入限制',
  passwordTooLong: '输入大于最大输入限制',
  passwordPattern: '需包含大写字母、小写字母、数字，密码长度为8-16位',
  confirmMismatch: '请保持与设置密码相同',
  passwordUnchanged: '新密码不能与原密码相同',
  emailUnchanged: '新邮箱不能与当前邮箱相同',
  phoneUnchanged: '新手机号不能与当前手机号相同',
  tradePassword: '请输入6到10位的纯数字或大小写英文字母',
  code: '请输入正确验证码',
  codeNotRequested: '请先获取验证码',
  codeRequired: '请输入验证码',
  tradePasswordRequired: '请输入交易密码',
  loginPasswordRequired: '请输入登录密码',
  codeFormFailed: '您的输入不满足验证条件',
  invitationCode: '请输入正确邀请码',
  agreement: '请阅读并同意协议',
  idNumber: '请输入正确的身份证号码',
  url: '请输入url地址',
  nonChinese: '不能包含中文字符',
} as const;

export const limits = {
  phonePrefix: '86',
  phoneLength: 11,
  emailMax: 40,
  passwordMin: 8,
  passwordMax: 16,
  tradePasswordMin: 6,
  tradePasswordMax: 10,
  codeLength: 6,
  /** how long a code is good after it was sent (product.md §2) */
  codeValidSeconds: 600,
  /** how long before another code may be sent to the same target for the same purpose (spec §9) */
  codeResendSeconds: 60,
  invitationCodeLength: 4,
  idNumberLength: 18,
} as const;

export const PHONE_PREFIX = limits.phonePrefix;

const MAINLAND_PHONE = /^1[3-9]\d{9}$/;
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const PASSWORD = /^(?=.*[A-Z])(?=.*[a-z])(?=.*\d)[A-Za-z\d]{8,16}$/;
const TRADE_PASSWORD = /^[A-Za-z\d]{6,10}$/;
const CODE = /^\d{6}$/;
const INVITATION_CODE = /^[A-Za-z\d]{4}$/;
const URL_START = /^https?:\/\/\S+$/;
const CHINESE = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]/;

export type Rule = (value: string) => string | null;

const isEmpty = (value: string | null | undefined) => value === undefined || value === null || value === '';

export const rules = {
  phone: ((value) => {
    if (isEmpty(value)) return messages.required;
    return MAINLAND_PHONE.test(value) ? null : messages.phoneFormat;
  }) as Rule,
  email: ((value) => {
    if (isEmpty(value)) return messages.required;
    if (value.length > limits.emailMax) return messages.emailTooLong;
    return EMAIL.test(value) ? null : messages.emailFormat;
  }) as Rule,
  password: ((value) => {
    if (isEmpty(value)) return messages.required;
    if (value.length < limits.passwordMin) return messages.passwordTooShort;
    if (value.length > limits.passwordMax) return messages.passwordTooLong;
    return PASSWORD.test(value) ? null : messages.passwordPattern;
  }) as Rule,
  tradePassword: ((value) => {
    if (isEmpty(value)) return messages.tradePasswordRequired;
    return TRADE_PASSWORD.test(value) ? null : messages.tradePassword;
  }) as Rule,
  code: ((value) => {
    if (isEmpty(value)) return messages.codeRequired;
    return CODE.test(value) ? null : messages.code;
  }) as Rule,
  invitationCode: ((value) => {
    if (isEmpty(value)) return null;
    return INVITATION_CODE.test(value) ? null : messages.invitationCode;
  }) as Rule,
  idNumber: ((value) => {
    if (isEmpty(value)) return messages.required;
    return isMainlandIdNumber(value) ? null : messages.idNumber;
  }) as Rule,
  url: ((value) => {
    if (isEmpty(value)) return messages.required;
    return URL_START.test(value) ? null : messages.url;
  }) as Rule,
  nonChinese: ((value) => {
    if (isEmpty(value)) return messages.required;
    return CHINESE.test(value) ? messages.nonChinese : null;
  }) as Rule,
};

/** The sign-up checklist: each line true when the password meets it. */
export function passwordChecklist(value: string) {
  return {
    length: /^[A-Za-z\d]{8,16}$/.test(value),
    upper: /[A-Z]/.test(value),
    lower: /[a-z]/.test(value),
    digit: /\d/.test(value),
  };
}

export const passwordChecklistLabels = {
  length: '长度为8-16位，仅限字母和数字',
  upper: '至少包含一个大写字母',
  lower: '至少包含一个小写字母',
  digit: '至少包含一个数字',
} as const;

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK = '10X98765432';

/** 18-character resident ID: 17 digits, a valid birth date and the ISO 7064 check character. */
export function isMainlandIdNumber(value: string) {
  if (!/^\d{17}[\dXx]$/.test(value)) return false;
  const year = Number(value.slice(6, 10));
  const month = Number(value.slice(10, 12));
  const day = Number(value.slice(12, 14));
  const date = new Date(Date.UTC(year, month - 1, day));
  if (year < 1900 || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return false;
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(value[i]) * (ID_WEIGHTS[i] as number);
  return ID_CHECK[sum % 11] === value[17]?.toUpperCase();
}
