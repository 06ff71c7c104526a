import { KeyOutlined } from '@ant-design/icons';
import { ProFormText } from '@ant-design/pro-components';
import { operatorPasswordMessage, operatorPasswordRule } from '@portal/contract/console';
import { App, Button } from 'antd';
import { CodeForm } from '../../components/code-form.tsx';
import { TotpField } from '../../components/totp-field.tsx';
import { callConsole } from '../../lib/http.ts';
import { text } from '../../locales/zh-CN.ts';
import styles from './console-layout.module.css';

const t = text.password;

type PasswordValues = { current_password: string; new_password: string; confirm: string; totp: string };

/** The operator's own password: the current one, the new one twice, and the authenticator's code. */
export function PasswordDialog() {
  const { message } = App.useApp();
  return (
    <CodeForm<PasswordValues>
      title={t.title}
      testId="password"
      trigger={
        <Button type="text" icon={<KeyOutlined />} aria-label={t.open} data-testid="change-password">
          <span className={styles.logoutText}>{t.open}</span>
        </Button>
      }
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
