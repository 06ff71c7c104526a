import type { RegisterAnswer } from '@portal/contract/account';
import { limits, messages, rules } from '@portal/contract/rules';
import { Button, Checkbox, Form } from 'antd';
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import { lazy, Suspense, useId, useReducer } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { CodeInput } from '../../../components/code-input.tsx';
import { PasswordChecklist } from '../../../components/password-checklist.tsx';
import { FormTitle } from '../../../components/form-title.tsx';
import { PhoneInput } from '../../../components/phone-input.tsx';
import { codeRequest, codeRequestKey, forgetCodeRequest } from '../../../lib/code-send-limits.ts';
import { confirmRule } from '../../../lib/confirm-rule.ts';
import { formRule } from '../../../lib/form-rules.ts';
import { notifyError } from '../../../lib/notify.ts';
import { paths } from '../../../lib/paths.ts';
import { signUpText } from '../../../locales/zh-CN/auth-sign-up.ts';
import { useSessionStore } from '../../../stores/session.ts';
import { useSignUpAgreement } from '../../../domain/merchant/api/get-agreement-titles.ts';
import { useRegister } from '../api/register.ts';
import { useSendCode } from '../../../domain/account/api/send-code.ts';
import styles from '../components/account-form.module.css';
import { type AccountField, showOnFields } from '../lib/server-errors.ts';
import { busy } from '../../../lib/busy.ts';

interface SignUpValues {
  phone: string;
  captcha: string;
  password: string;
  confirm: string;
  invitation_code: string;
  agreed: boolean;
}

// a team's invitation (/sign-up?invitation=…) is read by a piece of its own, loaded only with one
const InvitationNote = lazy(() => import('../components/invitation-note.tsx'));

const FIELDS: readonly AccountField[] = ['phone', 'captcha', 'password', 'confirm', 'invitation_code'];

/**
 * /sign-up (spec §2, §4): a mainland phone with its SMS code, a password, an optional invitation code.
 * With `?invitation=` (a team's link) the new member joins that team: what it offers is shown above the
 * form and the token goes with the registration.
 */
export default function SignUp() {
  const navigate = useNavigate();
  const location = useLocation();
  const checklistId = useId();
  const invitationToken = new URLSearchParams(location.search).get('invitation');
  const [form] = Form.useForm<SignUpValues>();
  const password = Form.useWatch('password', form) ?? '';
  const agreement = useSignUpAgreement();
  const sendCall = useSendCode();
  const registerCall = useRegister();
  const phone: string = Form.useWatch('phone', form) ?? '';
  // a code must have been asked for before the form can be sent (spec §4): for this phone, in this
  // tab, within the code's validity (kept across a reload)
  const requestKey = codeRequestKey('MARK_TYPE_REGISTER', phone);
  // where the code for this phone went, read again once a send is answered
  const [, codeKept] = useReducer((count: number) => count + 1, 0);
  const sentTo = codeRequest(requestKey)?.sentTo ?? null;

  const sendCode = async () => {
    if (rules.phone(phone) !== null) {
      notifyError(messages.phoneForCode);
      throw new Error(messages.phoneForCode);
    }
    try {
      return await sendCall.mutateAsync({
        send_type: 'SEND_TYPE_PHONE',
        mark_type: 'MARK_TYPE_REGISTER',
        phone_info: { phone, phone_prefix: limits.phonePrefix },
      });
    } catch (error) {
      showOnFields(form, error, FIELDS);
      throw error;
    }
  };

  // while the agreement list loads, assume there is one: the box must be ticked
  const agreementRequired = agreement.data !== null;

  const submit = async (values: SignUpValues) => {
    if (registerCall.isPending) return;
    if (codeRequest(codeRequestKey('MARK_TYPE_REGISTER', values.phone)) === null) {
      notifyError(messages.codeNotRequested);
      return;
    }
    if (agreementRequired && !values.agreed) {
      notifyError(messages.agreement);
      return;
    }
    const invitation = (values.invitation_code ?? '').trim();
    let answer: RegisterAnswer;
    try {
      answer = await registerCall.mutateAsync({
        phone_prefix: limits.phonePrefix,
        phone: values.phone,
        password: values.password,
        captcha: values.captcha,
        invitation_code: invitation === '' ? null : invitation,
        // left out of the body when there is none
        invitation: invitationToken || undefined,
      });
    } catch (error) {
      showOnFields(form, error, FIELDS);
      return;
    }
    // the server used the code up
    forgetCodeRequest(codeRequestKey('MARK_TYPE_REGISTER', values.phone));
    // signed in when an invitation by e-mail gave the new member that e-mail; otherwise the token can
    // only bind an e-mail, and the next screen does that (spec §4)
    const { signed_in, token } = answer;
    const session = useSessionStore.getState();
    if (signed_in) session.login(token);
    else session.keepToken(token);
    navigate((signed_in ? paths.wallet : paths.signEmail).getHref(), { replace: true });
  };

  const canGoBack = location.key !== 'default';

  return (
    <>
      <FormTitle title={signUpText.title} onBack={canGoBack ? () => navigate(-1) : undefined} />
      <p className={styles.intro}>{signUpText.intro}</p>
      {invitationToken ? (
        <Suspense fallback={null}>
          <InvitationNote token={invitationToken} />
        </Suspense>
      ) : null}
      <Form<SignUpValues>
        form={form}
        name="sign-up"
        layout="vertical"
        requiredMark={false}
        className={styles.form}
        initialValues={{ phone: '', captcha: '', password: '', confirm: '', invitation_code: '', agreed: false }}
        onFinish={submit}
        autoComplete="on"
        noValidate
      >
        <Form.Item name="phone" label={signUpText.phoneLabel} rules={[formRule(rules.phone)]} validateFirst>
          <PhoneInput size="large" placeholder={signUpText.phonePlaceholder} aria-required />
        </Form.Item>
        <Form.Item name="captcha" label={signUpText.codeLabel} rules={[formRule(rules.code)]} validateFirst>
          <CodeInput
            size="large"
            placeholder={signUpText.codePlaceholder}
            onSend={sendCode}
            requestKey={requestKey}
            onRequestKept={codeKept}
            aria-required
          />
        </Form.Item>
        {sentTo ? (
          <p className={styles.sentTo} aria-live="polite">
            {signUpText.codeSentTo(sentTo)}
          </p>
        ) : null}
        <Form.Item name="password" label={signUpText.passwordLabel} rules={[formRule(rules.password)]} validateFirst>
          <Password
            size="large"
            placeholder={signUpText.passwordPlaceholder}
            autoComplete="new-password"
            aria-required
            aria-describedby={checklistId}
          />
        </Form.Item>
        <PasswordChecklist id={checklistId} password={password} />
        <Form.Item
          name="confirm"
          label={signUpText.confirmLabel}
          dependencies={['password']}
          rules={[confirmRule()]}
          validateFirst
        >
          <Password
            size="large"
            placeholder={signUpText.confirmPlaceholder}
            autoComplete="new-password"
            aria-required
          />
        </Form.Item>
        <Form.Item name="invitation_code" label={signUpText.invitationLabel} rules={[formRule(rules.invitationCode)]}>
          <Input size="large" placeholder={signUpText.invitationPlaceholder} maxLength={limits.invitationCodeLength} autoComplete="off" />
        </Form.Item>
        {agreement.data === null ? null : (
          <div className={styles.agreement}>
            <Form.Item name="agreed" valuePropName="checked" noStyle>
              <Checkbox>{signUpText.agreePrefix}</Checkbox>
            </Form.Item>
            {agreement.data ? (
              <a
                className={styles.link}
                href={paths.agreement.getHref(agreement.data.id)}
                target="_blank"
                rel="noopener noreferrer"
                aria-label={`${agreement.data.title}${signUpText.opensInNewWindow}`}
              >
                《{agreement.data.title || signUpText.agreementFallback}》
              </a>
            ) : (
              <span>《{signUpText.agreementFallback}》</span>
            )}
          </div>
        )}
        <Button className={styles.submit} type="primary" htmlType="submit" size="large" block loading={busy(registerCall.isPending)}>
          {signUpText.submit}
        </Button>
        <p className={styles.footer}>
          {signUpText.haveAccount}
          <Link className={styles.link} to={paths.signIn.getHref()}>
            {signUpText.signIn}
          </Link>
        </p>
      </Form>
    </>
  );
}
