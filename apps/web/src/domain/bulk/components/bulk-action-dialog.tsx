import { autoRechargeBody } from '@portal/contract/balance-rules';
import { type BulkAction, type BulkActionBody, type BulkReview, bulkMovesMoney } from '@portal/contract/card-bulk';
import { limitRule, MCC_CATEGORIES, type MccCategory } from '@portal/contract/card-spending';
import { cardAmountRule } from '@portal/contract/cards';
import { ROLE_LABELS } from '@portal/contract/team';
import { Alert, Descriptions, Form, Input, Modal, Radio, Select } from 'antd';
import { useEffect, useState } from 'react';
import { formRule } from '../../../lib/form-rules.ts';
import { isApiError, markShownInPlace } from '../../../lib/http.ts';
import { formatAmount } from '../../../lib/money-format.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { cardBulkText } from '../../../locales/zh-CN/card-bulk.ts';
import { ControlListFields } from '../../cards/components/control-lists.tsx';
import { useTeamMembers } from '../../team/api/get-team-members.ts';
import { TradePasswordConfirm, useTradePasswordConfirmation } from '../../trade-password/components/trade-password-confirm.tsx';
import { useCreateBulkAction, useReviewBulkAction } from '../api/bulk-actions.ts';
import { writeBulkWidgetState } from '../lib/bulk-widget-state.ts';
import styles from './bulk-action-dialog.module.css';

const text = cardBulkText.dialog;

/** The cards a bulk action is for: those ticked, or all that the list's filter matches. */
export type BulkTarget = { card_ids: string[]; count: number } | { filter: NonNullable<BulkActionBody['filter']>; count: number };

interface ParamValues {
  mode?: 'amount' | 'target' | 'all';
  amount?: string;
  tags?: string[];
  holder_member_id?: string;
  single_limit?: string;
  daily_limit?: string;
  monthly_limit?: string;
  blocked_categories?: MccCategory[];
  allowed_countries?: string[];
  auto?: 'on' | 'off';
  threshold?: string;
  target?: string;
  daily_max?: string;
}

const NO_PARAMS: readonly BulkAction[] = ['FREEZE', 'UNFREEZE', 'CANCEL'];
const limit = (value: string | undefined) => (value?.trim() ? value.trim() : null);

/** The action's params from the form, as the contract's body takes them. */
function paramsOf(action: BulkAction, values: ParamValues): BulkActionBody['params'] {
  switch (action) {
    case 'RECHARGE':
      return values.mode === 'target' ? { target_balance: values.amount ?? '' } : { amount: values.amount ?? '' };
    case 'WITHDRAW':
      return values.mode === 'all' ? { all: true } : { amount: values.amount ?? '' };
    case 'ADD_TAGS':
    case 'REMOVE_TAGS':
      return { tags: values.tags ?? [] };
    case 'SET_HOLDER':
      return { holder_member_id: values.holder_member_id ?? '' };
    case 'SET_CONTROLS':
      return {
        single_limit: limit(values.single_limit),
        daily_limit: limit(values.daily_limit),
        monthly_limit: limit(values.monthly_limit),
        blocked_categories: MCC_CATEGORIES.filter((category) => values.blocked_categories?.includes(category)),
        allowed_countries: values.allowed_countries ?? [],
      };
    case 'SET_AUTO_RECHARGE':
      return values.auto === 'off'
        ? { enabled: false }
        : { enabled: true, threshold: values.threshold ?? '', target: values.target ?? '', daily_max: values.daily_max ?? '' };
    default:
      return undefined;
  }
}

/** The rule's own checks (the contract's), each on its field, before the review is asked for. */
function ruleProblems(values: ParamValues) {
  if (values.auto === 'off') return [];
  const checked = autoRechargeBody.safeParse({ enabled: true, threshold: values.threshold ?? '', target: values.target ?? '', daily_max: values.daily_max ?? '' });
  return checked.success ? [] : checked.error.issues.map((issue) => ({ name: String(issue.path[0]) as keyof ParamValues, errors: [issue.message] }));
}

function MoneyReview({ review }: { review: BulkReview }) {
  return (
    <>
      {review.money.map((money) => {
        const back = review.action !== 'RECHARGE';
        return (
          <Descriptions key={money.currency} size="small" column={1} bordered className={styles.money} title={`${text.moneyTitle}（${money.currency}）`} data-testid="bulk-review-money">
            <Descriptions.Item label={text.moneyCards(money.cards)}>{`${formatAmount(money.amount)} ${money.currency}`}</Descriptions.Item>
            {back ? null : <Descriptions.Item label={text.fee}>{`${formatAmount(money.fee)} ${money.currency}`}</Descriptions.Item>}
            <Descriptions.Item label={text.total(back)}>
              <b data-testid="bulk-review-total">{`${formatAmount(money.total)} ${money.currency}`}</b>
            </Descriptions.Item>
            <Descriptions.Item label={text.walletNow}>{`${formatAmount(money.wallet_available)} ${money.currency}`}</Descriptions.Item>
            <Descriptions.Item label={text.walletAfter}>
              <span data-testid="bulk-review-wallet-after">{`${formatAmount(money.wallet_after)} ${money.currency}`}</span>
            </Descriptions.Item>
          </Descriptions>
        );
      })}
    </>
  );
}

/**
 * A bulk action's dialog: its params (an amount, tags, a member, limits), then the review the server
 * answers (how many cards; for money the whole cost, its fees and the wallet after), then the trade
 * password for money; submitting starts it, and the layout's progress widget follows it.
 */
export default function BulkActionDialog({ action, target, onClose, onStarted }: { action: BulkAction; target: BulkTarget; onClose: () => void; onStarted: () => void }) {
  const [form] = Form.useForm<ParamValues>();
  const review = useReviewBulkAction();
  const create = useCreateBulkAction();
  const trade = useTradePasswordConfirmation({ needed: bulkMovesMoney(action) });
  const [body, setBody] = useState<BulkActionBody | null>(null);
  const [key] = useState(() => crypto.randomUUID());
  const [refusal, setRefusal] = useState<string | null>(null);
  const members = useTeamMembers();
  const choice = 'card_ids' in target ? { card_ids: target.card_ids } : { filter: target.filter };
  const mode = Form.useWatch('mode', form);
  const auto = Form.useWatch('auto', form);

  const ask = async (asked: BulkActionBody) => {
    setRefusal(null);
    try {
      await review.mutateAsync(asked);
      setBody(asked);
    } catch (error) {
      if (isApiError(error)) {
        markShownInPlace(error);
        setRefusal(error.message);
      }
    }
  };

  // an action without params goes to its review at once
  // biome-ignore lint/correctness/useExhaustiveDependencies: asked once, when the dialog opens
  useEffect(() => {
    if (NO_PARAMS.includes(action)) void ask({ action, ...choice } as BulkActionBody);
  }, []);

  const submit = async () => {
    if (!body) {
      const values = await form.validateFields();
      const problems = action === 'SET_AUTO_RECHARGE' ? ruleProblems(values) : [];
      if (problems.length > 0) {
        form.setFields(problems);
        return;
      }
      await ask({ action, ...choice, params: paramsOf(action, values) } as BulkActionBody);
      return;
    }
    const password = await trade.collect();
    if (password === null) return;
    try {
      const { id } = await create.mutateAsync({ body: { ...body, ...password } as BulkActionBody, idempotencyKey: key });
      writeBulkWidgetState({ id, dismissed: false });
      notifySuccess(text.started);
      onStarted();
    } catch (error) {
      if (trade.refused(error)) return;
      if (isApiError(error)) {
        markShownInPlace(error);
        setRefusal(error.message);
      }
    }
  };

  const reviewed = body ? review.data : undefined;
  return (
    <Modal
      open
      title={text.title(action)}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={body ? text.submit : text.review}
      okButtonProps={{ loading: review.isPending || create.isPending, disabled: NO_PARAMS.includes(action) && !body, danger: action === 'CANCEL' && Boolean(body) }}
      cancelText={text.cancel}
      destroyOnHidden
      data-testid="bulk-dialog"
    >
      <p className={styles.cards} data-testid="bulk-dialog-count">
        {text.cards(reviewed?.total ?? target.count)}
      </p>
      {refusal ? <Alert type="error" showIcon message={refusal} className={styles.refusal} data-testid="bulk-refusal" /> : null}
      {body ? null : (
        <Form form={form} layout="vertical" initialValues={{ mode: action === 'RECHARGE' ? 'amount' : action === 'WITHDRAW' ? 'amount' : undefined, auto: 'on' }}>
          {action === 'RECHARGE' || action === 'WITHDRAW' ? (
            <>
              <Form.Item name="mode" label={action === 'RECHARGE' ? text.rechargeMode : text.withdrawMode}>
                <Radio.Group
                  options={
                    action === 'RECHARGE'
                      ? [
                          { value: 'amount', label: text.byAmount },
                          { value: 'target', label: text.byTarget },
                        ]
                      : [
                          { value: 'amount', label: text.withdrawAmount },
                          { value: 'all', label: text.withdrawAll },
                        ]
                  }
                />
              </Form.Item>
              {mode === 'all' ? null : (
                <Form.Item
                  name="amount"
                  label={action === 'WITHDRAW' ? text.withdrawAmount : mode === 'target' ? text.targetBalance : text.amountEach}
                  rules={[formRule(cardAmountRule)]}
                >
                  <Input inputMode="decimal" autoFocus data-testid="bulk-amount" />
                </Form.Item>
              )}
            </>
          ) : null}
          {action === 'ADD_TAGS' || action === 'REMOVE_TAGS' ? (
            <Form.Item name="tags" label={text.tags} extra={text.tagsHint} rules={[{ required: true, message: text.tags }]}>
              <Select mode="tags" open={false} suffixIcon={null} data-testid="bulk-tags" />
            </Form.Item>
          ) : null}
          {action === 'SET_HOLDER' ? (
            <Form.Item name="holder_member_id" label={text.holder} rules={[{ required: true, message: text.holder }]}>
              <Select
                options={(members.data ?? [])
                  .filter((member) => member.status === 'ACTIVE')
                  .map((member) => ({ value: member.id, label: `${member.phone_masked}（${ROLE_LABELS[member.role]}）` }))}
              />
            </Form.Item>
          ) : null}
          {action === 'SET_AUTO_RECHARGE' ? (
            <>
              <Form.Item name="auto" label={text.autoMode}>
                <Radio.Group
                  options={[
                    { value: 'on', label: text.autoOn },
                    { value: 'off', label: text.autoOff },
                  ]}
                  data-testid="bulk-auto-mode"
                />
              </Form.Item>
              {auto === 'off' ? (
                <Alert type="info" showIcon message={text.autoOffHint} className={styles.refusal} />
              ) : (
                <>
                  <Alert type="info" showIcon message={text.autoReplace} className={styles.refusal} />
                  <div className={styles.ruleFields}>
                    <Form.Item name="threshold" label={text.autoThreshold}>
                      <Input inputMode="decimal" autoComplete="off" data-testid="bulk-auto-threshold" />
                    </Form.Item>
                    <Form.Item name="target" label={text.autoTarget}>
                      <Input inputMode="decimal" autoComplete="off" data-testid="bulk-auto-target" />
                    </Form.Item>
                    <Form.Item name="daily_max" label={text.autoDailyMax}>
                      <Input inputMode="decimal" autoComplete="off" data-testid="bulk-auto-daily-max" />
                    </Form.Item>
                  </div>
                </>
              )}
            </>
          ) : null}
          {action === 'SET_CONTROLS' ? (
            <>
              <Alert type="info" showIcon message={text.controlsReplace} className={styles.refusal} />
              <Form.Item name="single_limit" label={text.singleLimit} extra={text.noLimit} rules={[formRule(limitRule)]}>
                <Input inputMode="decimal" data-testid="bulk-single-limit" />
              </Form.Item>
              <Form.Item name="daily_limit" label={text.dailyLimit} extra={text.noLimit} rules={[formRule(limitRule)]}>
                <Input inputMode="decimal" data-testid="bulk-daily-limit" />
              </Form.Item>
              <Form.Item name="monthly_limit" label={text.monthlyLimit} extra={text.noLimit} rules={[formRule(limitRule)]}>
                <Input inputMode="decimal" data-testid="bulk-monthly-limit" />
              </Form.Item>
              <ControlListFields />
            </>
          ) : null}
        </Form>
      )}
      {reviewed ? (
        <div data-testid="bulk-review">
          <MoneyReview review={reviewed} />
          <p className={styles.hint}>{text.confirmHint}</p>
          <TradePasswordConfirm confirmation={trade} onSubmit={() => void submit()} />
        </div>
      ) : null}
    </Modal>
  );
}
