import Input, { type InputProps } from 'antd/es/input/Input';
import type { ChangeEvent } from 'react';

type AmountInputProps = Omit<InputProps, 'value' | 'onChange'> & {
  value?: string;
  onChange?: (value: string) => void;
};

/**
 * An amount as the card calls take it: digits with at most two decimals, kept as the text typed
 * (money is never a float here). What cannot be part of an amount is not typed.
 */
export function AmountInput({ value, onChange, ...rest }: AmountInputProps) {
  const change = (event: ChangeEvent<HTMLInputElement>) => {
    const typed = event.target.value.replace(/[^\d.]/g, '');
    const [whole = '', ...fractions] = typed.split('.');
    const next = fractions.length === 0 ? whole : `${whole}.${fractions.join('').slice(0, 2)}`;
    onChange?.(next.slice(0, 18));
  };
  return <Input {...rest} value={value} onChange={change} inputMode="decimal" autoComplete="off" spellCheck={false} />;
}
