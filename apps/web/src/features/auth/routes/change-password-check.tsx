import { rules } from '@portal/contract/rules';
import { Button, Form } from 'antd';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { CodeInput } from '../../../components/code-input.tsx';
import { FormTitle } from '../../../components/form-title.tsx';
import { sendRetryAfter } from '../../../lib/code-send-limits.ts';
import { formRule } from '../../../lib/form-rules.ts';
import { paths } from '../../../lib/paths.ts';
import { recoveryText } from '../../../locales/zh-CN/auth-recovery.ts';
import { useCheckRecoveryCode } from '../api/check-recovery-code.ts';
import { useSendRecoveryCode } from '../../../domain/account/api/send-recovery-code.ts';
import styles from '../components/account-form.module.css';
import { lastFourDigits, type PhoneCheckState, type PhoneResetState, readPhoneCheckState } from '../lib/recovery-state.ts';
import { type AccountField, showOnFields } from '../lib/server-errors.ts';
import { busy } from '../../../lib/busy.ts';

const FIELDS: readonly AccountField[] = ['captcha'];

/**
 * /change-password-check (spec §2): the SMS code sent by /forget-password, for the phone passed in
 * navigation state. A right code buys the ticket that authorises the reset on the next screen.
 */
export default function ChangePasswordCheck() {
  const location = useLocation();
  const state = readPhoneCheckState(location.state);
  if (!state) return <Navigate to={paths.forgetPassword.getHref()} replace />;
  return <CodeCheckForm state={state} />;
}

function CodeCheckForm({ state }: { state: PhoneCheckState }) {
  const navigate = useNavigate();
  const [form] = Form.useForm<{ captcha: string }>();
  const sendCall = useSendRecoveryCode();
  const checkCall = useCheckRecoveryCode();
  const { phone_info } = state;

  const resend = async () => {
    try {
      return (await sendCall.mutateAsync({ phone_info })).resend_after;
    } catch (error) {
      const wait = sendRetryAfter(error);
      if (wait === null) throw error;
      return wait;
    }
  };

  const submit = async ({ captcha }: { captcha: string }) => {
    if (checkCall.isPending) return;
    let ticket: string;
    try {
      ({ ticket } = await checkCall.mutateAsync({ phone_info, captcha }));
    } catch (error) {
      showOnFields(form, error, FIELDS);
      return;
    }
    const next: PhoneResetState = { phone_info, ticket };
    // the code is used up: back from the next screen returns to /forget-password, not here
    navigate(paths.resetPassword.getHref(), { state: next, replace: true });
  };

  return (
    <>
      <FormTitle title={recoveryText.checkTitle} onBack={() => navigate(paths.forgetPassword.getHref(), { replace: true })} />
      <p className={styles.intro}>{recoveryText.checkIntro(lastFourDigits(phone_info.phone))}</p>
      <Form<{ captcha: string }>
        form={form}
        name="change-password-check"
        layout="vertical"
        requiredMark={false}
        className={styles.form}
        initialValues={{ captcha: '' }}
        onFinish={submit}
        noValidate
      >
        <Form.Item name="captcha" label={recoveryText.codeLabel} rules={[formRule(rules.code)]} validateFirst>
          <CodeInput
            size="large"
            placeholder={recoveryText.codePlaceholder}
            onSend={resend}
            sentWait={state.resend_after ?? 0}
            autoFocus
            aria-required
          />
        </Form.Item>
        <Button className={styles.submit} type="primary" htmlType="submit" size="large" block loading={busy(checkCall.isPending)}>
          {recoveryText.next}
        </Button>
      </Form>
    </>
  );
}
