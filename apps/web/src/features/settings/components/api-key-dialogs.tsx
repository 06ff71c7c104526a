import { API_KEY_SCOPE_LABELS, API_KEY_SCOPES, type ApiKeyScope, type ApiKeySecret, createApiKeyBody, mayHoldScope } from '@portal/contract/developer';
import { Checkbox, DatePicker, Form, Input, Modal } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { TradePasswordConfirm, useTradePasswordConfirmation } from '../../../domain/trade-password/components/trade-password-confirm.tsx';
import { useRole } from '../../../domain/team/lib/use-can.ts';
import { applyFieldErrors } from '../../../lib/form-errors.ts';
import { developerText } from '../../../locales/zh-CN/developer.ts';
import { useCreateApiKey } from '../api/api-keys.ts';
import styles from './api-keys-section.module.css';
import { SecretOnceDialog } from './secret-once-dialog.tsx';

const text = developerText.create;

interface KeyValues {
  name: string;
  scopes: ApiKeyScope[];
  ip_allowlist: string;
  expires_at: Dayjs | null;
}

/** The allow-list as typed: one range a line (or separated by commas), blank lines dropped. */
const rangesOf = (typed: string) =>
  typed
    .split(/[\n,，]/)
    .map((line) => line.trim())
    .filter((line) => line !== '');

/** 创建 API 密钥: name, the scopes the member's role may hold, an optional allow-list and expiry, with the trade password. */
export function CreateApiKeyDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (key: ApiKeySecret) => void }) {
  const [form] = Form.useForm<KeyValues>();
  const role = useRole();
  const creating = useCreateApiKey();
  const trade = useTradePasswordConfirmation({ required: true });
  const offered = API_KEY_SCOPES.filter((scope) => role !== undefined && mayHoldScope(role, scope));

  const submit = async (values: KeyValues) => {
    const body = {
      name: values.name ?? '',
      scopes: values.scopes ?? [],
      ...(rangesOf(values.ip_allowlist ?? '').length > 0 ? { ip_allowlist: rangesOf(values.ip_allowlist ?? '') } : {}),
      ...(values.expires_at ? { expires_at: values.expires_at.toISOString() } : {}),
    };
    const checked = createApiKeyBody.safeParse(body);
    if (!checked.success) {
      form.setFields(checked.error.issues.map((issue) => ({ name: String(issue.path[0]) as keyof KeyValues, errors: [issue.message] })));
      return;
    }
    const confirmation = await trade.collect();
    if (!confirmation) return;
    try {
      const made = await creating.mutateAsync({ ...body, ...confirmation });
      form.resetFields();
      onCreated(made);
    } catch (error) {
      if (!trade.refused(error)) applyFieldErrors(form, error, { 'ip_allowlist.0': 'ip_allowlist', 'ip_allowlist.1': 'ip_allowlist', 'ip_allowlist.2': 'ip_allowlist' });
    }
  };

  return (
    <Modal
      open={open}
      title={text.title}
      okText={text.submit}
      cancelText={text.cancel}
      onOk={() => form.submit()}
      onCancel={onClose}
      okButtonProps={{ loading: creating.isPending }}
      centered
      destroyOnHidden
    >
      <Form<KeyValues> form={form} layout="vertical" requiredMark={false} initialValues={{ name: '', scopes: [], ip_allowlist: '', expires_at: null }} onFinish={(values) => void submit(values)}
        // an error shown on a field goes once the field is changed
        onValuesChange={(changed: Partial<KeyValues>) => form.setFields(Object.keys(changed).map((name) => ({ name: name as keyof KeyValues, errors: [] })))}
        noValidate
      >
        <Form.Item name="name" label={text.name}>
          <Input placeholder={text.namePlaceholder} maxLength={40} autoFocus data-testid="api-key-name" />
        </Form.Item>
        <Form.Item name="scopes" label={text.scopes} extra={text.scopesHint}>
          <Checkbox.Group className={styles.scopes} data-testid="api-key-scopes">
            {offered.map((scope) => (
              <Checkbox key={scope} value={scope}>
                <span className={styles.scopeName}>{scope}</span>
                <span className={styles.scopeLabel}>{API_KEY_SCOPE_LABELS[scope]}</span>
              </Checkbox>
            ))}
          </Checkbox.Group>
        </Form.Item>
        <Form.Item name="ip_allowlist" label={text.allowlist} extra={text.allowlistHint}>
          <Input.TextArea rows={3} placeholder={text.allowlistPlaceholder} data-testid="api-key-allowlist" />
        </Form.Item>
        <Form.Item name="expires_at" label={text.expires}>
          <DatePicker showTime format="YYYY-MM-DD HH:mm" className={styles.full} disabledDate={(value) => value.isBefore(dayjs(), 'day')} data-testid="api-key-expires" />
        </Form.Item>
      </Form>
      <TradePasswordConfirm confirmation={trade} onSubmit={() => form.submit()} />
    </Modal>
  );
}

/** The secret of a key just made or rotated, shown this once with a copy button. */
export function ApiKeySecretDialog({ made, rotated, onClose }: { made: ApiKeySecret | null; rotated: boolean; onClose: () => void }) {
  const text = developerText.secret;
  return (
    <SecretOnceDialog
      secret={made?.secret ?? null}
      title={rotated ? text.rotatedTitle : text.title}
      warning={text.warning}
      doneText={text.done}
      usage={text.usage}
      secretTestId="api-key-secret"
      onClose={onClose}
    />
  );
}
