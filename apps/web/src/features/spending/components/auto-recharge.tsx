import type { CardItem } from '@portal/contract/cards';
import { type AutoRechargeRule, autoRechargeBody } from '@portal/contract/balance-rules';
import { PauseCircleFilled, WarningFilled } from '@ant-design/icons';
import { Alert, Button, Form, Input, Skeleton, Switch, Tag } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useCan } from '../../../domain/team/lib/use-can.ts';
import { formatDateTime } from '../../../lib/date-time.ts';
import { applyFieldErrors } from '../../../lib/form-errors.ts';
import { formatAmount } from '../../../lib/money-format.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { balanceRuleText } from '../../../locales/zh-CN/balance-rules.ts';
import { useAutoRecharge, useRemoveAutoRecharge, useSetAutoRecharge } from '../api/auto-recharge.ts';
import styles from './auto-recharge.module.css';

const text = balanceRuleText.autoRecharge;

interface RuleValues {
  enabled: boolean;
  threshold: string;
  target: string;
  daily_max: string;
}

const valuesOf = (rule: AutoRechargeRule): RuleValues => ({
  enabled: rule.enabled,
  threshold: rule.threshold ?? '',
  target: rule.target ?? '',
  daily_max: rule.daily_max ?? '',
});

function LastRun({ rule }: { rule: AutoRechargeRule }) {
  const run = rule.last_run;
  if (!run) return <span className={styles.muted}>{text.never}</span>;
  return (
    <span data-testid="auto-recharge-last-run">
      {formatDateTime(run.at)} · {text.runStatus[run.status]}
      {run.amount ? ` ${formatAmount(run.amount)} ${rule.currency}` : ''}
      {run.reason ? `（${run.reason}）` : ''}
    </span>
  );
}

function RuleForm({ card, rule }: { card: CardItem; rule: AutoRechargeRule }) {
  const [form] = Form.useForm<RuleValues>();
  const saving = useSetAutoRecharge(card.id);
  const saved = useMemo(() => valuesOf(rule), [rule]);
  const [dirty, setDirty] = useState(false);
  const mayFund = useCan('cards.fund');

  useEffect(() => {
    if (!dirty) form.setFieldsValue(saved);
  }, [saved, dirty, form]);

  const save = async (values: RuleValues) => {
    const checked = autoRechargeBody.safeParse(values);
    if (!checked.success) {
      form.setFields(checked.error.issues.map((issue) => ({ name: String(issue.path[0]) as keyof RuleValues, errors: [issue.message] })));
      return;
    }
    try {
      const answer = await saving.mutateAsync(values);
      setDirty(false);
      form.setFieldsValue(valuesOf(answer));
      notifySuccess(text.saved);
    } catch (error) {
      applyFieldErrors(form, error);
    }
  };

  return (
    <Form<RuleValues>
      form={form}
      layout="vertical"
      initialValues={saved}
      disabled={!mayFund}
      onValuesChange={(changed: Partial<RuleValues>) => {
        setDirty(true);
        // an error shown on a field (the contract's or the server's) goes once the field is changed
        form.setFields(Object.keys(changed).map((name) => ({ name: name as keyof RuleValues, errors: [] })));
      }}
      onFinish={(values) => void save(values)}
      className={styles.form}
      data-testid="auto-recharge-form"
    >
      <Form.Item name="enabled" label={text.enabled} valuePropName="checked" className={styles.switch}>
        <Switch data-testid="auto-recharge-enabled" />
      </Form.Item>
      <div className={styles.amounts}>
        <Form.Item name="threshold" label={text.threshold} extra={text.thresholdHint}>
          <Input inputMode="decimal" suffix={card.currency} autoComplete="off" data-testid="auto-recharge-threshold" />
        </Form.Item>
        <Form.Item name="target" label={text.target} extra={text.targetHint}>
          <Input inputMode="decimal" suffix={card.currency} autoComplete="off" data-testid="auto-recharge-target" />
        </Form.Item>
        <Form.Item name="daily_max" label={text.dailyMax} extra={text.dailyMaxHint}>
          <Input inputMode="decimal" suffix={card.currency} autoComplete="off" data-testid="auto-recharge-daily-max" />
        </Form.Item>
      </div>
      {mayFund ? (
        <div className={styles.buttons}>
          <Button
            onClick={() => {
              form.setFieldsValue(saved);
              setDirty(false);
            }}
            disabled={!dirty || saving.isPending}
          >
            {text.reset}
          </Button>
          <Button type="primary" htmlType="submit" loading={saving.isPending} disabled={!dirty} data-testid="auto-recharge-save">
            {text.save}
          </Button>
        </div>
      ) : (
        <p className={styles.muted}>{text.readOnly}</p>
      )}
    </Form>
  );
}

/** Where the rule in force comes from: a tag's rule (saving here makes the card's own), or the card's own over its tags. */
function RuleSource({ card, rule }: { card: CardItem; rule: AutoRechargeRule }) {
  const remove = useRemoveAutoRecharge(card.id);
  const mayFund = useCan('cards.fund');
  if (rule.source === 'TAG' && rule.source_tag) {
    return <Alert type="info" showIcon className={styles.sourceNote} message={`${text.fromTag(rule.source_tag)}。${text.fromTagHint}`} data-testid="auto-recharge-source" />;
  }
  if (rule.source !== 'CARD' || card.tags.length === 0) return null;
  return (
    <div className={styles.source} data-testid="auto-recharge-source">
      <span className={styles.muted}>{text.ownOverTags}</span>
      {mayFund ? (
        <Button
          type="link"
          size="small"
          loading={remove.isPending}
          onClick={() => void remove.mutateAsync().then(() => notifySuccess(text.usedTagRule))}
          data-testid="auto-recharge-use-tags"
        >
          {text.useTagRule}
        </Button>
      ) : null}
    </div>
  );
}

/**
 * A card's auto top-up (growing-customers.md §3): below the trigger balance, a job tops the card up to
 * the target from the wallet, at most the daily maximum a day. Shows whether it is on or paused (the
 * wallet could not pay) and why, what it put on the card today and its latest run.
 */
export function AutoRecharge({ card }: { card: CardItem }) {
  const rule = useAutoRecharge(card.id);
  return (
    <section className={styles.section} aria-labelledby="auto-recharge-title" data-testid="auto-recharge">
      <div className={styles.head}>
        <h2 id="auto-recharge-title" className={styles.title}>
          {text.title}
        </h2>
        {rule.data?.enabled ? (
          rule.data.status === 'PAUSED' ? (
            <Tag color="warning" icon={<PauseCircleFilled />} data-testid="auto-recharge-status">
              {text.paused}
            </Tag>
          ) : (
            <Tag color="success" data-testid="auto-recharge-status">
              {text.listTag(formatAmount(rule.data.threshold ?? '0'), formatAmount(rule.data.target ?? '0'))}
            </Tag>
          )
        ) : null}
        <span className={styles.intro}>{text.intro}</span>
      </div>
      {rule.isPending ? (
        <div role="status" aria-busy="true">
          <Skeleton active title={false} paragraph={{ rows: 3 }} />
        </div>
      ) : rule.isError && !rule.data ? (
        <div className={styles.error} role="alert">
          <WarningFilled className={styles.errorIcon} aria-hidden />
          <span className={styles.errorText}>{text.loadFailed}</span>
          <Button size="small" onClick={() => void rule.refetch()}>
            {text.retry}
          </Button>
        </div>
      ) : (
        <div className={styles.layout}>
          {rule.data.status === 'PAUSED' && rule.data.enabled ? (
            <Alert type="warning" showIcon message={rule.data.paused_reason ?? text.paused} description={text.pausedHint} data-testid="auto-recharge-paused" />
          ) : null}
          <RuleSource card={card} rule={rule.data} />
          <div className={styles.facts}>
            {rule.data.daily_max ? <span data-testid="auto-recharge-used">{text.usedToday(formatAmount(rule.data.used_today), formatAmount(rule.data.daily_max), rule.data.currency)}</span> : null}
            <span>
              <span className={styles.muted}>{text.lastRun}：</span>
              <LastRun rule={rule.data} />
            </span>
          </div>
          <RuleForm card={card} rule={rule.data} />
        </div>
      )}
    </section>
  );
}
