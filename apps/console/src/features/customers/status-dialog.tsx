import { ProFormText, ProFormTextArea } from '@ant-design/pro-components';
import { CodeForm } from '../../components/code-form.tsx';
import { TotpField } from '../../components/totp-field.tsx';
import { customersText } from './customers-text.ts';

const t = customersText.customer;

export interface StatusValues extends Record<string, unknown> {
  reason?: string;
  totp: string;
}

/**
 * A freeze or an unfreeze of a card or a wallet: the reason the customer reads (required to freeze) and
 * the authenticator's code given again. The refusal is shown on its field or above the form.
 */
export function StatusDialog({
  title,
  freezing,
  trigger,
  onSubmit,
}: {
  title: string;
  freezing: boolean;
  trigger: React.ReactElement;
  onSubmit: (values: StatusValues) => Promise<void>;
}) {
  return (
    <CodeForm<StatusValues> title={title} trigger={trigger} onSubmit={onSubmit} testId="status">
      {freezing ? (
        <ProFormTextArea
          name="reason"
          label={t.reason}
          placeholder={t.reasonPlaceholder}
          rules={[{ required: true, whitespace: true, message: '请填写原因（客户可见）' }, { max: 200, message: '原因最多200个字符' }]}
          fieldProps={{ maxLength: 200, showCount: true, rows: 3 }}
        />
      ) : (
        <ProFormText name="reason" label={t.note} rules={[{ max: 200, message: '原因最多200个字符' }]} />
      )}
      <TotpField label={t.totp} hint={t.totpHint} />
    </CodeForm>
  );
}
