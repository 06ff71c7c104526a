import { type CardItem, cardAmountRule } from '@portal/contract/cards';
import { fromMinorUnits, toMinorUnits } from '@portal/contract/money';
import { Button, Form, Modal } from 'antd';
import { useState } from 'react';
import { busy } from '../../../lib/busy.ts';
import { useSingleSubmission } from '../../../lib/use-single-submission.ts';
import { formRule } from '../../../lib/form-rules.ts';
import { formatAmount } from '../../../lib/money-format.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { cardDetailsText } from '../../../locales/zh-CN/card-details.ts';
import { useWithdrawCard } from '../api/withdraw-card.ts';
import { type IdempotencyKeys, unansweredMessage } from '../lib/use-idempotency-key.ts';
import { AmountInput } from './amount-input.tsx';
import styles from './money-dialog.module.css';
import { TradePasswordConfirm, useTradePasswordConfirmation } from '../../../domain/trade-password/components/trade-password-confirm.tsx';
import { UnansweredNotice } from './unanswered-notice.tsx';

const text = cardDetailsText.withdraw;

interface WithdrawDialogProps {
  open: boolean;
  card: CardItem;
  keys: IdempotencyKeys;
  onClose: () => void;
}

/** 提现 (card → wallet): at most the card's available balance; sent with an Idempotency-Key. */
export function WithdrawDialog({ open, card, keys, onClose }: WithdrawDialogProps) {
  const [form] = Form.useForm<{ amount: string }>();
  const withdraw = useWithdrawCard(card.id);
  const trade = useTradePasswordConfirmation();
  const submission = useSingleSubmission();
  const [unanswered, setUnanswered] = useState<string | null>(null);
  const withinBalance = (value: string) =>
    cardAmountRule(value) === null && toMinorUnits(value) > toMinorUnits(card.balance) ? text.tooMuch : null;

  const submit = async ({ amount }: { amount: string }) => {
    const confirmation = await trade.collect();
    if (!confirmation) return;
    const body = { card: card.id, amount: fromMinorUnits(toMinorUnits(amount)) };
    setUnanswered(null);
    try {
      await withdraw.mutateAsync({ body: { amount: body.amount, ...confirmation }, idempotencyKey: keys.keyFor(body) });
      keys.settle();
      notifySuccess(text.done(formatAmount(body.amount), card.currency));
      onClose();
    } catch (error) {
      keys.settle(error);
      setUnanswered(unansweredMessage(error));
      trade.refused(error);
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
      okButtonProps={{ loading: busy(submission.pending) }}
      cancelButtonProps={{ disabled: withdraw.isPending }}
      closable={!withdraw.isPending}
      mask={{ closable: !withdraw.isPending }}
      centered
      destroyOnHidden
    >
      <p className={styles.intro}>{text.intro(card.currency)}</p>
      <Form form={form} layout="vertical" requiredMark={false} initialValues={{ amount: '' }} onFinish={(values) => void submission.run(() => submit(values))} noValidate>
        <Form.Item
          name="amount"
          label={text.amount}
          extra={
            <span className={styles.available}>
              {text.available} <span data-testid="withdraw-available">{formatAmount(card.balance)}</span> {card.currency}
              <Button type="link" size="small" className={styles.all} onClick={() => form.setFieldsValue({ amount: card.balance })}>
                {text.all}
              </Button>
            </span>
          }
          rules={[formRule(cardAmountRule), formRule(withinBalance)]}
          validateFirst
        >
          <AmountInput size="large" placeholder={text.amountPlaceholder} suffix={<span className={styles.unit}>{card.currency}</span>} autoFocus aria-required />
        </Form.Item>
      </Form>
      <TradePasswordConfirm confirmation={trade} onSubmit={() => form.submit()} />
      <UnansweredNotice message={unanswered} retry={cardDetailsText.retry.withdraw} />
    </Modal>
  );
}
