import { messages, rules } from '@portal/contract/rules';
import { Button, Form } from 'antd';
import Input from 'antd/es/input/Input';
import { useReducer, useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { CodeInput } from '../../../components/code-input.tsx';
import { FormTitle } from '../../../components/form-title.tsx';
import { codeRequest, codeRequestKey, forgetCodeRequest } from '../../../lib/code-send-limits.ts';
import { formRule } from '../../../lib/form-rules.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { paths } from '../../../lib/paths.ts';
import { signEmailText } from '../../../locales/zh-CN/auth-sign-email.ts';
import { useSessionStore } from '../../../stores/session.ts';
import { useBindEmail } from '../api/bind-email.ts';
import { useSendCode } from '../../../domain/account/api/send-code.ts';
import styles from '../components/account-form.module.css';
import { type AccountField, showOnFields } from '../lib/server-errors.ts';
import { busy } from '../../../lib/busy.ts';

interface SignEmailValues {
  email: string;
  captcha: string;
}

const FIELDS: readonly AccountField[] = ['email', 'captcha'];

/**
 * /sign-email (spec §2, §4): an account without an e-mail binds one with a mailed code. Reached after
 * sign-up, or after a sign-in of such an account, with a token that can do nothing else.
 */
export default function SignEmail() {
  // read once: the session changes when the binding succeeds, and this screen then leaves by itself
  const [entry] = useState(() => useSessionStore.getState());
  if (entry.isLogin) return <Navigate to={paths.wallet.getHref()} replace />;
  if (!entry.token) return <Navigate to={paths.signIn.getHref()} replace />;
  return <SignEmailForm />;
}

function SignEmailForm() {
  const navigate = useNavigate();
  const [form] = Form.useForm<SignEmailValues>();
  const sendCall = useSendCode();
  const bindCall = useBindEmail();
  const typedEmail: string = Form.useWatch('email', form) ?? '';
  // the code asked for this address, in this tab, within its validity (kept across a reload)
  const requestKey = codeRequestKey('MARK_TYPE_BIND_EMAIL', typedEmail);
  const [, codeKept] = useReducer((count: number) => count + 1, 0);
  const sentTo = codeRequest(requestKey)?.sentTo ?? null;

  const sendCode = async () => {
    const email = String(form.getFieldValue('email') ?? '').trim();
    if (email === '') {
      notifyError(messages.emailForCode);
      throw new Error(messages.emailForCode);
    }
    // a malformed address is shown on its field, and nothing is sent
    await form.validateFields(['email']);
    try {
      return await sendCall.mutateAsync({ send_type: 'SEND_TYPE_EMAIL', mark_type: 'MARK_TYPE_BIND_EMAIL', email });
    } catch (error) {
      showOnFields(form, error, FIELDS);
      throw error;
    }
  };

  const submit = async (values: SignEmailValues) => {
    if (bindCall.isPending) return;
    if (codeRequest(codeRequestKey('MARK_TYPE_BIND_EMAIL', values.email)) === null) {
      notifyError(messages.codeNotRequested);
      return;
    }
    let answer: { token?: string };
    try {
      answer = await bindCall.mutateAsync({ email: values.email.trim(), captcha: values.captcha });
    } catch (error) {
      showOnFields(form, error, FIELDS);
      return;
    }
    // the server used the code up
    forgetCodeRequest(codeRequestKey('MARK_TYPE_BIND_EMAIL', values.email));
    const session = useSessionStore.getState();
    if (answer.token) {
      session.login(answer.token);
      navigate(paths.wallet.getHref(), { replace: true });
    } else {
      // bound, but without a session: sign in again with the new e-mail or the phone
      session.logout();
      notifySuccess(signEmailText.boundSignInAgain);
      navigate(paths.signIn.getHref(), { replace: true });
    }
  };

  const backToSignIn = () => {
    // the token can only bind an e-mail; leaving the screen gives it up
    useSessionStore.getState().logout();
    navigate(paths.signIn.getHref(), { replace: true });
  };

  return (
    <>
      <FormTitle title={signEmailText.title} onBack={backToSignIn} />
      <p className={styles.intro}>{signEmailText.intro}</p>
      <Form<SignEmailValues>
        form={form}
        name="sign-email"
        layout="vertical"
        requiredMark={false}
        className={styles.form}
        initialValues={{ email: '', captcha: '' }}
        onFinish={submit}
        noValidate
      >
        <Form.Item name="email" label={signEmailText.emailLabel} rules={[formRule(rules.email)]} validateFirst>
          <Input
            size="large"
            type="email"
            inputMode="email"
            autoComplete="email"
            placeholder={signEmailText.emailPlaceholder}
            aria-required
          />
        </Form.Item>
        <Form.Item name="captcha" label={signEmailText.codeLabel} rules={[formRule(rules.code)]} validateFirst>
          <CodeInput size="large" placeholder={signEmailText.codePlaceholder} onSend={sendCode} requestKey={requestKey} onRequestKept={codeKept} aria-required />
        </Form.Item>
        {sentTo ? (
          <p className={styles.sentTo} aria-live="polite">
            {signEmailText.codeSentTo(sentTo)}
          </p>
        ) : null}
        <Button className={styles.submit} type="primary" htmlType="submit" size="large" block loading={busy(bindCall.isPending)}>
          {signEmailText.submit}
        </Button>
        <p className={styles.footer}>
          <button type="button" className={`${styles.link} ${styles.textButton}`} onClick={backToSignIn}>
            {signEmailText.back}
          </button>
        </p>
      </Form>
    </>
  );
}
