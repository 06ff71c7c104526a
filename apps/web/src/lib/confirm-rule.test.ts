import { messages, rules } from '@portal/contract/rules';
import type { FormInstance, FormRule } from 'antd';
import { describe, expect, it } from 'vitest';
import { confirmRule } from './confirm-rule.ts';

/** Runs a form rule against a value, with the other fields of the form as given; answers the message or null. */
async function check(rule: FormRule, value: string, fields: Record<string, string>): Promise<string | null> {
  const form = { getFieldValue: (name: string) => fields[name] } as unknown as FormInstance;
  const resolved = typeof rule === 'function' ? rule(form) : rule;
  try {
    await resolved.validator?.({} as never, value, () => {});
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

describe('confirmRule', () => {
  it('requires the confirmation and wants it equal to the password', async () => {
    expect(await check(confirmRule(), '', { password: 'Abcdefg1' })).toBe(messages.required);
    expect(await check(confirmRule(), 'Abcdefg2', { password: 'Abcdefg1' })).toBe(messages.confirmMismatch);
    expect(await check(confirmRule(), 'Abcdefg1', { password: 'Abcdefg1' })).toBeNull();
  });

  it('applies the field rule first when the confirmation has one (the trade password)', async () => {
    expect(await check(confirmRule(rules.tradePassword), 'abc', { password: 'abc' })).toBe(messages.tradePassword);
    expect(await check(confirmRule(rules.tradePassword), 'abc123', { password: 'abc124' })).toBe(messages.confirmMismatch);
    expect(await check(confirmRule(rules.tradePassword), 'abc123', { password: 'abc123' })).toBeNull();
  });

  it('compares with the field it is told to', async () => {
    expect(await check(confirmRule(undefined, 'trx'), 'abc123', { trx: 'abc123', password: 'other' })).toBeNull();
  });
});
