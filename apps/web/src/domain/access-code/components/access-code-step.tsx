import type { SendType } from '@portal/contract/enums';
import { ErrorCode } from '@portal/contract/errors';
import { messages, rules } from '@portal/contract/rules';
import { SafetyCertificateOutlined } from '@ant-design/icons';
import { Form, Segmented } from 'antd';
import { useReducer, useState } from 'react';
import { CodeInput } from '../../../components/code-input.tsx';
import { accessCodeKey, codeRequest, forgetCodeRequest } from '../../../lib/code-send-limits.ts';
import { formRule } from '../../../lib/form-rules.ts';
import { isApiError, markShownInPlace } from '../../../lib/http.ts';
import { notifyError } from '../../../lib/notify.ts';
import { useSendAccessCode } from '../../account/api/send-code-auto.ts';

/** What a screen says around its access code, in its own words. */
export interface AccessCodeText {
  intro: string;
  sentTo: (target: string) => string;
  channel: string;
  phone: string;
  email: string;
  code: string;
  codePlaceholder: string;
}

export interface AccessCodeValues {
  captcha: string;
}

/** The code as the calls that ask for one take it. */
export interface AccessCodePart {
  captcha: string;
  send_type: SendType;
}

/** Refusals of the code itself, told next to the code field rather than as a toast. */
const CODE_REFUSALS: readonly number[] = [ErrorCode.CODE_WRONG, ErrorCode.CODE_EXPIRED, ErrorCode.CODE_BURNED, ErrorCode.CODE_NOT_SENT];

/**
 * A fresh access code (send/code-auto, MARK_TYPE_ACCESS, its 60 s countdown) for a call that shows
 * or hands out full card numbers: the channel, the code, and the sending of the call with it. A code
 * already asked for (this dialog before it was closed, a reload, another dialog) is still good.
 * `codeRequired` is the call's own refusal that says a code is missing, told on the field too.
 */
export function useAccessCodeStep(codeRequired: number) {
  const [form] = Form.useForm<AccessCodeValues>();
  const [sendType, setSendType] = useState<SendType>('SEND_TYPE_PHONE');
  const sending = useSendAccessCode();
  const requestKey = accessCodeKey(sendType);
  const [, codeKept] = useReducer((count: number) => count + 1, 0);
  const sentTo = codeRequest(requestKey)?.sentTo ?? null;

  /**
   * Sends the call with the code typed. `send` answers null when it did not go (a trade password
   * not given or refused); a code the server used up is forgotten, so the next call asks for
   * another. A refusal of the code lands on its field; any other goes to `onRefused`.
   */
  const submit = async <T,>(captcha: string, send: (code: AccessCodePart) => Promise<T | null>, onRefused?: (error: unknown) => void): Promise<T | null> => {
    if (!codeRequest(requestKey)) {
      notifyError(messages.codeNotRequested);
      return null;
    }
    let answer: T | null;
    try {
      answer = await send({ captcha, send_type: sendType });
    } catch (error) {
      if (isApiError(error) && error.code !== null && (CODE_REFUSALS.includes(error.code) || error.code === codeRequired)) {
        form.setFields([{ name: 'captcha', errors: [error.message] }]);
        markShownInPlace(error);
      } else onRefused?.(error);
      return null;
    }
    if (answer !== null) forgetCodeRequest(requestKey);
    return answer;
  };

  return { form, sendType, setSendType, requestKey, codeKept, sentTo, sendCode: () => sending.mutateAsync(sendType), submit };
}

export type AccessCodeStep = ReturnType<typeof useAccessCodeStep>;

/** The line above the code: why it is asked for, or where it was sent. */
export function AccessCodeIntro({
  step,
  text,
  className,
  iconClassName,
}: {
  step: AccessCodeStep;
  text: AccessCodeText;
  className?: string;
  iconClassName?: string;
}) {
  return (
    <p className={className}>
      <SafetyCertificateOutlined className={iconClassName} aria-hidden />
      {step.sentTo ? text.sentTo(step.sentTo) : text.intro}
    </p>
  );
}

/** The channel to send the code to, and the code with its send button and countdown; inside the caller's form. */
export function AccessCodeFields({ step, text, codeClassName }: { step: AccessCodeStep; text: AccessCodeText; codeClassName?: string }) {
  return (
    <>
      <Form.Item label={text.channel}>
        <Segmented<SendType>
          block
          value={step.sendType}
          onChange={step.setSendType}
          options={[
            { value: 'SEND_TYPE_PHONE', label: text.phone },
            { value: 'SEND_TYPE_EMAIL', label: text.email },
          ]}
        />
      </Form.Item>
      <Form.Item name="captcha" label={text.code} rules={[formRule(rules.code)]} validateFirst className={codeClassName}>
        <CodeInput
          key={step.sendType}
          placeholder={text.codePlaceholder}
          onSend={step.sendCode}
          requestKey={step.requestKey}
          onRequestKept={step.codeKept}
          size="large"
        />
      </Form.Item>
    </>
  );
}
