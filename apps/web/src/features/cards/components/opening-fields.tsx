import { cardLimits, nicknameRule, type OpenedAvailableAnswer } from '@portal/contract/cards';
import { batchLimits, batchNickname, nicknamePrefixRule } from '@portal/contract/card-batches';
import { Form, type FormInstance, InputNumber } from 'antd';
import Input from 'antd/es/input/Input';
import { formRule } from '../../../lib/form-rules.ts';
import { formatAmount } from '../../../lib/money-format.ts';
import { primaryControl } from '../../../lib/primary-control.ts';
import { cardBatchText } from '../../../locales/zh-CN/card-batch.ts';
import { cardCreateText } from '../../../locales/zh-CN/card-create.ts';
import { firstLoadProblem } from '../lib/opening-checks.ts';
import { AmountInput } from './amount-input.tsx';
import styles from './create-card.module.css';

const text = cardCreateText;

type Product = OpenedAvailableAnswer['products'][number];

export interface OpeningValues {
  amount: string;
  nickname: string;
  /** 开卡数量: one card is opened alone, more as a batch */
  quantity: number | null;
}

/**
 * Step 2 of the opening: the first load (checked against the chosen product), how many cards, and
 * the nickname, or the nicknames' prefix for more than one card.
 */
export function OpeningFields({
  form,
  product,
  nickname,
  quantity,
  onReview,
}: {
  form: FormInstance<OpeningValues>;
  product: Product | null;
  nickname: string;
  quantity: number;
  onReview: () => void;
}) {
  const many = quantity > 1;
  return (
    <section className={styles.section} aria-labelledby="create-card-form">
      <h2 id="create-card-form" className={styles.sectionTitle}>
        <span className={styles.step} aria-hidden="true">
          2
        </span>
        {text.formTitle}
      </h2>
      <Form<OpeningValues>
        form={form}
        name="create-card"
        layout="vertical"
        requiredMark={false}
        className={styles.form}
        {...primaryControl}
        initialValues={{ amount: '', nickname: '', quantity: 1 }}
        onFinish={onReview}
        disabled={!product}
        noValidate
      >
        <Form.Item
          name="amount"
          label={text.amount}
          extra={product ? text.amountHint(formatAmount(product.min_first_load), formatAmount(product.max_balance), product.currency) : undefined}
          rules={[formRule((value) => (product ? firstLoadProblem(product, value) : null))]}
          validateFirst
        >
          <AmountInput
            size="large"
            placeholder={product ? text.amountPlaceholder(product.min_first_load) : undefined}
            suffix={<span className={styles.unit}>{product?.currency ?? ''}</span>}
            aria-required
          />
        </Form.Item>
        <Form.Item
          name="quantity"
          label={cardBatchText.quantity}
          extra={cardBatchText.quantityHint(batchLimits.quantityMax)}
          rules={[{ required: true, type: 'integer', min: 1, max: batchLimits.quantityMax, message: cardBatchText.quantityRule(batchLimits.quantityMax) }]}
        >
          <InputNumber
            size="large"
            min={1}
            max={batchLimits.quantityMax}
            precision={0}
            step={1}
            className={styles.quantity}
            suffix={cardBatchText.quantityUnit}
            aria-required
            data-testid="quantity"
          />
        </Form.Item>
        {many ? (
          <Form.Item
            key="prefix"
            name="nickname"
            label={cardBatchText.prefix}
            extra={cardBatchText.prefixHint(
              `${batchNickname(nickname.trim() || 'FB', 1)}、${batchNickname(nickname.trim() || 'FB', 2)} … ${batchNickname(nickname.trim() || 'FB', quantity)}`,
            )}
            rules={[formRule(nicknamePrefixRule)]}
            validateFirst
          >
            <Input size="large" maxLength={batchLimits.prefixMax} showCount placeholder={cardBatchText.prefixPlaceholder} autoComplete="off" aria-required />
          </Form.Item>
        ) : (
          <Form.Item key="nickname" name="nickname" label={text.nickname} extra={text.nicknameHint} rules={[formRule(nicknameRule)]} validateFirst>
            <Input size="large" maxLength={cardLimits.nicknameMax} showCount placeholder={text.nicknamePlaceholder} autoComplete="off" aria-required />
          </Form.Item>
        )}
      </Form>
    </section>
  );
}
