import type { CodeCheckAnswer } from '@portal/contract/account';
import type { SendType } from '@portal/contract/enums';
import { messages, rules } from '@portal/contract/rules';
import { Checkbox, Form, Modal } from 'antd';
import { useReducer } from 'react';
import { CodeInput } from '../../../components/code-input.tsx';
import { codeRequest, forgetCodeRequest, signInCodeKey } from '../../../lib/code-send-limits.ts';
import { applyFieldErrors } from '../../../lib/form-errors.ts';
import { formRule } from '../../../lib/form-rules.ts';
import { notifyError } from '../../../lib/notify.ts';
import { verificationText } from '../../../locales/zh-CN/auth-verification.ts';
import { useCheckLoginCode } from '../api/check-login-code.ts';
import { useSendAccessCode } from '../api/send-access-code.ts';
import type { LoginMethod } from './login-form.tsx';

interface VerificationValues {
  captcha: string;
  thirty_day: boolean;
}

const sendTypeOf: Record<LoginMethod, SendType> = { phone: 'SEND_TYPE_PHONE', email: 'SEND_TYPE_EMAIL' };

interface LoginVerificationDialogProps {
  /** The tab the user signed in with: the code goes to the account's phone or e-mail accordingly. */
  method: LoginMethod;
  /** The phone or e-mail typed at sign-in: the code asked for is kept for this account only. */
  account: string;
  onVerified: (answer: CodeCheckAnswer) => void;
  onCancel: () => void;
}

/**
 * The second verification of a sign-in from an untrusted device (spec §4): a code sent to the
 * account's own phone or e-mail, and the choice to trust this device for 30 days.
 */
export default function LoginVerificationDialog({ method, account, onVerified, onCancel }: LoginVerificationDialogProps) {
  const [form] = Form.useForm<VerificationValues>();
  const sendCall = useSendAccessCode();
  const checkCall = useCheckLoginCode();
  const sendType = sendTypeOf[method];
  // a code asked for before (the dialog closed, the page reloaded) is still good
  const requestKey = signInCodeKey(sendType, account);
  const [, codeKept] = useReducer((count: number) => count + 1, 0);
  const sentTo = codeRequest(requestKey)?.sentTo ?? null;

  const sendCode = () => sendCall.run(sendType);

  const confirm = () => {
    // without a code there is nothing to check yet (spec §5)
    if (!codeRequest(requestKey)) notifyError(messages.codeNotRequested);
    else form.submit();
  };

  const submit = async (values: VerificationValues) => {
    let answer: CodeCheckAnswer;
    try {
      answer = await checkCall.run({ captcha: values.captcha, thirty_day: Boolean(values.thirty_day), send_type: sendType });
    } catch (error) {
      applyFieldErrors(form, error);
      return;
    }
    // the server used the code up
    forgetCodeRequest(requestKey);
    onVerified(answer);
  };

  return (
    <Modal
      open
      title={verificationText.title}
      okText={verificationText.submit}
      cancelText={verificationText.cancel}
      confirmLoading={checkCall.isPending}
      onOk={confirm}
      onCancel={onCancel}
      mask={{ closable: false }}
      destroyOnHidden
      centered
    >
      <p>{sentTo ? verificationText.sentTo(sentTo) : method === 'phone' ? verificationText.introPhone : verificationText.introEmail}</p>
      <Form<VerificationValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ captcha: '', thirty_day: false }}
        onFinish={submit}
        onFinishFailed={() => notifyError(messages.codeFormFailed)}
      >
        <Form.Item name="captcha" label={verificationText.codeLabel} required rules={[formRule(rules.code)]}>
          <CodeInput placeholder={verificationText.codePlaceholder} onSend={sendCode} requestKey={requestKey} onRequestKept={codeKept} size="large" />
        </Form.Item>
        <Form.Item name="thirty_day" valuePropName="checked" style={{ marginBottom: 0 }}>
          <Checkbox>{verificationText.thirtyDay}</Checkbox>
        </Form.Item>
      </Form>
    </Modal>
  );
}
