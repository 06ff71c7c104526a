import type { SendCodeAnswer } from '@portal/contract/account';
import { ErrorCode } from '@portal/contract/errors';
import { limits } from '@portal/contract/rules';
import Input, { type InputProps } from 'antd/es/input/Input';
import { chinaDateTime } from '@portal/contract/date-time';
import { type ChangeEvent, useEffect, useRef, useState } from 'react';
import { type CodeRequest, codeRequest, rememberCodeSent, rememberResendRefused, resendWait, sendRetryAfter } from '../lib/code-send-limits.ts';
import { isApiError } from '../lib/http.ts';
import { codeInputText } from '../locales/zh-CN/code-input.ts';
import styles from './code-input.module.css';
import { useCountdown } from './use-countdown.ts';

/** How long to wait before another code may be asked for, when the server does not say (spec §9). */
export const RESEND_SECONDS = limits.codeResendSeconds;

/** The longest wait counted in seconds; a longer one (a daily or network limit) names when it ends. */
export const COUNTED_WAIT_SECONDS = 120;

const DAY_MS = 24 * 60 * 60_000;

/** When another code may be asked for, after a long wait: in China time, by the day it falls on. */
export function waitEndsText(secondsLeft: number, now = Date.now()): string {
  const opens = chinaDateTime(new Date(now + secondsLeft * 1000));
  const [day, time] = opens.split(' ') as [string, string];
  if (day === chinaDateTime(new Date(now)).slice(0, 10)) return codeInputText.opensAt(time);
  if (day === chinaDateTime(new Date(now + DAY_MS)).slice(0, 10)) return time === '00:00' ? codeInputText.tomorrow : codeInputText.opensTomorrowAt(time);
  return codeInputText.opensAt(opens.slice(5));
}

type CodeInputProps = Omit<InputProps, 'value' | 'onChange' | 'suffix'> & {
  value?: string;
  onChange?: (value: string) => void;
  /**
   * Sends a code; resolves to the server's answer (or the seconds until another may be sent), rejects
   * when nothing was sent. A refusal of a sending limit starts the countdown with the seconds it gives.
   */
  onSend: () => Promise<SendCodeAnswer | number | undefined>;
  /** Whether a code may be asked for now (e.g. the phone number is valid). */
  canSend?: boolean;
  /** Seconds before a resend when the field appears, because a code was just sent (e.g. by the previous screen). */
  sentWait?: number;
  /**
   * What the code is for and where it goes (codeRequestKey): a code asked for is remembered under it
   * while it is good, so a reload or a dialog opened again still counts down and still takes it.
   */
  requestKey?: string;
  /** A code is known to be good under requestKey: just sent, or a resend refused as too soon. */
  onRequestKept?: (request: CodeRequest) => void;
};

/** A 6-digit verification code (digits only) with a send button that counts down before a resend. */
export function CodeInput({ value, onChange, onSend, canSend = true, sentWait = 0, requestKey, onRequestKept, ...rest }: CodeInputProps) {
  const { secondsLeft, start } = useCountdown(Math.max(sentWait, requestKey ? resendWait(requestKey) : 0));
  const [sending, setSending] = useState(false);
  const [sentOnce, setSentOnce] = useState(() => sentWait > 0 || (requestKey !== undefined && codeRequest(requestKey) !== null));

  // another target (a phone typed anew, another channel): its own code and wait, or none
  const shownKey = useRef(requestKey);
  useEffect(() => {
    if (requestKey === shownKey.current) return;
    shownKey.current = requestKey;
    start(requestKey === undefined ? 0 : resendWait(requestKey));
    setSentOnce(requestKey !== undefined && codeRequest(requestKey) !== null);
  }, [requestKey, start]);

  const kept = () => {
    const request = requestKey === undefined ? null : codeRequest(requestKey);
    if (request) onRequestKept?.(request);
  };

  const send = async () => {
    if (sending || secondsLeft > 0) return;
    setSending(true);
    try {
      const answer = await onSend();
      const wait = typeof answer === 'number' ? answer : answer?.resend_after;
      const seconds = wait && wait > 0 ? wait : RESEND_SECONDS;
      if (requestKey !== undefined) rememberCodeSent(requestKey, { resendAfter: seconds, sentTo: typeof answer === 'object' ? answer.masked_target : null });
      setSentOnce(true);
      start(seconds);
      kept();
    } catch (error) {
      // the refusal itself is told by the HTTP module; here it only sets the wait the server gave
      const wait = sendRetryAfter(error);
      if (wait !== null) {
        start(wait);
        // too soon: the code sent a moment ago is still good, whichever page asked for it
        if (isApiError(error) && error.code === ErrorCode.CODE_TOO_SOON && requestKey !== undefined) {
          rememberResendRefused(requestKey, wait);
          setSentOnce(true);
          kept();
        }
      }
    } finally {
      setSending(false);
    }
  };

  const label =
    secondsLeft > COUNTED_WAIT_SECONDS
      ? waitEndsText(secondsLeft)
      : secondsLeft > 0
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
