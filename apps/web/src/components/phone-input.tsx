import { limits } from '@portal/contract/rules';
import Input, { type InputProps } from 'antd/es/input/Input';
import type { ChangeEvent } from 'react';
import styles from './phone-input.module.css';

type PhoneInputProps = Omit<InputProps, 'value' | 'onChange' | 'prefix'> & {
  value?: string;
  onChange?: (value: string) => void;
};

/** A mainland phone number: the +86 prefix is fixed and only digits can be typed (spec §5). */
export function PhoneInput({ value, onChange, ...rest }: PhoneInputProps) {
  const handleChange = (event: ChangeEvent<HTMLInputElement>) => {
    onChange?.(event.target.value.replace(/\D/g, '').slice(0, limits.phoneLength));
  };
  return (
    <Input
      {...rest}
      value={value}
      onChange={handleChange}
      prefix={
        <span className={styles.prefix} aria-hidden="true">
          +{limits.phonePrefix}
        </span>
      }
      inputMode="numeric"
      autoComplete="tel-national"
      maxLength={limits.phoneLength}
    />
  );
}
