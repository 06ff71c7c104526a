import { limits } from '@portal/contract/rules';
import Input, { type InputProps } from 'antd/es/input/Input';
import { type ChangeEvent, useState } from 'react';
import { codeInputText } from '../locales/zh-CN/code-input.ts';
import styles from './code-input.module.css';
import { useCountdown } from './use-countdown.ts';

/** How long to wait before another code may be asked for, when the server does not say (spec §9). */
export const RESEND_SECONDS = 60;

type CodeInputProps = Omit<InputProps, 'value' | 'onChange' | 'suffix'> & {
  value?: string;
  onChange?: (value: string) => void;
  /** Sends a code; resolves to the seconds until another may be sent, rejects when nothing was sent. */
  onSend: () => Promise<number | undefined>;
  /** Whether a code may be asked for now (e.g. the phone number is valid). */
  canSend?: boolean;
  /** Seconds before a resend when the field appears, because a code was just sent (e.g. by the previous screen). */
  sentWait?: number;
};

/** A 6-digit verification code (digits only) with a send button that counts down before a resend. */
export function CodeInput({ value, onChange, onSend, canSend = true, sentWait = 0, ...rest }: CodeInputProps) {
  const { secondsLeft, start } = useCountdown(sentWait);
  const [sending, setSending] = useState(false);
  const [sentOnce, setSentOnce] = useState(sentWait > 0);

  const send = async () => {
    if (sending || secondsLeft > 0) return;
    setSending(true);
    try {
      const wait = await onSend();
      setSentOnce(true);
      start(wait && wait > 0 ? wait : RESEND_SECONDS);
    } catch {
      // the failure was already told to the user; the button is ready again
    } finally {
      setSending(false);
    }
  };

  const label =
    secondsLeft > 0
      ? codeInputText.resend(secondsLeft)
      : sending
        ? codeInputText.sending
        : sentOnce
          ? codeInputText.again
          : codeInputText.send;

  return (
    <Input
      {...rest}
      value={value}
      onChange={(event: ChangeEvent<HTMLInputElement>) =>
        onChange?.(event.target.value.replace(/\D/g, '').slice(0, limits.codeLength))
      }
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={limits.codeLength}
      suffix={
        <button type="button" className={styles.send} onClick={send} disabled={!canSend || sending || secondsLeft > 0}>
          {label}
        </button>
      }
    />
  );
}
