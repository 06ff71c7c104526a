// @vitest-environment jsdom
import { cardAmountRule } from '@portal/contract/cards';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Form } from 'antd';
import { describe, expect, it } from 'vitest';
import { formRule } from '../../../lib/form-rules.ts';
import { fieldError } from '../../../testing/field-error.ts';
import { AmountInput } from './amount-input.tsx';

/** The field as the money forms hold it: the amount rule on a Form.Item. */
function AmountField({ onValue }: { onValue: (value: string) => void }) {
  return (
    <Form onValuesChange={(_, values: { amount: string }) => onValue(values.amount)} initialValues={{ amount: '' }}>
      <Form.Item name="amount" label="充值金额" rules={[formRule(cardAmountRule)]} validateFirst>
        <AmountInput />
      </Form.Item>
    </Form>
  );
}

describe('AmountInput', () => {
  it('keeps what was typed and says what is wrong with it, rather than turning 1e3 into 13 or -5 into 5', async () => {
    const values: string[] = [];
    render(<AmountField onValue={(value) => values.push(value)} />);
    const field = screen.getByRole('textbox', { name: '充值金额' });
    for (const typed of ['1e3', '-5', '1.234', '12,5']) {
      fireEvent.change(field, { target: { value: typed } });
      expect(field).toHaveValue(typed);
      expect(values.at(-1)).toBe(typed);
      await waitFor(() => expect(fieldError(field)).toBe('请输入正确的金额（大于0，最多两位小数）'));
    }
    fireEvent.change(field, { target: { value: '' } });
    await waitFor(() => expect(fieldError(field)).toBe('请输入金额'));
    fireEvent.change(field, { target: { value: '20.50' } });
    expect(field).toHaveValue('20.50');
    await waitFor(() => expect(fieldError(field)).toBeNull());
  });

  it('takes an amount with blanks around it (as pasted) as the amount itself, and holds it without them', async () => {
    const values: string[] = [];
    render(<AmountField onValue={(value) => values.push(value)} />);
    const field = screen.getByRole('textbox', { name: '充值金额' });
    for (const typed of [' 10', '10 ', '\t10.50\u00a0', '  0.01  ']) {
      fireEvent.change(field, { target: { value: typed } });
      expect(values.at(-1)).toBe(typed.trim());
      expect(field).toHaveValue(typed.trim());
      await waitFor(() => expect(fieldError(field)).toBeNull());
    }
    // blanks inside, or only blanks, are not an amount
    for (const [typed, message] of [
      ['1 0', '请输入正确的金额（大于0，最多两位小数）'],
      [' 1e3 ', '请输入正确的金额（大于0，最多两位小数）'],
      [' -5', '请输入正确的金额（大于0，最多两位小数）'],
      ['1.234 ', '请输入正确的金额（大于0，最多两位小数）'],
      ['00010', '请输入正确的金额（大于0，最多两位小数）'],
      ['   ', '请输入金额'],
    ] as const) {
      fireEvent.change(field, { target: { value: typed } });
      await waitFor(() => expect(fieldError(field)).toBe(message));
    }
  });
});
