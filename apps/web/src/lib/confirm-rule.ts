import { messages, type Rule } from '@portal/contract/rules';
import type { FormRule } from 'antd';

/**
 * The rule of a confirmation field (spec §5): required, then the field's own rule when it has one
 * (the trade password's confirmation is a trade password too), then equal to the field named
 * `original`: 请保持与设置密码相同.
 */
export const confirmRule =
  (own?: Rule, original = 'password'): FormRule =>
  ({ getFieldValue }) => ({
    validator: async (_, value: unknown) => {
      const text = typeof value === 'string' ? value : '';
      if (text === '') throw new Error(messages.required);
      const message = own?.(text);
      if (message) throw new Error(message);
      if (text !== getFieldValue(original)) throw new Error(messages.confirmMismatch);
    },
  });
