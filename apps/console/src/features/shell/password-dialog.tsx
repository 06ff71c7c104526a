import { ProFormText } from '@ant-design/pro-components';
import { operatorPasswordMessage, operatorPasswordRule } from '@portal/contract/console';
import { App } from 'antd';
import { CodeForm } from '../../components/code-form.tsx';
import { TotpField } from '../../components/totp-field.tsx';
import { callConsole } from '../../lib/http.ts';
import { text } from '../../locales/zh-CN.ts';

const t = text.password;

type PasswordValues = { current_password: string; new_password: string; confirm: string; totp: string };

/**
 * The operator's own password: the current one, the new one twice, and the authenticator's code. Loaded
 * when the operator first opens it (the layout's 修改密码 button), so the console's first load stays small.
 */
export default function PasswordDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { message } = App.useApp();
  return (
    <CodeForm<PasswordValues>
      title={t.title}
      testId="password"
      open={open}
      onOpenChange={onOpenChange}
      onSubmit={async ({ current_password, new_password, totp }) => {
        await callConsole('changePassword', { body: { current_password, new_password, totp } });
        message.success(t.changed);
      }}
    >
      <ProFormText.Password name="current_password" label={t.current} rules={[{ required: true, message: '请输入当前密码' }]} fieldProps={{ autoComplete: 'current-password' }} />
      <ProFormText.Password
        name="new_password"
        label={t.next}
        extra={t.nextHint}
        rules={[
          { required: true, message: operatorPasswordMessage },
          { min: operatorPasswordRule.min, max: operatorPasswordRule.max, message: operatorPasswordMessage },
          { pattern: /^(?=.*[A-Za-z])(?=.*\d)\S+$/, message: operatorPasswordMessage },
        ]}
        fieldProps={{ autoComplete: 'new-password' }}
      />
      <ProFormText.Password
        name="confirm"
        label={t.confirm}
        dependencies={['new_password']}
        rules={[
          { required: true, message: t.mismatch },
          ({ getFieldValue }) => ({
            validator: (_, value) => (value === getFieldValue('new_password') ? Promise.resolve() : Promise.reject(new Error(t.mismatch))),
          }),
        ]}
        fieldProps={{ autoComplete: 'new-password' }}
      />
      <TotpField />
    </CodeForm>
  );
}
