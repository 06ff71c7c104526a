import type { LoginAnswer } from '@portal/contract/account';
import { limits, rules } from '@portal/contract/rules';
import Form, { useForm } from '@rc-component/form';
import { Button } from 'antd';
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import { useState } from 'react';
import { Link } from 'react-router';
import { FormField } from '../../../components/form-field.tsx';
import { PhoneInput } from '../../../components/phone-input.tsx';
import { PrebuiltStyles } from '../../../components/prebuilt-styles.tsx';
import { Tabs, tabId } from '../../../components/tabs.tsx';
import { applyFieldErrors } from '../../../lib/form-errors.ts';
import { formRule } from '../../../lib/form-rules.ts';
import { paths } from '../../../lib/paths.ts';
import { authText } from '../../../locales/zh-CN/auth.ts';
import { type LoginBody, useLogin } from '../api/login.ts';
import styles from './login-form.module.css';
// the rules of the antd components this form draws (Button with its click wave, Input, Password)
import 'virtual:antd-prebuilt.css?components=btn,wave,input';

export type LoginMethod = 'phone' | 'email';

interface LoginValues {
  phone?: string;
  email?: string;
  password: string;
}

const methods = [
  { key: 'phone', label: authText.phoneTab },
  { key: 'email', label: authText.emailTab },
] as const;

const ID = 'sign-in';
const PANEL_ID = `${ID}-panel`;

/** Server field names of the login body, as the form names them. */
const fieldNames = { 'phone_info.phone': 'phone', 'phone_info.phone_prefix': 'phone', phone_info: 'phone' };

const toBody = (method: LoginMethod, values: LoginValues): LoginBody =>
  method === 'phone'
    ? { phone_info: { phone: values.phone ?? '', phone_prefix: limits.phonePrefix }, password: values.password }
    : { email: (values.email ?? '').trim(), password: values.password };

/**
 * Sign-in with a phone or an e-mail and a password (spec §2). Only the chosen method's field is on
 * the form, so switching tabs drops the other tab's rules; the form starts over on every switch.
 */
/** Who is signing in: the phone or e-mail typed, as sent. */
const accountOf = (method: LoginMethod, values: LoginValues) => (method === 'phone' ? (values.phone ?? '') : (values.email ?? '').trim());

export function LoginForm({ onLoggedIn }: { onLoggedIn: (answer: LoginAnswer, method: LoginMethod, account: string) => void }) {
  const [form] = useForm<LoginValues>();
  const [method, setMethod] = useState<LoginMethod>('phone');
  const loginCall = useLogin();

  const switchMethod = (next: LoginMethod) => {
    form.resetFields();
    setMethod(next);
  };

  const submit = async (values: LoginValues) => {
    if (loginCall.isPending) return;
    let answer: LoginAnswer;
    try {
      answer = await loginCall.run(toBody(method, values));
    } catch (error) {
      // the message was shown by the HTTP module; field errors also go next to their fields
      applyFieldErrors(form, error, fieldNames);
      return;
    }
    onLoggedIn(answer, method, accountOf(method, values));
  };

  return (
    <PrebuiltStyles>
      <Tabs items={methods} activeKey={method} onChange={switchMethod} label={authText.signInTabs} idPrefix={ID} panelId={PANEL_ID} />
      <div id={PANEL_ID} role="tabpanel" aria-labelledby={tabId(ID, method)}>
        <Form<LoginValues> form={form} preserve={false} onFinish={submit} autoComplete="on" noValidate>
          {method === 'phone' ? (
            <FormField key="phone" name="phone" label={authText.phoneLabel} rules={[formRule(rules.phone)]}>
              <PhoneInput size="large" placeholder={authText.phonePlaceholder} />
            </FormField>
          ) : (
            <FormField key="email" name="email" label={authText.emailLabel} rules={[formRule(rules.email)]}>
              <Input
                size="large"
                placeholder={authText.emailPlaceholder}
                type="email"
                inputMode="email"
                autoComplete="username"
              />
            </FormField>
          )}
          <FormField name="password" label={authText.passwordLabel} rules={[formRule(rules.password)]}>
            <Password size="large" placeholder={authText.passwordPlaceholder} autoComplete="current-password" />
          </FormField>
          <div className={styles.row}>
            <Link className={styles.link} to={paths.forgetPassword.getHref()}>
              {authText.forgetPassword}
            </Link>
          </div>
          <Button className={styles.submit} type="primary" htmlType="submit" size="large" block loading={loginCall.isPending}>
            {authText.submit}
          </Button>
          <p className={styles.signUp}>
            {authText.noAccount}
            <Link className={styles.link} to={paths.signUp.getHref()}>
              {authText.signUp}
            </Link>
          </p>
        </Form>
      </div>
    </PrebuiltStyles>
  );
}
