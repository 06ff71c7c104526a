import type { Rule as RuleFn } from '@portal/contract/rules';
import type { FormRule } from 'antd';

/**
 * An antd form rule from a contract rule: the contract answers the message of the first failed check
 * (spec §5, verbatim), so the browser and the server say the same thing.
 */
export const formRule = (rule: RuleFn): FormRule => ({
  validator: async (_, value: unknown) => {
    const message = rule(typeof value === 'string' ? value : value == null ? '' : String(value));
    if (message) throw new Error(message);
  },
});
