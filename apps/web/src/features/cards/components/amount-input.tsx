import Input, { type InputProps } from 'antd/es/input/Input';
import type { ChangeEvent } from 'react';

type AmountInputProps = Omit<InputProps, 'value' | 'onChange'> & {
  value?: string;
  onChange?: (value: string) => void;
};

/**
 * An amount as the card calls take it, kept as the text typed (money is never a float here), less the
 * blanks around it (a pasted " 10" is 10). Nothing else typed is rewritten: `1e3` or `-5` stays what it
 * is and the field's rule (cardAmountRule) says what is wrong with it, rather than an amount the
 * customer never typed (13, 5) going on to the call. The form holds, checks and sends the trimmed text.
 */
export function AmountInput({ value, onChange, ...rest }: AmountInputProps) {
  const change = (event: ChangeEvent<HTMLInputElement>) => onChange?.(event.target.value.trim());
  return <Input {...rest} value={value} onChange={change} inputMode="decimal" autoComplete="off" spellCheck={false} maxLength={32} />;
}
