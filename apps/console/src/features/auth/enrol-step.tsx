import { Alert, App, Button, Form, Input, Typography } from 'antd';
import { toDataURL } from 'qrcode';
import { useEffect, useState } from 'react';
import { callConsole } from '../../lib/http.ts';
import { text } from '../../locales/zh-CN.ts';
import { useRefusal } from '../../lib/use-refusal.ts';
import styles from './sign-in.module.css';

/** The first sign-in: the QR code of the new secret, and the first code of the authenticator it went into. */
export function EnrolStep(props: { secret: string; otpauthUrl: string; token: string; onEnrolled: (token: string, codes: string[]) => void; onBack: () => void }) {
  const { secret, otpauthUrl, token, onEnrolled, onBack } = props;
  const [qr, setQr] = useState<string | null>(null);
  const [form] = Form.useForm<{ code: string }>();
  const [busy, setBusy] = useState(false);
  const { refusal, show, clear } = useRefusal();
  useEffect(() => {
    let current = true;
    toDataURL(otpauthUrl, { margin: 1, width: 200, errorCorrectionLevel: 'M' }).then((url) => current && setQr(url));
    return () => {
      current = false;
    };
  }, [otpauthUrl]);
  const submit = async ({ code }: { code: string }) => {
    setBusy(true);
    clear();
    try {
      const answer = await callConsole('totp', { body: { code: code.trim() }, token });
      onEnrolled(answer.token, answer.recovery_codes ?? []);
    } catch (error) {
      show(error, form);
      form.setFieldValue('code', '');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Form form={form} layout="vertical" onFinish={submit} requiredMark={false}>
      <Typography.Title level={5}>{text.signIn.enrolTitle}</Typography.Title>
      <Typography.Paragraph type="secondary">{text.signIn.enrolSteps}</Typography.Paragraph>
      <div className={styles.qr}>{qr ? <img src={qr} alt={text.signIn.qrAlt} width={200} height={200} /> : <div className={styles.qrWaiting} role="status">{text.common.loading}</div>}</div>
      <Typography.Paragraph type="secondary" className={styles.manual}>
        {text.signIn.enrolManual}
        <Typography.Text code copyable data-testid="totp-secret">
          {secret}
        </Typography.Text>
      </Typography.Paragraph>
      {refusal ? <Alert type="error" showIcon title={refusal} className={styles.alert} /> : null}
      <Form.Item name="code" label={text.signIn.code} rules={[{ required: true, message: '请输入验证码' }, { pattern: /^\d{6}$/, message: '请输入 6 位数字验证码' }]}>
        <Input autoComplete="one-time-code" inputMode="numeric" placeholder="000000" size="large" maxLength={6} />
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

/** The recovery codes, shown this once. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { message } = App.useApp();
  const copy = async () => {
    await navigator.clipboard?.writeText(codes.join('\n')).catch(() => {});
    message.success(text.signIn.recoveryCopied);
  };
  return (
    <div>
      <Typography.Title level={5}>{text.signIn.recoveryTitle}</Typography.Title>
      <Alert type="warning" showIcon title={text.signIn.recoveryHint} className={styles.alert} />
      <ol className={styles.codes} aria-label={text.signIn.recoveryTitle}>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <Input.TextArea readOnly value={codes.join('\n')} className={styles.hidden} aria-hidden tabIndex={-1} />
      <Button block onClick={copy} className={styles.copy}>
        {text.signIn.recoveryCopy}
      </Button>
      <Button type="primary" block size="large" onClick={onDone}>
        {text.signIn.recoveryDone}
      </Button>
    </div>
  );
}
