import { Field } from '@rc-component/form';
import type { Rule } from '@rc-component/form/es/interface';
import { cloneElement, type ReactElement, useId } from 'react';
import styles from './form-field.module.css';

interface FormFieldProps {
  name: string;
  label: string;
  rules?: Rule[];
  /** The control: an antd input that takes value, onChange, id and status. */
  children: ReactElement<Record<string, unknown>>;
}

/**
 * A labelled form field with its first error below it, on antd's own form engine
 * (@rc-component/form, the store behind antd Form, so form.setFields works the same). Screens whose
 * first load has a size budget use it instead of antd Form.Item, which brings the tooltip and grid
 * machinery along; everywhere else, use antd Form.
 */
export function FormField({ name, label, rules, children }: FormFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <Field name={name} rules={rules} validateFirst>
      {(control, meta) => {
        const error = meta.errors[0];
        return (
          <div className={styles.item}>
            <label className={styles.label} htmlFor={id}>
              {label}
            </label>
            {cloneElement(children, {
              ...control,
              id,
              status: error ? 'error' : undefined,
              'aria-invalid': error ? true : undefined,
              'aria-required': true,
              'aria-describedby': error ? errorId : undefined,
            })}
            <div id={errorId} className={styles.error} role={error ? 'alert' : undefined}>
              {error}
            </div>
          </div>
        );
      }}
    </Field>
  );
}
