import { cardLimits, nicknameRule, type OpenedAvailableAnswer, openingCost } from '@portal/contract/cards';
import { batchLimits, batchNickname, CardBatchErrorCode, nicknamePrefixRule } from '@portal/contract/card-batches';
import { CardErrorCode } from '@portal/contract/card-errors';
import { Alert, Button, Empty, Form, InputNumber, Modal, Result, Skeleton } from 'antd';
import Input from 'antd/es/input/Input';
import { type ReactNode, useEffect, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { PageFrame } from '../../../components/page-frame.tsx';
import { StaleDataNote } from '../../../components/stale-data-note.tsx';
import { applyFieldErrors } from '../../../lib/form-errors.ts';
import { formRule } from '../../../lib/form-rules.ts';
import { isApiError, markShownInPlace } from '../../../lib/http.ts';
import { formatAmount } from '../../../lib/money-format.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { paths } from '../../../lib/paths.ts';
import { useSingleSubmission } from '../../../lib/use-single-submission.ts';
import { cardBatchText } from '../../../locales/zh-CN/card-batch.ts';
import { cardCreateText } from '../../../locales/zh-CN/card-create.ts';
import { useWalletStatusStore } from '../../../stores/wallet-status.ts';
import { type AvailableProduct, useOpenedAvailable } from '../../../domain/cards/api/get-opened-available.ts';
import { useWalletBalances } from '../api/get-wallet-balances.ts';
import { useWalletStatus } from '../api/get-wallet-status.ts';
import { useCreateCardBatch } from '../../batches/api/create-card-batch.ts';
import { isBatchRunning, useBatchStatus } from '../../batches/api/get-batch-status.ts';
import { useOpenCard } from '../api/open-card.ts';
import { AmountInput } from '../components/amount-input.tsx';
import { CostBreakdown } from '../components/cost-breakdown.tsx';
import { OpenCardReview } from '../components/open-card-review.tsx';
import { ProductPicker } from '../components/product-picker.tsx';
import { type TradePasswordPart, useTradePasswordConfirmation } from '../../../domain/trade-password/components/trade-password-confirm.tsx';
import { topupFeeText } from '../lib/fee-text.ts';
import { firstLoadProblem, type OpeningBlocker, openingBlockers } from '../lib/opening-checks.ts';
import { unansweredMessage, useIdempotencyKey } from '../lib/use-idempotency-key.ts';
import styles from './create-card.module.css';
import { primaryControl } from '../../../lib/primary-control.ts';

const text = cardCreateText;

interface OpeningValues {
  amount: string;
  nickname: string;
  /** 开卡数量: one card is opened alone, more as a batch */
  quantity: number | null;
}

/** A count the form may send: a whole number from 1 to the batch maximum, else null. */
const quantityOf = (value: unknown) =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= batchLimits.quantityMax ? value : null;

/** This screen's address with its product: where the verification screens come back to. */
const hereWith = (productId: string | null) => (productId ? `${paths.createCard.path}?product=${encodeURIComponent(productId)}` : paths.createCard.path);

/**
 * /create-card, 开卡 (product.md §4): the products the account may open, a first load and a
 * nickname, the cost before confirming (contract openingCost, the server's own sum) and the wallet
 * after it. What blocks an opening (a frozen wallet, too little money, no quota, a product off, data
 * the product needs) is said before anything is sent. An account without its verification goes to
 * it first and comes back here, the chosen product kept in the address.
 */
export default function CreateCard() {
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const available = useOpenedAvailable();

  let body: ReactNode;
  if (available.isPending) {
    body = (
      <div className={styles.layout} role="status" aria-label={text.productsTitle} aria-busy="true" data-testid="create-card-loading">
        <Skeleton active title={{ width: '30%' }} paragraph={{ rows: 6 }} />
        <Skeleton active title={{ width: '40%' }} paragraph={{ rows: 4 }} />
      </div>
    );
  } else if (available.data === undefined) {
    // once loaded, the form stays when a refresh fails: a review open for a retry keeps its values
    body = (
      <Result
        status="warning"
        title={text.loadFailed}
        subTitle={text.loadFailedHint}
        extra={
          <Button type="primary" onClick={() => void available.refetch()}>
            {text.retry}
          </Button>
        }
      />
    );
  } else if (!available.data.verification.basic) {
    // replaced: Back from the verification leaves the opening instead of bouncing into it again
    return <Navigate to={paths.createCardVerification.getHref(hereWith(search.get('product')))} replace />;
  } else if (available.data.products.length === 0) {
    body = (
      <Empty className={styles.empty} image={Empty.PRESENTED_IMAGE_SIMPLE} description={text.noProducts} data-testid="no-products">
        <p className={styles.emptyHint}>{text.noProductsHint}</p>
      </Empty>
    );
  } else {
    body = (
      <>
        <StaleDataNote queries={[available]} />
        <OpeningForm answer={available.data} />
      </>
    );
  }

  return (
    <PageFrame title={text.title} onBack={() => navigate(paths.card.getHref())}>
      {body}
    </PageFrame>
  );
}

function OpeningForm({ answer }: { answer: OpenedAvailableAnswer }) {
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const [form] = Form.useForm<OpeningValues>();
  const balances = useWalletBalances();
  // asked again on this screen: its answer keeps the wallet-status store, read below, up to date
  useWalletStatus();
  const walletFrozen = useWalletStatusStore((state) => state.isWalletFreeze);
  const frozenReason = useWalletStatusStore((state) => state.reason);
  const opening = useOpenCard();
  const batching = useCreateCardBatch();
  const batchStatus = useBatchStatus();
  const keys = useIdempotencyKey();
  const trade = useTradePasswordConfirmation();
  const [reviewing, setReviewing] = useState(false);
  /** a batch was accepted: how many cards it opens */
  const [submitted, setSubmitted] = useState<number | null>(null);
  const [unanswered, setUnanswered] = useState<string | null>(null);
  const submission = useSingleSubmission();

  const productId = search.get('product');
  const product = answer.products.find((candidate) => candidate.id === productId) ?? null;
  const amount = Form.useWatch('amount', form) ?? '';
  const nickname = Form.useWatch('nickname', form) ?? '';
  const quantity = quantityOf(Form.useWatch('quantity', form)) ?? 1;
  const many = quantity > 1;
  const running = batchStatus.data && isBatchRunning(batchStatus.data) ? batchStatus.data : null;
  const runningBatch = running ? { done: running.success_count + running.fail_count, total: running.total_count } : null;

  // a first load checked against one product is checked again against the next one
  useEffect(() => {
    if (product && form.isFieldTouched('amount')) void form.validateFields(['amount']).catch(() => {});
  }, [product, form]);

  const cost = product && firstLoadProblem(product, amount) === null ? openingCost(product, amount) : null;
  const wallet = product ? balances.data?.find((balance) => balance.currency === product.currency)?.available : undefined;
  const blockers = product ? openingBlockers({ product, verification: answer.verification, walletFrozen, available: wallet, cost, quantity, runningBatch }) : [];
  const feeRule = product ? topupFeeText(product) : '';

  const goToSecondary = (id: string) => navigate(paths.createCardSecondaryVerificationData.getHref(hereWith(id)));

  const choose = (next: AvailableProduct) => {
    if (next.needs_secondary && !answer.verification.secondary) {
      goToSecondary(next.id);
      return;
    }
    setSearch(
      (previous) => {
        const address = new URLSearchParams(previous);
        address.set('product', next.id);
        return address;
      },
      { replace: true, preventScrollReset: true },
    );
  };

  const review = async () => {
    if (!product || blockers.length > 0) return;
    try {
      await form.validateFields();
    } catch {
      return; // the fields say what is missing
    }
    setUnanswered(null);
    setReviewing(true);
  };

  const confirm = async () => {
    if (!product || !cost) return;
    const confirmation = await trade.collect();
    if (!confirmation) return;
    setUnanswered(null);
    if (many) {
      await confirmBatch(confirmation);
      return;
    }
    // the key is of the card asked for: a retry with the trade password typed again is the same request
    const body = { product_id: product.id, amount: cost.amount, nickname: nickname.trim() };
    let card: Awaited<ReturnType<typeof opening.mutateAsync>>;
    try {
      card = await opening.mutateAsync({ body: { ...body, ...confirmation }, idempotencyKey: keys.keyFor(body) });
    } catch (error) {
      keys.settle(error);
      refused(error);
      return;
    }
    keys.settle();
    setReviewing(false);
    notifySuccess(text.done);
    navigate(paths.cardDetails.getHref(card.id), { replace: true });
  };

  /** More than one card: the batch call; the widget follows it on every page. */
  const confirmBatch = async (confirmation: TradePasswordPart) => {
    if (!product || !cost) return;
    const body = { product_id: product.id, quantity, amount: cost.amount, nickname_prefix: nickname.trim() };
    try {
      await batching.mutateAsync({ body: { ...body, ...confirmation }, idempotencyKey: keys.keyFor(body) });
    } catch (error) {
      keys.settle(error);
      refused(error);
      return;
    }
    keys.settle();
    setReviewing(false);
    setSubmitted(quantity);
  };

  /** A refusal goes where it belongs; no answer keeps the review open for a retry with the same key. */
  const refused = (error: unknown) => {
    const message = unansweredMessage(error);
    if (message !== null || !isApiError(error)) {
      setUnanswered(message);
      return;
    }
    // the review stays open with the refusal on the trade password's field
    if (trade.refused(error)) return;
    setReviewing(false);
    if (error.code === CardErrorCode.CARD_NOT_VERIFIED) {
      navigate(paths.createCardVerification.getHref(hereWith(product?.id ?? null)));
      return;
    }
    if (error.code === CardErrorCode.CARD_SECONDARY_REQUIRED && product) {
      goToSecondary(product.id);
      return;
    }
    if (error.code === CardErrorCode.CARD_AMOUNT_BELOW_MIN || error.code === CardErrorCode.CARD_BALANCE_ABOVE_MAX) {
      form.setFields([{ name: 'amount', errors: [error.message] }]);
      markShownInPlace(error);
      return;
    }
    if (error.code === CardBatchErrorCode.BATCH_OVER_PRODUCT_MAX) {
      form.setFields([{ name: 'quantity', errors: [error.message] }]);
      markShownInPlace(error);
      return;
    }
    applyFieldErrors(form, error, { product_id: 'amount', nickname_prefix: 'nickname' });
  };

  return (
    <div className={styles.layout}>
      <div className={styles.main}>
        <section className={styles.section} aria-labelledby="create-card-products">
          <h2 id="create-card-products" className={styles.sectionTitle}>
            <span className={styles.step} aria-hidden="true">
              1
            </span>
            {text.productsTitle}
          </h2>
          <ProductPicker products={answer.products} selectedId={product?.id ?? null} secondaryGiven={answer.verification.secondary} onSelect={choose} />
        </section>

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
            onFinish={() => void review()}
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
      </div>

      <aside className={styles.summary} aria-labelledby="create-card-cost">
        <h2 id="create-card-cost" className={styles.summaryTitle}>
          {text.cost.title}
        </h2>
        {product ? (
          <>
            <p className={styles.summaryProduct}>
              {product.name}
              <span className={styles.summaryPaid}>{text.cost.paidFrom(product.currency)}</span>
            </p>
            <CostBreakdown currency={product.currency} openFee={product.open_fee} cost={cost} available={wallet} feeRule={feeRule} quantity={quantity} />
          </>
        ) : (
          <p className={styles.chooseFirst}>{text.chooseFirst}</p>
        )}
        {blockers.length > 0 ? (
          <div className={styles.blockers} data-testid="opening-blockers">
            {blockers.map((blocker) => (
              <BlockerNotice
                key={blocker.kind}
                blocker={blocker}
                currency={product?.currency ?? ''}
                frozenReason={frozenReason}
                quantity={quantity}
                onSecondary={() => product && goToSecondary(product.id)}
              />
            ))}
          </div>
        ) : null}
        <Button
          className={styles.submit}
          type="primary"
          size="large"
          block
          disabled={!product || blockers.length > 0}
          onClick={() => form.submit()}
          data-testid="open-card-submit"
        >
          {many ? cardBatchText.submitBatch(quantity) : text.submit}
        </Button>
      </aside>

      {product && cost ? (
        <OpenCardReview
          open={reviewing}
          product={product}
          nickname={nickname.trim()}
          cost={cost}
          available={wallet}
          feeRule={feeRule}
          pending={submission.pending}
          unanswered={unanswered}
          trade={trade}
          quantity={quantity}
          onConfirm={() => void submission.run(confirm)}
          onCancel={() => setReviewing(false)}
        />
      ) : null}

      <Modal open={submitted !== null} footer={null} closable={false} centered width={440} destroyOnHidden>
        <Result
          status="success"
          title={cardBatchText.submitted.title}
          subTitle={cardBatchText.submitted.subTitle(submitted ?? 0)}
          extra={[
            <Button
              key="stay"
              onClick={() => {
                setSubmitted(null);
                form.resetFields(['nickname', 'quantity']);
              }}
            >
              {cardBatchText.submitted.stay}
            </Button>,
            <Button key="cards" type="primary" onClick={() => navigate(paths.card.getHref())} data-testid="batch-to-cards">
              {cardBatchText.submitted.toCards}
            </Button>,
          ]}
        />
      </Modal>
    </div>
  );
}

function BlockerNotice({
  blocker,
  currency,
  frozenReason,
  quantity,
  onSecondary,
}: {
  blocker: OpeningBlocker;
  currency: string;
  frozenReason: string;
  quantity: number;
  onSecondary: () => void;
}) {
  const b = text.blockers;
  switch (blocker.kind) {
    case 'walletFrozen':
      return (
        <Alert
          type="error"
          showIcon
          title={b.walletFrozen}
          description={frozenReason ? b.walletFrozenReason(frozenReason) : b.walletFrozenNoReason}
          data-testid="blocker-wallet-frozen"
        />
      );
    case 'productOff':
      return <Alert type="warning" showIcon title={b.productOff} description={b.productOffHint} data-testid="blocker-product-off" />;
    case 'quotaUsed':
      return <Alert type="warning" showIcon title={b.quotaUsed} description={b.quotaUsedHint(blocker.limit)} data-testid="blocker-quota" />;
    case 'quotaShort':
      return (
        <Alert
          type="warning"
          showIcon
          title={cardBatchText.blockers.quotaShort}
          description={cardBatchText.blockers.quotaShortHint(blocker.remaining)}
          data-testid="blocker-quota-short"
        />
      );
    case 'overBatchMax':
      return (
        <Alert
          type="warning"
          showIcon
          title={cardBatchText.blockers.overBatchMax}
          description={cardBatchText.blockers.overBatchMaxHint(blocker.max)}
          data-testid="blocker-batch-max"
        />
      );
    case 'batchRunning':
      return (
        <Alert
          type="info"
          showIcon
          title={cardBatchText.blockers.running}
          description={cardBatchText.blockers.runningHint(blocker.done, blocker.total)}
          data-testid="blocker-batch-running"
        />
      );
    case 'secondary':
      return (
        <Alert
          type="info"
          showIcon
          title={b.secondary}
          description={b.secondaryHint}
          action={
            <Button size="small" onClick={onSecondary}>
              {b.secondaryAction}
            </Button>
          }
          data-testid="blocker-secondary"
        />
      );
    case 'insufficient':
      return (
        <Alert
          type="error"
          showIcon
          title={b.insufficient}
          description={
            quantity > 1
              ? cardBatchText.blockers.insufficientHint(blocker.total, blocker.available, currency)
              : b.insufficientHint(blocker.total, blocker.available, currency)
          }
          data-testid="blocker-insufficient"
        />
      );
  }
}
