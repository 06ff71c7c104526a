import { type AlertsAnswer, type AlertsBody, alertsBody } from '@portal/contract/balance-rules';
import { CURRENCIES, type Currency } from '@portal/contract/enums';
import { Button, Form, Input, Skeleton } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useCan, useRole } from '../../../domain/team/lib/use-can.ts';
import { applyFieldErrors } from '../../../lib/form-errors.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { balanceRuleText } from '../../../locales/zh-CN/balance-rules.ts';
import { useAlerts, useSetAlerts } from '../api/alerts.ts';
import { SettingsSection } from './settings-section.tsx';
import styles from './alerts-section.module.css';

const text = balanceRuleText.alerts;

type AlertValues = Record<Currency, string> & { cards: string };

const valuesOf = (alerts: AlertsAnswer): AlertValues => ({
  ...(Object.fromEntries(CURRENCIES.map((currency) => [currency, alerts.wallet.find((one) => one.currency === currency)?.threshold ?? ''])) as Record<Currency, string>),
  cards: alerts.card_default_threshold ?? '',
});

/** The form's values as the call takes them: an empty field is no alert. */
const bodyOf = (values: AlertValues): AlertsBody => ({
  wallet: CURRENCIES.filter((currency) => (values[currency] ?? '').trim() !== '').map((currency) => ({ currency, threshold: values[currency].trim() })),
  card_default_threshold: values.cards.trim() === '' ? null : values.cards.trim(),
});

/** The server names a wallet threshold by its place in the list (wallet.0.threshold): the error goes on that currency's field. */
const fieldOfIssue = (path: readonly PropertyKey[], body: AlertsBody): keyof AlertValues =>
  path[0] === 'wallet' ? (body.wallet[Number(path[1])]?.currency ?? 'USD') : 'cards';

function AlertsForm({ alerts }: { alerts: AlertsAnswer }) {
  const [form] = Form.useForm<AlertValues>();
  const saving = useSetAlerts();
  const saved = useMemo(() => valuesOf(alerts), [alerts]);
  const [dirty, setDirty] = useState(false);
  const mayManage = useCan('alerts.manage');

  useEffect(() => {
    if (!dirty) form.setFieldsValue(saved);
  }, [saved, dirty, form]);

  const save = async (values: AlertValues) => {
    const body = bodyOf(values);
    const checked = alertsBody.safeParse(body);
    if (!checked.success) {
      form.setFields(checked.error.issues.map((issue) => ({ name: fieldOfIssue(issue.path, body), errors: [issue.message] })));
      return;
    }
    try {
      await saving.mutateAsync(body);
      setDirty(false);
      notifySuccess(text.saved);
    } catch (error) {
      applyFieldErrors(form, error, { 'wallet.0.threshold': body.wallet[0]?.currency ?? 'USD', 'wallet.1.threshold': body.wallet[1]?.currency ?? 'CNY', card_default_threshold: 'cards' });
    }
  };

  return (
    <Form<AlertValues>
      form={form}
      layout="vertical"
      initialValues={saved}
      disabled={!mayManage}
      onValuesChange={(changed: Partial<AlertValues>) => {
        setDirty(true);
        // an error shown on a field (the contract's or the server's) goes once the field is changed
        form.setFields(Object.keys(changed).map((name) => ({ name: name as keyof AlertValues, errors: [] })));
      }}
      onFinish={(values) => void save(values)}
      className={styles.form}
      data-testid="alerts-form"
    >
      <div className={styles.fields}>
        {CURRENCIES.map((currency) => (
          <Form.Item key={currency} name={currency} label={text.wallet(currency)}>
            <Input inputMode="decimal" placeholder={text.none} suffix={currency} allowClear autoComplete="off" data-testid={`alert-wallet-${currency}`} />
          </Form.Item>
        ))}
        <Form.Item name="cards" label={text.cards} extra={text.cardsHint}>
          <Input inputMode="decimal" placeholder={text.none} allowClear autoComplete="off" data-testid="alert-cards" />
        </Form.Item>
      </div>
      {mayManage ? (
        <div className={styles.buttons}>
          <Button type="primary" htmlType="submit" loading={saving.isPending} disabled={!dirty} data-testid="alerts-save">
            {text.save}
          </Button>
        </div>
      ) : (
        <p className={styles.readOnly}>{text.readOnly}</p>
      )}
    </Form>
  );
}

/**
 * 通知 → 余额提醒 (growing-customers.md §3): the wallet's threshold per currency and one for every card;
 * a station message and an e-mail once per crossing. Every role reads it; the owner, admins and finance change it.
 */
export function AlertsSection() {
  const alerts = useAlerts();
  // the form is drawn once the member's role is known: editable or read-only, never one then the other
  const roleKnown = useRole() !== undefined;
  return (
    <SettingsSection id="notifications" title={text.sectionTitle} description={text.intro}>
      <h3 className={styles.subtitle}>{text.title}</h3>
      {alerts.isPending || (!roleKnown && !alerts.isError) ? (
        <div role="status" aria-busy="true">
          <Skeleton active title={false} paragraph={{ rows: 2 }} />
        </div>
      ) : alerts.isError && !alerts.data ? (
        <div role="alert" className={styles.error}>
          <span>{text.loadFailed}</span>
          <Button size="small" onClick={() => void alerts.refetch()}>
            {text.retry}
          </Button>
        </div>
      ) : (
        <AlertsForm alerts={alerts.data} />
      )}
    </SettingsSection>
  );
}
