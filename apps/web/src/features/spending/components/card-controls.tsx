import type { CardItem } from '@portal/contract/cards';
import { type CardControls as Controls, cardControlsBody } from '@portal/contract/card-spending';
import { WarningFilled } from '@ant-design/icons';
import { Button, Form, Input, Progress, Skeleton } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { applyFieldErrors } from '../../../lib/form-errors.ts';
import { formatAmount } from '../../../lib/money-format.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { cardCommonText } from '../../../locales/zh-CN/card-common.ts';
import { cardSpendingText } from '../../../locales/zh-CN/card-spending.ts';
import { useCardControls } from '../api/get-card-controls.ts';
import { useUpdateCardControls } from '../api/update-card-controls.ts';
import {
  type ControlsFormValues,
  controlsBodyOf,
  formValuesOf,
  LIMIT_FIELDS,
  type LimitField,
  limitProblem,
  spentPercent,
} from '../lib/controls-form.ts';
import styles from './card-controls.module.css';
import { useCan } from '../../../domain/team/lib/use-can.ts';
import { ControlListFields } from '../../../domain/cards/components/control-lists.tsx';

const text = cardSpendingText.controls;

/** A request to bring the controls into view, at one field (a decline's fix); `seq` tells two alike apart. */
export interface ControlsFocus {
  field: keyof ControlsFormValues | null;
  seq: number;
}

const limitLabels: Record<LimitField, string> = { single_limit: text.single, daily_limit: text.daily, monthly_limit: text.monthly };

/** The server names a list's entry by its index (allowed_countries.3): the error goes on the list. */
const listFieldNames = Object.fromEntries(
  ['allowed_countries', 'blocked_categories'].flatMap((name) => Array.from({ length: 50 }, (_, index) => [`${name}.${index}`, name])),
);

function SpendBar({ label, spent, limit, currency, testId }: { label: string; spent: string; limit: string | null; currency: string; testId: string }) {
  const percent = spentPercent(spent, limit);
  return (
    <div className={styles.usage} data-testid={testId}>
      <div className={styles.usageHead}>
        <span className={styles.usageLabel}>{label}</span>
        <span className={styles.usageFigures}>
          <span className={styles.usageSpent}>{formatAmount(spent)}</span>{' '}
          {limit === null ? <span className={styles.usageLimit}>{currency} · {text.noLimit}</span> : <span className={styles.usageLimit}>{text.ofLimit(formatAmount(limit), currency)}</span>}
        </span>
      </div>
      <Progress
        percent={percent ?? 0}
        showInfo={false}
        size="small"
        status={percent !== null && percent >= 100 ? 'exception' : 'normal'}
        strokeColor={percent !== null && percent >= 80 && percent < 100 ? '#fa8c16' : undefined}
        aria-label={label}
        className={percent === null ? styles.noLimitBar : undefined}
      />
    </div>
  );
}

function ControlsForm({ card, controls, focus }: { card: CardItem; controls: Controls; focus: ControlsFocus | null }) {
  const [form] = Form.useForm<ControlsFormValues>();
  const saving = useUpdateCardControls(card.id);
  const saved = useMemo(() => formValuesOf(controls), [controls]);
  const [dirty, setDirty] = useState(false);
  // limits are managing the card (cards.manage): a role without it sees them only
  const mayManage = useCan('cards.manage');
  const statusAllows = card.status !== 'DELETE' && card.status !== 'DELETING';
  const editable = statusAllows && mayManage;

  useEffect(() => {
    // what the server holds now (a save, another tab's save) replaces what is shown unless it is being edited
    if (!dirty) form.setFieldsValue(saved);
  }, [saved, dirty, form]);

  useEffect(() => {
    if (!focus?.field) return;
    form.scrollToField(focus.field, { block: 'center' });
    form.focusField(focus.field);
  }, [focus, form]);

  const save = async () => {
    let values: ControlsFormValues;
    try {
      values = await form.validateFields();
    } catch {
      return; // the fields say what is wrong
    }
    const body = controlsBodyOf(values);
    const checked = cardControlsBody.safeParse(body);
    if (!checked.success) {
      form.setFields(checked.error.issues.map((issue) => ({ name: String(issue.path[0]) as keyof ControlsFormValues, errors: [issue.message] })));
      return;
    }
    try {
      const answer = await saving.mutateAsync(body);
      setDirty(false);
      form.setFieldsValue(formValuesOf(answer));
      notifySuccess(text.saved);
    } catch (error) {
      // a refusal of a field shows on it; anything else the HTTP module told
      applyFieldErrors(form, error, listFieldNames);
    }
  };

  const reset = () => {
    form.resetFields();
    form.setFieldsValue(saved);
    setDirty(false);
  };

  const limitRules = (field: LimitField) => [
    {
      validator: (_: unknown, value: string | undefined) => {
        const problem = limitProblem(field, { ...form.getFieldsValue(LIMIT_FIELDS as LimitField[]), [field]: value });
        return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
      },
    },
  ];

  return (
    <Form<ControlsFormValues>
      form={form}
      layout="vertical"
      initialValues={saved}
      disabled={!editable}
      onValuesChange={() => setDirty(true)}
      onFinish={() => void save()}
      className={styles.form}
      data-testid="card-controls-form"
    >
      <div className={styles.limits}>
        {LIMIT_FIELDS.map((field) => (
          <Form.Item
            key={field}
            name={field}
            label={limitLabels[field]}
            rules={limitRules(field)}
            dependencies={LIMIT_FIELDS.filter((other) => other !== field)}
            className={styles.limit}
          >
            <Input inputMode="decimal" placeholder={text.unlimited} suffix={card.currency} allowClear autoComplete="off" data-testid={`control-${field}`} />
          </Form.Item>
        ))}
      </div>

      <ControlListFields held={controls.allowed_countries} />

      {editable ? (
        <div className={styles.buttons}>
          <Button onClick={reset} disabled={!dirty || saving.isPending}>
            {text.reset}
          </Button>
          <Button type="primary" htmlType="submit" loading={saving.isPending} disabled={!dirty} data-testid="controls-save">
            {text.save}
          </Button>
        </div>
      ) : statusAllows ? null : (
        <p className={styles.readOnly}>{text.readOnly}</p>
      )}
    </Form>
  );
}

/**
 * The card's controls on its page (cards.md "Spending"): single, daily and monthly limits (empty: 不限),
 * blocked merchant categories and allowed countries (none: 全部国家和地区), checked as typed with the
 * contract's rules and saved whole; bars of what was spent today and this month against the limits.
 */
export function CardControls({ card, focus }: { card: CardItem; focus: ControlsFocus | null }) {
  const controls = useCardControls(card.id);
  const sectionRef = useRef<HTMLElement>(null);

  useEffect(() => {
    // before the form is drawn, or for the section itself, bring the section into view
    if (focus) sectionRef.current?.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
  }, [focus]);

  return (
    <section className={styles.section} aria-labelledby="card-controls-title" ref={sectionRef} data-testid="card-controls">
      <div className={styles.head}>
        <h2 id="card-controls-title" className={styles.title}>
          {text.title}
        </h2>
        <span className={styles.intro}>{text.intro}</span>
      </div>
      {controls.isPending ? (
        <div role="status" aria-label={text.loading} aria-busy="true">
          <Skeleton active title={false} paragraph={{ rows: 5 }} />
        </div>
      ) : controls.isError && !controls.data ? (
        <div className={styles.error} role="alert" data-testid="controls-error">
          <WarningFilled className={styles.errorIcon} aria-hidden />
          <span className={styles.errorText}>{text.loadFailed}</span>
          <Button size="small" onClick={() => void controls.refetch()}>
            {cardCommonText.retry}
          </Button>
        </div>
      ) : (
        <div className={styles.layout}>
          <section className={styles.usageColumn} aria-label={text.usage}>
            <SpendBar label={text.spentToday} spent={controls.data.spent_today} limit={controls.data.daily_limit} currency={controls.data.currency} testId="spent-today" />
            <SpendBar
              label={text.spentThisMonth}
              spent={controls.data.spent_this_month}
              limit={controls.data.monthly_limit}
              currency={controls.data.currency}
              testId="spent-this-month"
            />
          </section>
          <ControlsForm card={card} controls={controls.data} focus={focus} />
        </div>
      )}
    </section>
  );
}
