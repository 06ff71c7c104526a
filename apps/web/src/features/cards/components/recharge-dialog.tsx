import { type CardItem, cardAmountRule, cardMessages, rechargeCost } from '@portal/contract/cards';
import { CardErrorCode } from '@portal/contract/card-errors';
import { formatMessage } from '@portal/contract/errors';
import { fromMinorUnits, toMinorUnits } from '@portal/contract/money';
import { Alert, Form, Modal } from 'antd';
import { useState } from 'react';
import { busy } from '../../../lib/busy.ts';
import { useSingleSubmission } from '../../../lib/use-single-submission.ts';
import { formRule } from '../../../lib/form-rules.ts';
import { isApiError, markShownInPlace } from '../../../lib/http.ts';
import { formatAmount } from '../../../lib/money-format.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { cardCommonText } from '../../../locales/zh-CN/card-common.ts';
import { cardDetailsText } from '../../../locales/zh-CN/card-details.ts';
import type { AvailableProduct } from '../../../domain/cards/api/get-opened-available.ts';
import { useRechargeCard } from '../api/recharge-card.ts';
import { topupFeeText } from '../lib/fee-text.ts';
import { type IdempotencyKeys, unansweredMessage } from '../lib/use-idempotency-key.ts';
import { AmountInput } from './amount-input.tsx';
import styles from './money-dialog.module.css';
import { TradePasswordConfirm, useTradePasswordConfirmation } from '../../../domain/trade-password/components/trade-password-confirm.tsx';
import { UnansweredNotice } from './unanswered-notice.tsx';

const text = cardDetailsText.recharge;

interface RechargeDialogProps {
  open: boolean;
  card: CardItem;
  /** the card's product, for its maximum balance; unknown when the account may no longer see it (the fee is the card's own) */
  product: AvailableProduct | undefined;
  /** the wallet's available money in the card's currency */
  walletAvailable: string | undefined;
  walletFrozen: boolean;
  /** kept by the page, so a retry after the dialog was closed still sends the same key */
  keys: IdempotencyKeys;
  onClose: () => void;
}

/** What a top-up would take the card's balance past its product's maximum. */
function aboveMaximum(card: CardItem, product: AvailableProduct | undefined, amount: string) {
  if (!product) return null;
  const after = toMinorUnits(card.balance) + toMinorUnits(card.held) + toMinorUnits(amount);
  return after > toMinorUnits(product.max_balance) ? formatMessage(cardMessages.aboveMaxBalance, { max: product.max_balance, currency: card.currency }) : null;
}

/**
 * 充值 (wallet → card): the amount, then its fee (at the terms the card was opened under) and the total
 * taken from the wallet, shown before confirming with the contract's rechargeCost; sent with an Idempotency-Key.
 */
export function RechargeDialog({ open, card, product, walletAvailable, walletFrozen, keys, onClose }: RechargeDialogProps) {
  const [form] = Form.useForm<{ amount: string }>();
  const recharge = useRechargeCard(card.id);
  const trade = useTradePasswordConfirmation();
  const submission = useSingleSubmission();
  const [unanswered, setUnanswered] = useState<string | null>(null);
  const amount = Form.useWatch('amount', form) ?? '';

  const valid = cardAmountRule(amount) === null && aboveMaximum(card, product, amount) === null;
  // the fee terms the card was opened under, which the server charges, not its product's current ones
  const cost = valid ? rechargeCost(card.fees, amount) : null;
  const total = cost?.total ?? (valid ? fromMinorUnits(toMinorUnits(amount)) : null);
  const insufficient = total !== null && walletAvailable !== undefined && toMinorUnits(total) > toMinorUnits(walletAvailable);
  const money = (value: string) => `${formatAmount(value)} ${card.currency}`;
  const none = cardCommonText.none;

  const submit = async ({ amount: typed }: { amount: string }) => {
    if (walletFrozen || insufficient) return;
    const confirmation = await trade.collect();
    if (!confirmation) return;
    // the key is of the money asked for: a retry with the trade password typed again is the same request
    const body = { card: card.id, amount: fromMinorUnits(toMinorUnits(typed)) };
    setUnanswered(null);
    try {
      const answer = await recharge.mutateAsync({ body: { amount: body.amount, ...confirmation }, idempotencyKey: keys.keyFor(body) });
      keys.settle();
      notifySuccess(text.done(formatAmount(body.amount), formatAmount(answer.fee), card.currency));
      onClose();
    } catch (error) {
      keys.settle(error);
      setUnanswered(unansweredMessage(error));
      if (trade.refused(error)) return;
      if (isApiError(error) && error.kind === 'api' && (error.code === CardErrorCode.CARD_BALANCE_ABOVE_MAX || error.code === CardErrorCode.CARD_AMOUNT_BELOW_MIN)) {
        form.setFields([{ name: 'amount', errors: [error.message] }]);
        markShownInPlace(error);
      }
    }
  };

  return (
    <Modal
      open={open}
      title={`${text.title} · ${card.nickname}`}
      okText={text.ok}
      cancelText={cardDetailsText.cancel}
      onOk={() => form.submit()}
      onCancel={onClose}
      okButtonProps={{ disabled: walletFrozen || insufficient, loading: busy(submission.pending) }}
      cancelButtonProps={{ disabled: recharge.isPending }}
      closable={!recharge.isPending}
      mask={{ closable: !recharge.isPending }}
      centered
      destroyOnHidden
    >
      <Form form={form} layout="vertical" requiredMark={false} initialValues={{ amount: '' }} onFinish={(values) => void submission.run(() => submit(values))} noValidate>
        <Form.Item
          name="amount"
          label={text.amount}
          rules={[formRule(cardAmountRule), formRule((value) => aboveMaximum(card, product, value))]}
          validateFirst
        >
          <AmountInput size="large" placeholder={text.amountPlaceholder} suffix={<span className={styles.unit}>{card.currency}</span>} autoFocus aria-required />
        </Form.Item>
      </Form>
      <dl className={styles.lines} data-testid="recharge-breakdown">
        <div className={styles.line}>
          <dt>{text.amount}</dt>
          <dd data-testid="recharge-amount">{valid ? money(amount) : none}</dd>
        </div>
        <div className={styles.line}>
          <dt>
            {text.fee}
            <span className={styles.rule}>{text.feeRule(topupFeeText({ ...card.fees, currency: card.currency }))}</span>
          </dt>
          <dd data-testid="recharge-fee">{cost ? money(cost.fee) : none}</dd>
        </div>
        <div className={`${styles.line} ${styles.total}`}>
          <dt>{text.total}</dt>
          <dd data-testid="recharge-total">{total !== null ? money(total) : none}</dd>
        </div>
        <div className={styles.line}>
          <dt>{text.walletAvailable}</dt>
          <dd data-testid="recharge-wallet">{walletAvailable !== undefined ? money(walletAvailable) : none}</dd>
        </div>
        <div className={styles.line}>
          <dt>{text.balanceAfter}</dt>
          <dd>{valid ? money(fromMinorUnits(toMinorUnits(card.balance) + toMinorUnits(amount))) : none}</dd>
        </div>
      </dl>
      <TradePasswordConfirm confirmation={trade} onSubmit={() => form.submit()} />
      {walletFrozen ? <Alert className={styles.alert} type="error" showIcon title={text.walletFrozen} data-testid="recharge-frozen" /> : null}
      {!walletFrozen && insufficient ? <Alert className={styles.alert} type="error" showIcon title={text.insufficient} data-testid="recharge-insufficient" /> : null}
      <UnansweredNotice message={unanswered} retry={cardDetailsText.retry.recharge} />
    </Modal>
  );
}
