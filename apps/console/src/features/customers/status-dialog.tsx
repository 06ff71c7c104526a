import { ModalForm, ProFormText, ProFormTextArea } from '@ant-design/pro-components';
import { Alert, Form } from 'antd';
import { useRefusal } from '../../lib/use-refusal.ts';
import { customersText } from './customers-text.ts';

const t = customersText.customer;

export interface StatusValues {
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
  const [form] = Form.useForm<StatusValues>();
  const { refusal, show, clear } = useRefusal();
  return (
    <ModalForm<StatusValues>
      title={title}
      form={form}
      trigger={trigger}
      width={440}
      modalProps={{ destroyOnHidden: true, onCancel: clear }}
      onFinish={async (values) => {
        try {
          clear();
          await onSubmit(values);
          return true;
        } catch (error) {
          show(error, form);
          return false;
        }
      }}
    >
      {refusal ? <Alert type="error" showIcon title={refusal} style={{ marginBottom: 16 }} data-testid="status-refusal" /> : null}
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
      <ProFormText
        name="totp"
        label={t.totp}
        extra={t.totpHint}
        rules={[
          { required: true, message: '请输入 6 位数字验证码' },
          { pattern: /^\d{6}$/, message: '请输入 6 位数字验证码' },
        ]}
        fieldProps={{ inputMode: 'numeric', maxLength: 6, autoComplete: 'one-time-code' }}
      />
    </ModalForm>
  );
}
