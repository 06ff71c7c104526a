import {
  createWebhookBody,
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_OPT_IN_EVENTS,
  type WebhookEventType,
  type WebhookItem,
  type WebhookSecret,
} from '@portal/contract/webhooks';
import { Checkbox, Form, Input, Modal } from 'antd';
import { applyFieldErrors } from '../../../lib/form-errors.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { webhooksText } from '../../../locales/zh-CN/webhooks.ts';
import { useCreateWebhook, useUpdateWebhook } from '../api/webhooks.ts';
import { SecretOnceDialog } from './secret-once-dialog.tsx';
import styles from './webhooks-section.module.css';

const text = webhooksText.form;

interface EndpointValues {
  url: string;
  events: WebhookEventType[];
  description: string;
}

/**
 * 添加 / 编辑 Webhook 端点: the address, the events (a 3-D Secure code only when ticked by name) and a
 * note. `editing` null adds one; the contract's rules check the form before it is sent, the server's
 * refusals land on their fields.
 */
export function WebhookEndpointDialog({
  open,
  editing,
  onClose,
  onCreated,
}: {
  open: boolean;
  editing: WebhookItem | null;
  onClose: () => void;
  onCreated: (made: WebhookSecret) => void;
}) {
  const [form] = Form.useForm<EndpointValues>();
  const creating = useCreateWebhook();
  const updating = useUpdateWebhook();

  const submit = async (values: EndpointValues) => {
    const body = { url: (values.url ?? '').trim(), events: values.events ?? [], description: (values.description ?? '').trim() };
    const checked = createWebhookBody.safeParse(body);
    if (!checked.success) {
      form.setFields(checked.error.issues.map((issue) => ({ name: String(issue.path[0]) as keyof EndpointValues, errors: [issue.message] })));
      return;
    }
    try {
      if (editing) {
        await updating.mutateAsync({ id: editing.id, body });
        notifySuccess(text.saved);
        onClose();
      } else {
        const made = await creating.mutateAsync(body);
        form.resetFields();
        onCreated(made);
      }
    } catch (error) {
      applyFieldErrors(form, error, {});
    }
  };

  return (
    <Modal
      open={open}
      title={editing ? text.editTitle : text.createTitle}
      okText={editing ? text.submitEdit : text.submitCreate}
      cancelText={text.cancel}
      onOk={() => form.submit()}
      onCancel={onClose}
      okButtonProps={{ loading: creating.isPending || updating.isPending, ...({ 'data-testid': 'webhook-submit' } as object) }}
      width={640}
      centered
      destroyOnHidden
    >
      <Form<EndpointValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={editing ? { url: editing.url, events: editing.events, description: editing.description } : { url: '', events: [], description: '' }}
        onFinish={(values) => void submit(values)}
        // an error shown on a field goes once the field is changed
        onValuesChange={(changed: Partial<EndpointValues>) => form.setFields(Object.keys(changed).map((name) => ({ name: name as keyof EndpointValues, errors: [] })))}
        noValidate
      >
        <Form.Item name="url" label={text.url} extra={text.urlHint}>
          <Input placeholder={text.urlPlaceholder} autoFocus inputMode="url" data-testid="webhook-url" />
        </Form.Item>
        <Form.Item name="events" label={text.events}>
          <Checkbox.Group className={styles.events} data-testid="webhook-events">
            {WEBHOOK_EVENT_TYPES.map((type) => (
              <Checkbox key={type} value={type} data-testid={`webhook-event-${type}`}>
                <span className={styles.eventName}>
                  {type}
                  {WEBHOOK_OPT_IN_EVENTS.includes(type) ? <span className={styles.optIn}>{text.optIn}</span> : null}
                </span>
                <span className={styles.eventLabel}>{WEBHOOK_EVENT_LABELS[type]}</span>
              </Checkbox>
            ))}
          </Checkbox.Group>
        </Form.Item>
        <Form.Item name="description" label={text.description}>
          <Input placeholder={text.descriptionPlaceholder} maxLength={200} data-testid="webhook-description" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The signing secret of an endpoint just added or rotated, shown this once with a copy button. */
export function WebhookSecretDialog({ made, rotated, onClose }: { made: WebhookSecret | null; rotated: boolean; onClose: () => void }) {
  const secretText = webhooksText.secret;
  return (
    <SecretOnceDialog
      secret={made?.secret ?? null}
      title={rotated ? secretText.rotatedTitle : secretText.title}
      warning={secretText.warning}
      doneText={secretText.done}
      secretTestId="webhook-secret"
      doneTestId="webhook-secret-done"
      onClose={onClose}
    />
  );
}
