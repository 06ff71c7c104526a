import type { ConsoleLoginAnswer } from '@portal/contract/console';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { callConsole } from '../../lib/http.ts';
import { useRefusal } from '../../lib/use-refusal.ts';
import { paths } from '../../lib/paths.ts';
import { merchantQuery } from '../../lib/queries.ts';
import { consoleToken, setConsoleToken } from '../../lib/session.ts';
import { text } from '../../locales/zh-CN.ts';
import { EnrolStep, RecoveryCodes } from './enrol-step.tsx';
import styles from './sign-in.module.css';

type Step =
  | { kind: 'password' }
  | { kind: 'enrol'; token: string; secret: string; otpauthUrl: string }
  | { kind: 'code'; token: string }
  | { kind: 'recovery'; token: string; codes: string[] };

/** Sign-in: the password, then the authenticator's enrolment (QR code, recovery codes) or its code. */
export function SignInPage() {
  const merchant = useQuery(merchantQuery);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [step, setStep] = useState<Step>({ kind: 'password' });
  if (consoleToken() && step.kind === 'password') return <Navigate to={paths.overview.getHref()} replace />;

  const enter = (token: string) => {
    queryClient.removeQueries();
    setConsoleToken(token);
    navigate(paths.overview.getHref(), { replace: true });
  };
  const afterLogin = (answer: ConsoleLoginAnswer) => {
    if (!answer.totp_required) return enter(answer.token);
    if (answer.totp_enrolment) return setStep({ kind: 'enrol', token: answer.token, secret: answer.totp_enrolment.secret, otpauthUrl: answer.totp_enrolment.otpauth_url });
    setStep({ kind: 'code', token: answer.token });
  };
  const restart = () => setStep({ kind: 'password' });

  return (
    <main className={styles.page}>
      <Card className={styles.card}>
        <div className={styles.brand}>
          {merchant.data?.light_logo ? <img src={merchant.data.light_logo} alt="" className={styles.logo} /> : null}
          <Typography.Title level={3} style={{ margin: '0 0 4px' }}>
            {merchant.data ? `${merchant.data.name} · ${text.signIn.title}` : text.signIn.title}
          </Typography.Title>
          <Typography.Text type="secondary">{text.signIn.subtitle}</Typography.Text>
        </div>
        {step.kind === 'password' ? <PasswordStep onDone={afterLogin} /> : null}
        {step.kind === 'enrol' ? (
          <EnrolStep secret={step.secret} otpauthUrl={step.otpauthUrl} token={step.token} onEnrolled={(token, codes) => setStep({ kind: 'recovery', token, codes })} onBack={restart} />
        ) : null}
        {step.kind === 'code' ? <CodeStep token={step.token} onDone={enter} onBack={restart} /> : null}
        {step.kind === 'recovery' ? <RecoveryCodes codes={step.codes} onDone={() => enter(step.token)} /> : null}
      </Card>
    </main>
  );
}

function PasswordStep({ onDone }: { onDone: (answer: ConsoleLoginAnswer) => void }) {
  const [form] = Form.useForm<{ email: string; password: string }>();
  const [busy, setBusy] = useState(false);
  const { refusal, show, clear } = useRefusal();
  const submit = async (values: { email: string; password: string }) => {
    setBusy(true);
    clear();
    try {
      onDone(await callConsole('login', { body: values }));
    } catch (error) {
      show(error, form);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Form form={form} layout="vertical" onFinish={submit} requiredMark={false} aria-label={text.signIn.title}>
      {refusal ? <Alert type="error" showIcon title={refusal} className={styles.alert} /> : null}
      <Form.Item name="email" label={text.signIn.email} rules={[{ required: true, message: '请输入邮箱' }, { type: 'email', message: '请输入正确的邮箱' }]}>
        <Input autoComplete="username" placeholder={text.signIn.emailPlaceholder} size="large" />
      </Form.Item>
      <Form.Item name="password" label={text.signIn.password} rules={[{ required: true, message: '请输入密码' }]}>
        <Input.Password autoComplete="current-password" placeholder={text.signIn.passwordPlaceholder} size="large" />
      </Form.Item>
      <Button type="primary" htmlType="submit" block size="large" loading={busy}>
        {text.signIn.submit}
      </Button>
    </Form>
  );
}

function CodeStep({ token, onDone, onBack }: { token: string; onDone: (token: string) => void; onBack: () => void }) {
  const [form] = Form.useForm<{ code: string }>();
  const [busy, setBusy] = useState(false);
  const { refusal, show, clear } = useRefusal();
  const submit = async ({ code }: { code: string }) => {
    setBusy(true);
    clear();
    try {
      onDone((await callConsole('totp', { body: { code: code.trim() }, token })).token);
    } catch (error) {
      show(error, form);
      form.setFieldValue('code', '');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Form form={form} layout="vertical" onFinish={submit} requiredMark={false}>
      <Typography.Title level={5}>{text.signIn.codeTitle}</Typography.Title>
      <Typography.Paragraph type="secondary">{text.signIn.codeHint}</Typography.Paragraph>
      {refusal ? <Alert type="error" showIcon title={refusal} className={styles.alert} /> : null}
      <Form.Item name="code" label={text.signIn.code} rules={[{ required: true, message: '请输入验证码' }]}>
        <Input autoComplete="one-time-code" inputMode="text" placeholder={text.signIn.codePlaceholder} size="large" autoFocus maxLength={9} />
      </Form.Item>
      <Button type="primary" htmlType="submit" block size="large" loading={busy}>
        {text.signIn.verify}
      </Button>
      <Button type="link" block onClick={onBack} className={styles.back}>
        {text.signIn.back}
      </Button>
    </Form>
  );
}
