import { ProFormText } from '@ant-design/pro-components';
import { moneyText } from '../../locales/money.zh-CN.ts';

/** The operator's authenticator code, asked again on every money action. */
export function CodeField() {
  return (
    <ProFormText
      name="totp"
      label={moneyText.code.label}
      extra={moneyText.code.hint}
      fieldProps={{ inputMode: 'numeric', autoComplete: 'one-time-code', maxLength: 9, placeholder: moneyText.code.placeholder }}
      rules={[{ required: true, message: '请输入身份验证器中的 6 位验证码' }]}
    />
  );
}

/** A fresh Idempotency-Key for one money action (a retried submit of the same form sends it again). */
export const newKey = () => `console-${crypto.randomUUID()}`;

/** "{name}" placeholders filled. */
export const fill = (template: string, values: Record<string, string | number>) => template.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? ''));
