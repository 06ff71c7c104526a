import { limits, messages, rules } from '@portal/contract/rules';
import { Button, Form, Modal } from 'antd';
import { useState } from 'react';
import { CodeInput } from '../../../components/code-input.tsx';
import { PhoneInput } from '../../../components/phone-input.tsx';
import { useAccountInfo } from '../../../lib/account-info.ts';
import { busy } from '../../../lib/busy.ts';
import { countdownAfterRefusal } from '../../../lib/code-send-limits.ts';
import { applyFieldErrors } from '../../../lib/form-errors.ts';
import { formRule } from '../../../lib/form-rules.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { settingsText } from '../../../locales/zh-CN/settings.ts';
import { useChangePhone } from '../api/change-phone.ts';
import { useSecurityOverview } from '../api/get-security-overview.ts';
import { useSendChangeCode } from '../api/send-change-code.ts';
import { useSendCurrentAddressCode } from '../api/send-current-address-code.ts';
import { QueryState } from './query-state.tsx';
import styles from './settings-form.module.css';
import { SettingsSection } from './settings-section.tsx';

const text = settingsText.phone;

interface PhoneValues {
  old_captcha: string;
  phone: string;
  captcha: string;
}

/** Server names of the body that the form calls otherwise. */
const FIELD_NAMES = { 'phone_info.phone': 'phone', phone_info: 'phone', 'phone_info.phone_prefix': 'phone' };

/** 手机号: the mainland phone the account signs in with, changed with a code to the current phone and one to the new. */
export function PhoneSection() {
  const overview = useSecurityOverview();
  const [open, setOpen] = useState(false);
  const masked = overview.data ? `+${overview.data.phone_prefix} ${overview.data.phone}` : null;
  return (
    <SettingsSection
      id="phone"
      title={text.title}
      description={text.description}
      extra={
        <Button onClick={() => setOpen(true)} disabled={!masked} data-testid="change-phone">
          {text.change}
        </Button>
      }
    >
      <QueryState query={overview} rows={1}>
        <p className={styles.value}>{masked}</p>
      </QueryState>
      <Modal open={open} title={text.dialogTitle} footer={null} onCancel={() => setOpen(false)} destroyOnHidden width={460} centered>
        {masked ? (
          <ChangePhoneForm
            masked={masked}
            onCancel={() => setOpen(false)}
            onDone={(phone) => {
              setOpen(false);
              notifySuccess(text.done(phone));
            }}
          />
        ) : null}
      </Modal>
    </SettingsSection>
  );
}

function ChangePhoneForm({ masked, onCancel, onDone }: { masked: string; onCancel: () => void; onDone: (phone: string) => void }) {
  const [form] = Form.useForm<PhoneValues>();
  // the whole current number, to refuse the same one again before asking the server
  const account = useAccountInfo();
  const send = useSendChangeCode();
  const sendCurrent = useSendCurrentAddressCode();
  const change = useChangePhone();
  const [sentTo, setSentTo] = useState<{ old: string | null; next: string | null }>({ old: null, next: null });

  const sendCode = async (which: 'old' | 'next') => {
    const phone = which === 'next' ? ((form.getFieldValue('phone') as string | undefined) ?? '') : '';
    if (which === 'next' && rules.phone(phone) !== null) {
      notifyError(messages.phoneForCode);
      throw new Error(messages.phoneForCode);
    }
    try {
      // the current phone's code goes to the number the account has now, which the server knows
      const sent =
        which === 'old'
          ? await sendCurrent.mutateAsync({ send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_CHANGE_PHONE' })
          : await send.mutateAsync({ send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_CHANGE_PHONE', phone_info: { phone, phone_prefix: limits.phonePrefix } });
      setSentTo((before) => ({ ...before, [which]: sent.masked_target }));
      return sent.resend_after;
    } catch (error) {
      applyFieldErrors(form, error, FIELD_NAMES);
      return countdownAfterRefusal(error, () => {});
    }
  };

  const submit = async (values: PhoneValues) => {
    if (change.isPending) return;
    try {
      const answer = await change.mutateAsync({
        phone_info: { phone: values.phone, phone_prefix: limits.phonePrefix },
        old_captcha: values.old_captcha,
        captcha: values.captcha,
      });
      onDone(`+${answer.phone_prefix} ${answer.phone}`);
    } catch (error) {
      applyFieldErrors(form, error, FIELD_NAMES);
    }
  };

  return (
    <Form<PhoneValues>
      form={form}
      name="change-phone"
      layout="vertical"
      requiredMark={false}
      className={styles.form}
      initialValues={{ old_captcha: '', phone: '', captcha: '' }}
      onFinish={submit}
      noValidate
    >
      <p className={styles.intro}>{text.intro}</p>
      <p className={styles.current}>
        <span className={styles.currentLabel}>{text.currentLabel}</span>
        {masked}
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
        name="phone"
        label={text.newLabel}
        validateFirst
        rules={[
          formRule(rules.phone),
          {
            validator: async (_, value: unknown) => {
              if (account.data && value === account.data.phone) throw new Error(messages.phoneUnchanged);
            },
          },
        ]}
      >
        <PhoneInput size="large" placeholder={text.newPlaceholder} aria-required />
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
