import { ErrorCode } from '@portal/contract/errors';
import type { FormInstance } from 'antd';
import { isApiError, markShownInPlace } from '../../../lib/http.ts';

/** The fields of the account forms, as the forms name them. */
export type AccountField = 'phone' | 'email' | 'captcha' | 'password' | 'confirm' | 'invitation_code';

/** Server validation names (dotted body paths) that the forms call otherwise. */
const bodyFieldNames: Record<string, AccountField> = {
  phone_info: 'phone',
  'phone_info.phone': 'phone',
  'phone_info.phone_prefix': 'phone',
  phone_prefix: 'phone',
  trx_password: 'password',
};

/** Which field an account error is about, for the errors that answer no field list of their own. */
const fieldOfCode: Partial<Record<number, AccountField>> = {
  [ErrorCode.INVITATION_UNKNOWN]: 'invitation_code',
  [ErrorCode.PHONE_TAKEN]: 'phone',
  [ErrorCode.PHONE_NOT_REGISTERED]: 'phone',
  [ErrorCode.EMAIL_TAKEN]: 'email',
  [ErrorCode.EMAIL_NOT_REGISTERED]: 'email',
  [ErrorCode.EMAIL_ALREADY_BOUND]: 'email',
  [ErrorCode.CODE_WRONG]: 'captcha',
  [ErrorCode.CODE_EXPIRED]: 'captcha',
  [ErrorCode.CODE_BURNED]: 'captcha',
  [ErrorCode.CODE_NOT_SENT]: 'captcha',
};

/** The field an answer's errors belong on, each with its message; fields not on the form are left out. */
export function fieldErrorsOf(error: unknown, onForm: readonly AccountField[]): { name: AccountField; errors: string[] }[] {
  if (!isApiError(error)) return [];
  const byField = new Map<AccountField, string[]>();
  const add = (name: AccountField | undefined, message: string) => {
    if (!name || !onForm.includes(name)) return;
    const list = byField.get(name) ?? [];
    if (!list.includes(message)) list.push(message);
    byField.set(name, list);
  };
  for (const { field, message } of error.fields) add(bodyFieldNames[field] ?? (field as AccountField), message);
  if (error.code !== null) add(fieldOfCode[error.code], error.message);
  return [...byField].map(([name, errors]) => ({ name, errors }));
}

/**
 * Puts a failed call's errors next to the fields they are about, and only there (no toast). Answers
 * whether any field got one.
 */
export function showOnFields(form: Pick<FormInstance, 'setFields'>, error: unknown, onForm: readonly AccountField[]): boolean {
  const fields = fieldErrorsOf(error, onForm);
  if (fields.length > 0) {
    form.setFields(fields);
    markShownInPlace(error);
  }
  return fields.length > 0;
}
