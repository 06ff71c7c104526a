import { limits, messages, rules } from '@portal/contract/rules';
import { Button, Form, Modal } from 'antd';
import Input from 'antd/es/input/Input';
import { useState } from 'react';
import { CodeInput } from '../../../components/code-input.tsx';
import { busy } from '../../../lib/busy.ts';
import { countdownAfterRefusal } from '../../../lib/code-send-limits.ts';
import { applyFieldErrors } from '../../../lib/form-errors.ts';
import { formRule } from '../../../lib/form-rules.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { settingsText } from '../../../locales/zh-CN/settings.ts';
import { useChangeEmail } from '../api/change-email.ts';
import { useSecurityOverview } from '../api/get-security-overview.ts';
import { useSendChangeCode } from '../api/send-change-code.ts';
import { useSendCurrentAddressCode } from '../api/send-current-address-code.ts';
import { QueryState } from './query-state.tsx';
import styles from './settings-form.module.css';
import { SettingsSection } from './settings-section.tsx';

const text = settingsText.email;

interface EmailValues {
  old_captcha: string;
  email: string;
  captcha: string;
}

/** 邮箱: the bound e-mail, changed with a code to the current address and one to the new address. */
export function EmailSection() {
  const overview = useSecurityOverview();
  const [open, setOpen] = useState(false);
  const current = overview.data?.email ?? null;
  return (
    <SettingsSection
      id="email"
      title={text.title}
      description={text.description}
      extra={
        <Button onClick={() => setOpen(true)} disabled={!current} data-testid="change-email">
          {text.change}
        </Button>
      }
    >
      <QueryState query={overview} rows={1}>
        <p className={styles.value} data-testid="current-email">
          {current ?? settingsText.none}
        </p>
      </QueryState>
      <Modal open={open} title={text.dialogTitle} footer={null} onCancel={() => setOpen(false)} destroyOnHidden width={460} centered>
        {current ? (
          <ChangeEmailForm
            current={current}
            onCancel={() => setOpen(false)}
            onDone={(email) => {
              setOpen(false);
              notifySuccess(text.done(email));
            }}
          />
        ) : null}
      </Modal>
    </SettingsSection>
  );
}

function ChangeEmailForm({ current, onCancel, onDone }: { current: string; onCancel: () => void; onDone: (email: string) => void }) {
  const [form] = Form.useForm<EmailValues>();
  const send = useSendChangeCode();
  const sendCurrent = useSendCurrentAddressCode();
  const change = useChangeEmail();
  const [sentTo, setSentTo] = useState<{ old: string | null; next: string | null }>({ old: null, next: null });

  const sendCode = async (which: 'old' | 'next') => {
    const email = which === 'next' ? ((form.getFieldValue('email') as string | undefined) ?? '').trim() : '';
    const problem = which === 'next' ? rules.email(email) : null;
    if (problem) {
      if (email === '') notifyError(messages.emailForCode);
      else form.setFields([{ name: 'email', errors: [problem] }]);
      throw new Error(problem);
    }
    try {
      // the current address's code goes to the e-mail the account has now, which the server knows
      const sent =
        which === 'old'
          ? await sendCurrent.mutateAsync({ send_type: 'SEND_TYPE_EMAIL', mark_type: 'MARK_TYPE_CHANGE_EMAIL' })
          : await send.mutateAsync({ send_type: 'SEND_TYPE_EMAIL', mark_type: 'MARK_TYPE_CHANGE_EMAIL', email });
      setSentTo((before) => ({ ...before, [which]: sent.masked_target }));
      return sent.resend_after;
    } catch (error) {
      applyFieldErrors(form, error);
      return countdownAfterRefusal(error, () => {});
    }
  };

  const submit = async (values: EmailValues) => {
    if (change.isPending) return;
    try {
      const answer = await change.mutateAsync({ email: values.email.trim(), old_captcha: values.old_captcha, captcha: values.captcha });
      onDone(answer.email);
    } catch (error) {
      applyFieldErrors(form, error);
    }
  };

  return (
    <Form<EmailValues>
      form={form}
      name="change-email"
      layout="vertical"
      requiredMark={false}
      className={styles.form}
      initialValues={{ old_captcha: '', email: '', captcha: '' }}
      onFinish={submit}
      noValidate
    >
      <p className={styles.intro}>{text.intro}</p>
      <p className={styles.current}>
        <span className={styles.currentLabel}>{text.currentLabel}</span>
        {current}
      </p>
      <Form.Item name="old_captcha" label={text.oldCodeLabel} rules={[formRule(rules.code)]} validateFirst>
        <CodeInput size="large" placeholder={text.codePlaceholder} onSend={() => sendCode('old')} aria-required />
      </Form.Item>
      {sentTo.old ? (
        <p className={styles.sentTo} aria-live="polite">
          {text.sentTo(sentTo.old)}
        </p>
      ) : null}
      <Form.Item
        name="email"
        label={text.newLabel}
        validateFirst
        rules={[
          formRule(rules.email),
          {
            validator: async (_, value: unknown) => {
              if (typeof value === 'string' && value.trim().toLowerCase() === current.toLowerCase()) throw new Error(messages.emailUnchanged);
            },
          },
        ]}
      >
        <Input size="large" placeholder={text.newPlaceholder} maxLength={limits.emailMax} autoComplete="email" inputMode="email" aria-required />
      </Form.Item>
      <Form.Item name="captcha" label={text.newCodeLabel} rules={[formRule(rules.code)]} validateFirst>
        <CodeInput size="large" placeholder={text.codePlaceholder} onSend={() => sendCode('next')} aria-required />
      </Form.Item>
      {sentTo.next ? (
        <p className={styles.sentTo} aria-live="polite">
          {text.sentTo(sentTo.next)}
        </p>
      ) : null}
      <div className={styles.actions}>
        <Button onClick={onCancel}>{settingsText.cancel}</Button>
        <Button type="primary" htmlType="submit" loading={busy(change.isPending)}>
          {text.submit}
        </Button>
      </div>
    </Form>
  );
}
