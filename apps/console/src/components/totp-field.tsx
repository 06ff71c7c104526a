import { ProFormText } from '@ant-design/pro-components';

/** The operator's authenticator code, asked again for an action that changes money, customers or operators. */
export function TotpField({ label = '身份验证器验证码', hint = '打开身份验证器 App，输入当前显示的 6 位数字' }: { label?: string; hint?: string }) {
  return (
    <ProFormText
      name="totp"
      label={label}
      extra={hint}
      rules={[
        { required: true, message: '请输入 6 位数字验证码' },
        { pattern: /^\d{6}$/, message: '请输入 6 位数字验证码' },
      ]}
      fieldProps={{ inputMode: 'numeric', maxLength: 6, autoComplete: 'one-time-code' }}
    />
  );
}
