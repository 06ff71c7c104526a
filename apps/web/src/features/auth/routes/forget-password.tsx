import { MailOutlined } from '@ant-design/icons';
import { ErrorCode } from '@portal/contract/errors';
import { limits, rules } from '@portal/contract/rules';
import { Button, Form } from 'antd';
import Input from 'antd/es/input/Input';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { FormTitle } from '../../../components/form-title.tsx';
import { PhoneInput } from '../../../components/phone-input.tsx';
import { Tabs, tabId } from '../../../components/tabs.tsx';
import { useCountdown } from '../../../components/use-countdown.ts';
import { sendRetryAfter } from '../../../lib/code-send-limits.ts';
import { formRule } from '../../../lib/form-rules.ts';
import { isApiError } from '../../../lib/http.ts';
import { paths } from '../../../lib/paths.ts';
import { recoveryText } from '../../../locales/zh-CN/auth-recovery.ts';
import { useSendRecoveryCode } from '../../../domain/account/api/send-recovery-code.ts';
import styles from '../components/account-form.module.css';
import type { PhoneCheckState } from '../lib/recovery-state.ts';
import { type AccountField, showOnFields } from '../lib/server-errors.ts';
import { busy } from '../../../lib/busy.ts';

type Method = 'phone' | 'email';

interface ForgetValues {
  phone?: string;
  email?: string;
}

const methods = [
  { key: 'phone', label: recoveryText.phoneTab },
  { key: 'email', label: recoveryText.emailTab },
] as const;

const ID = 'forget-password';
const PANEL_ID = `${ID}-panel`;
const FIELDS: readonly AccountField[] = ['phone', 'email'];

/** A reset link went out: where to, and how long before another may be sent. */
interface LinkSent {
  email: string;
  maskedTarget: string;
  wait: number;
}

/**
 * /forget-password (spec §2, §4): by phone, an SMS code and then /change-password-check; by e-mail, a
 * reset link, after which the screen asks the user to open it.
 */
export default function ForgetPassword() {
  const [sent, setSent] = useState<LinkSent | null>(null);
  const navigate = useNavigate();
  return (
    <>
      <FormTitle title={recoveryText.forgetTitle} onBack={() => navigate(paths.signIn.getHref())} />
      {sent ? <LinkSentNotice sent={sent} /> : <ForgetForm onLinkSent={setSent} />}
    </>
  );
}

function ForgetForm({ onLinkSent }: { onLinkSent: (sent: LinkSent) => void }) {
  const navigate = useNavigate();
  const [form] = Form.useForm<ForgetValues>();
  const [method, setMethod] = useState<Method>('phone');
  const sendCall = useSendRecoveryCode();

  const switchMethod = (next: Method) => {
    form.resetFields();
    setMethod(next);
  };

  const toCodeCheck = (phone: string, wait: number) => {
    const state: PhoneCheckState = { phone_info: { phone, phone_prefix: limits.phonePrefix }, resend_after: wait };
    navigate(paths.changePasswordCheck.getHref(), { state });
  };

  const submit = async (values: ForgetValues) => {
    if (sendCall.isPending) return;
    if (method === 'phone') {
      const phone = values.phone ?? '';
      try {
        const answer = await sendCall.mutateAsync({ phone_info: { phone, phone_prefix: limits.phonePrefix } });
        toCodeCheck(phone, answer.resend_after);
      } catch (error) {
        // a code sent to this phone a moment ago is still good: go on and enter it
        if (isApiError(error) && error.code === ErrorCode.CODE_TOO_SOON) toCodeCheck(phone, sendRetryAfter(error) ?? 0);
        else showOnFields(form, error, FIELDS);
      }
      return;
    }
    const email = (values.email ?? '').trim();
    try {
      const answer = await sendCall.mutateAsync({ email, type: 'FORGET_PASSWORD' });
      onLinkSent({ email, maskedTarget: answer.masked_target, wait: answer.resend_after });
    } catch (error) {
      showOnFields(form, error, FIELDS);
    }
  };

  return (
    <>
      <Tabs items={methods} activeKey={method} onChange={switchMethod} label={recoveryText.methodTabs} idPrefix={ID} panelId={PANEL_ID} />
      <div id={PANEL_ID} role="tabpanel" aria-labelledby={tabId(ID, method)}>
        <p className={styles.intro}>{method === 'phone' ? recoveryText.phoneIntro : recoveryText.emailIntro}</p>
        <Form<ForgetValues>
          form={form}
          name="forget-password"
          layout="vertical"
          requiredMark={false}
          className={styles.form}
          preserve={false}
          onFinish={submit}
          noValidate
        >
          {method === 'phone' ? (
            <Form.Item key="phone" name="phone" label={recoveryText.phoneLabel} rules={[formRule(rules.phone)]} validateFirst>
              <PhoneInput size="large" placeholder={recoveryText.phonePlaceholder} aria-required />
            </Form.Item>
          ) : (
            <Form.Item key="email" name="email" label={recoveryText.emailLabel} rules={[formRule(rules.email)]} validateFirst>
              <Input size="large" type="email" inputMode="email" autoComplete="email" placeholder={recoveryText.emailPlaceholder} aria-required />
            </Form.Item>
          )}
          <Button className={styles.submit} type="primary" htmlType="submit" size="large" block loading={busy(sendCall.isPending)}>
            {method === 'phone' ? recoveryText.next : recoveryText.sendLink}
          </Button>
          <p className={styles.footer}>
            <Link className={styles.link} to={paths.signIn.getHref()}>
              {recoveryText.backToSignIn}
            </Link>
          </p>
        </Form>
      </div>
    </>
  );
}

/** After the link went out: 请检查收件箱… (spec §2), with a resend once the wait is over. */
function LinkSentNotice({ sent }: { sent: LinkSent }) {
  const { secondsLeft, start } = useCountdown(sent.wait);
  const sendCall = useSendRecoveryCode();

  const resend = async () => {
    if (sendCall.isPending) return;
    try {
      const answer = await sendCall.mutateAsync({ email: sent.email, type: 'FORGET_PASSWORD' });
      start(answer.resend_after);
    } catch (error) {
      const wait = sendRetryAfter(error);
      if (wait !== null) start(wait);
    }
  };

  return (
    <div className={styles.done}>
      <span className={styles.doneIcon} aria-hidden="true">
        <MailOutlined />
      </span>
      <p className={styles.doneTitle} role="status">
        {recoveryText.checkInbox}
      </p>
      <p className={styles.doneText}>{recoveryText.linkSentTo(sent.maskedTarget)}</p>
      <div className={styles.doneActions}>
        <Button size="large" block onClick={resend} disabled={secondsLeft > 0} loading={busy(sendCall.isPending)}>
          {secondsLeft > 0 ? recoveryText.resendLinkIn(secondsLeft) : recoveryText.resendLink}
        </Button>
        <Link className={styles.link} to={paths.signIn.getHref()}>
          {recoveryText.backToSignIn}
        </Link>
      </div>
    </div>
  );
}
