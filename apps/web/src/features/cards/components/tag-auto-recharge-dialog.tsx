import { autoRechargeBody, type TagAutoRechargeRule } from '@portal/contract/balance-rules';
import { cardTagText } from '@portal/contract/card-list';
import { holdsOwnCardsOnly } from '@portal/contract/team';
import { WarningFilled } from '@ant-design/icons';
import { AutoComplete, Button, Empty, Form, Input, Modal, Popconfirm, Skeleton, Switch, Tag } from 'antd';
import { useState } from 'react';
import { useCardTags } from '../../../domain/cards/api/get-card-tags.ts';
import { useCan, useRole } from '../../../domain/team/lib/use-can.ts';
import { applyFieldErrors } from '../../../lib/form-errors.ts';
import { formatAmount } from '../../../lib/money-format.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { balanceRuleText } from '../../../locales/zh-CN/balance-rules.ts';
import { useRemoveTagAutoRecharge, useSetTagAutoRecharge, useTagAutoRecharge } from '../api/tag-auto-recharge.ts';
import styles from './tag-auto-recharge-dialog.module.css';

const text = balanceRuleText.tagRules;

interface RuleValues {
  tag: string;
  enabled: boolean;
  threshold: string;
  target: string;
  daily_max: string;
}

const EMPTY: RuleValues = { tag: '', enabled: true, threshold: '', target: '', daily_max: '' };

/** Adds or changes one tag's rule; the tag is fixed once the rule exists. */
function RuleEditor({ editing, onDone }: { editing: TagAutoRechargeRule | null; onDone: () => void }) {
  const [form] = Form.useForm<RuleValues>();
  const save = useSetTagAutoRecharge();
  const tags = useCardTags();
  const initial: RuleValues = editing
    ? { tag: editing.tag, enabled: editing.enabled, threshold: editing.threshold, target: editing.target, daily_max: editing.daily_max }
    : EMPTY;

  const submit = async (values: RuleValues) => {
    const tag = cardTagText.safeParse(values.tag ?? '');
    const rule = autoRechargeBody.safeParse(values);
    const problems = [
      ...(tag.success ? [] : [{ name: 'tag' as const, errors: [tag.error.issues[0]?.message ?? text.tagRequired] }]),
      ...(rule.success ? [] : rule.error.issues.map((issue) => ({ name: String(issue.path[0]) as keyof RuleValues, errors: [issue.message] }))),
    ];
    if (problems.length > 0 || !tag.success) {
      form.setFields(problems);
      return;
    }
    try {
      await save.mutateAsync({ tag: tag.data, body: { enabled: values.enabled, threshold: values.threshold, target: values.target, daily_max: values.daily_max } });
      notifySuccess(text.saved);
      onDone();
    } catch (error) {
      applyFieldErrors(form, error);
    }
  };

  return (
    <Form<RuleValues>
      form={form}
      layout="vertical"
      initialValues={initial}
      onFinish={(values) => void submit(values)}
      onValuesChange={(changed: Partial<RuleValues>) => form.setFields(Object.keys(changed).map((name) => ({ name: name as keyof RuleValues, errors: [] })))}
      className={styles.editor}
      data-testid="tag-rule-form"
    >
      <div className={styles.editorHead}>
        <Form.Item name="tag" label={text.tag} className={styles.tagField}>
          <AutoComplete
            disabled={editing !== null}
            options={(tags.data?.items ?? []).map((item) => ({ value: item.tag, label: `${item.tag}（${item.count}）` }))}
            filterOption={(input, option) => String(option?.value ?? '').includes(input)}
          >
            <Input placeholder={text.tagPlaceholder} autoComplete="off" data-testid="tag-rule-tag" />
          </AutoComplete>
        </Form.Item>
        <Form.Item name="enabled" label={text.enabled} valuePropName="checked">
          <Switch data-testid="tag-rule-enabled" />
        </Form.Item>
      </div>
      <div className={styles.amounts}>
        <Form.Item name="threshold" label={balanceRuleText.autoRecharge.threshold}>
          <Input inputMode="decimal" autoComplete="off" data-testid="tag-rule-threshold" />
        </Form.Item>
        <Form.Item name="target" label={balanceRuleText.autoRecharge.target}>
          <Input inputMode="decimal" autoComplete="off" data-testid="tag-rule-target" />
        </Form.Item>
        <Form.Item name="daily_max" label={balanceRuleText.autoRecharge.dailyMax}>
          <Input inputMode="decimal" autoComplete="off" data-testid="tag-rule-daily-max" />
        </Form.Item>
      </div>
      <p className={styles.hint}>{text.currencyHint}</p>
      <div className={styles.buttons}>
        <Button onClick={onDone}>{text.cancel}</Button>
        <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="tag-rule-save">
          {text.save}
        </Button>
      </div>
    </Form>
  );
}

function RuleRow({ rule, editable, onEdit }: { rule: TagAutoRechargeRule; editable: boolean; onEdit: () => void }) {
  const remove = useRemoveTagAutoRecharge();
  return (
    <li className={styles.row} data-testid="tag-rule">
      <div className={styles.rowMain}>
        <span className={styles.rowTag}>
          <Tag className={styles.tagName}>{rule.tag}</Tag>
          <Tag color={rule.enabled ? 'success' : 'default'}>{rule.enabled ? text.on : text.off}</Tag>
        </span>
        <span className={styles.rowRule}>
          <span className={styles.keep}>{text.rule(formatAmount(rule.threshold), formatAmount(rule.target))}</span>
          <span className={styles.keep}>{text.dailyMax(formatAmount(rule.daily_max))}</span>
        </span>
        <span className={styles.rowCards} data-testid="tag-rule-cards">
          {text.cards(rule.cards_in_force, rule.cards_tagged)}
        </span>
      </div>
      {editable ? (
        <span className={styles.rowActions}>
          <Button type="link" size="small" onClick={onEdit} data-testid="tag-rule-edit">
            {text.edit}
          </Button>
          <Popconfirm
            title={text.removeConfirm(rule.tag)}
            okText={text.remove}
            cancelText={text.cancel}
            okButtonProps={{ danger: true, loading: remove.isPending }}
            onConfirm={async () => {
              await remove.mutateAsync(rule.tag);
              notifySuccess(text.removed);
            }}
          >
            <Button type="link" size="small" danger data-testid="tag-rule-remove">
              {text.remove}
            </Button>
          </Popconfirm>
        </span>
      ) : null}
    </li>
  );
}

/**
 * 标签自动充值 (from the card list): the account's rules per tag, each in force on the tag's cards that
 * have no rule of their own; the owner, admins and finance add, change and remove them.
 */
export default function TagAutoRechargeDialog({ onClose }: { onClose: () => void }) {
  const rules = useTagAutoRecharge();
  const role = useRole();
  const editable = useCan('cards.fund') && role !== undefined && !holdsOwnCardsOnly(role);
  // null: no form; 'new': adding; a rule: changing it
  const [editing, setEditing] = useState<TagAutoRechargeRule | 'new' | null>(null);
  const items = rules.data?.items ?? [];

  return (
    <Modal open title={text.title} onCancel={onClose} footer={null} width={720} destroyOnHidden data-testid="tag-rules-dialog">
      <p className={styles.intro}>{text.intro}</p>
      {rules.isPending ? (
        <div role="status" aria-busy="true">
          <Skeleton active title={false} paragraph={{ rows: 3 }} />
        </div>
      ) : rules.isError && !rules.data ? (
        <div className={styles.error} role="alert">
          <WarningFilled className={styles.errorIcon} aria-hidden />
          <span className={styles.errorText}>{text.loadFailed}</span>
          <Button size="small" onClick={() => void rules.refetch()}>
            {text.retry}
          </Button>
        </div>
      ) : items.length === 0 && editing === null ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={text.empty} className={styles.empty} data-testid="tag-rules-empty" />
      ) : (
        <ul className={styles.rows}>
          {items.map((rule) => (
            <RuleRow key={rule.tag} rule={rule} editable={editable && editing === null} onEdit={() => setEditing(rule)} />
          ))}
        </ul>
      )}
      {editing !== null ? (
        <RuleEditor key={editing === 'new' ? 'new' : editing.tag} editing={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />
      ) : (
        <div className={styles.footer}>
          {editable ? (
            <Button type="primary" onClick={() => setEditing('new')} disabled={rules.isPending} data-testid="tag-rule-add">
              {text.add}
            </Button>
          ) : (
            <span className={styles.hint}>{text.readOnly}</span>
          )}
          <Button onClick={onClose}>{text.close}</Button>
        </div>
      )}
    </Modal>
  );
}
