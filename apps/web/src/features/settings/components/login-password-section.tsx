import { ErrorCode } from '@portal/contract/errors';
import { messages, rules } from '@portal/contract/rules';
import { Alert, Button, Form, Modal } from 'antd';
import Password from 'antd/es/input/Password';
import { useId, useState } from 'react';
import { PasswordChecklist } from '../../../components/password-checklist.tsx';
import { confirmRule } from '../../../lib/confirm-rule.ts';
import { applyFieldErrors } from '../../../lib/form-errors.ts';
import { formRule } from '../../../lib/form-rules.ts';
import { isApiError, markShownInPlace } from '../../../lib/http.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { settingsText } from '../../../locales/zh-CN/settings.ts';
import { useChangePassword } from '../api/change-password.ts';
import { SettingsForm } from './settings-form.tsx';
import { SettingsSection } from './settings-section.tsx';

const text = settingsText.password;

interface PasswordValues {
  old_password: string;
  password: string;
  confirm: string;
}

/**
 * 登录密码: changed with the old password and the new one twice (spec §5's rule, the sign-up's live
 * checklist). Every other session of the account ends with it; the section says how many did.
 */
export function LoginPasswordSection() {
  const [open, setOpen] = useState(false);
  const [ended, setEnded] = useState<number | null>(null);
  return (
    <SettingsSection
      id="login-password"
      title={text.title}
      description={text.description}
      extra={
        <Button onClick={() => setOpen(true)} data-testid="change-password">
          {text.change}
        </Button>
      }
    >
      {ended !== null ? (
        <Alert
          type="success"
          showIcon
          closable={{ 'aria-label': settingsText.cancel }}
          onClose={() => setEnded(null)}
          message={text.done(ended)}
          description={text.doneDetail(ended)}
          data-testid="password-changed"
        />
      ) : null}
      <Modal open={open} title={text.dialogTitle} footer={null} onCancel={() => setOpen(false)} destroyOnHidden width={440} centered>
        <ChangePasswordForm
          onCancel={() => setOpen(false)}
          onDone={(count) => {
            setOpen(false);
            setEnded(count);
            notifySuccess(text.done(count));
          }}
        />
      </Modal>
    </SettingsSection>
  );
}

/** The dialog's form; its rules are the contract's, so the browser says what the server would. */
export function ChangePasswordForm({ onCancel, onDone }: { onCancel: () => void; onDone: (endedSessions: number) => void }) {
  const [form] = Form.useForm<PasswordValues>();
  const password = Form.useWatch('password', form) ?? '';
  const checklistId = useId();
  const change = useChangePassword();

  const submit = async (values: PasswordValues) => {
    if (change.isPending) return;
    try {
      const answer = await change.mutateAsync({ old_password: values.old_password, password: values.password });
      onDone(answer.ended_sessions);
    } catch (error) {
      if (applyFieldErrors(form, error)) return;
      // a lock says why the old password is not checked: next to it
      if (isApiError(error) && error.code === ErrorCode.LOGIN_LOCKED) {
        form.setFields([{ name: 'old_password', errors: [error.message] }]);
        markShownInPlace(error);
      }
    }
  };

  return (
    <SettingsForm<PasswordValues>
      form={form}
      name="change-password"
      initialValues={{ old_password: '', password: '', confirm: '' }}
      onFinish={submit}
      onCancel={onCancel}
      submit={text.submit}
      pending={change.isPending}
    >
      <Form.Item name="old_password" label={text.oldLabel} rules={[{ required: true, message: messages.required }]}>
        <Password size="large" placeholder={text.oldPlaceholder} autoComplete="current-password" aria-required />
      </Form.Item>
      <Form.Item
        name="password"
        label={text.newLabel}
        dependencies={['old_password']}
        validateFirst
        rules={[
          formRule(rules.password),
          ({ getFieldValue }) => ({
            validator: async (_, value: unknown) => {
              if (value !== '' && value === getFieldValue('old_password')) throw new Error(messages.passwordUnchanged);
            },
          }),
        ]}
      >
        <Password size="large" placeholder={text.newPlaceholder} autoComplete="new-password" aria-required aria-describedby={checklistId} />
      </Form.Item>
      <PasswordChecklist id={checklistId} password={password} />
      <Form.Item name="confirm" label={text.confirmLabel} dependencies={['password']} rules={[confirmRule()]} validateFirst>
        <Password size="large" placeholder={text.confirmPlaceholder} autoComplete="new-password" aria-required />
      </Form.Item>
    </SettingsForm>
  );
}
