import { Button, Form, type FormInstance } from 'antd';
import type { ReactNode } from 'react';
import { busy } from '../../../lib/busy.ts';
import { settingsText } from '../../../locales/zh-CN/settings.ts';
import styles from './settings-form.module.css';

interface SettingsFormProps<Values> {
  form: FormInstance<Values>;
  /** the form's name: its fields' ids, and so what their labels point at, begin with it */
  name: string;
  initialValues: Values;
  onFinish: (values: Values) => void;
  onCancel: () => void;
  /** the submit button's text */
  submit: string;
  /** while the request is out: the submit button shows it */
  pending: boolean;
  children: ReactNode;
}

/**
 * The form of a /settings dialog: labels above the fields, the contract's messages rather than the
 * browser's, and 取消 and the submit button at its end.
 */
export function SettingsForm<Values extends object>({ form, name, initialValues, onFinish, onCancel, submit, pending, children }: SettingsFormProps<Values>) {
  return (
    <Form<Values>
      form={form}
      name={name}
      layout="vertical"
      requiredMark={false}
      className={styles.form}
      initialValues={initialValues}
      onFinish={onFinish}
      noValidate
    >
      {children}
      <div className={styles.actions}>
        <Button onClick={onCancel}>{settingsText.cancel}</Button>
        <Button type="primary" htmlType="submit" loading={busy(pending)}>
          {submit}
        </Button>
      </div>
    </Form>
  );
}
