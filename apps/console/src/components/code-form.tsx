import { ModalForm } from '@ant-design/pro-components';
import { Alert, Form } from 'antd';
import type { ReactElement, ReactNode } from 'react';
import { useRefusal } from '../lib/use-refusal.ts';

/**
 * A dialog form whose submit makes one console call: a refusal lands on the fields it names or above the
 * form, and the dialog closes only when the call succeeded. It opens from its `trigger`, or is opened by its
 * owner through `open` and `onOpenChange` (a dialog whose code is loaded when first asked for).
 */
export function CodeForm<T extends Record<string, unknown>>({
  title,
  trigger,
  open,
  onOpenChange,
  width = 440,
  testId,
  afterClose,
  initialValues,
  onSubmit,
  children,
}: {
  title: string;
  trigger?: ReactElement;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  width?: number;
  testId?: string;
  /** after the dialog closed, e.g. a new Idempotency-Key for the next request */
  afterClose?: () => void;
  initialValues?: Partial<T>;
  onSubmit: (values: T) => Promise<void>;
  children: ReactNode;
}) {
  const [form] = Form.useForm<T>();
  const { refusal, show, clear } = useRefusal();
  return (
    <ModalForm<T>
      title={title}
      form={form}
      {...(trigger ? { trigger } : { open, onOpenChange })}
      width={width}
      initialValues={initialValues}
      modalProps={{ destroyOnHidden: true, onCancel: clear, ...(afterClose ? { afterClose } : {}) }}
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
      {refusal ? <Alert type="error" showIcon title={refusal} style={{ marginBottom: 16 }} data-testid={testId ? `${testId}-refusal` : undefined} /> : null}
      {children}
    </ModalForm>
  );
}
