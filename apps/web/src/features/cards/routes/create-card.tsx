import { cardLimits, nicknameRule, type OpenedAvailableAnswer, openingCost } from '@portal/contract/cards';
import { CardErrorCode } from '@portal/contract/card-errors';
import { Alert, Button, Empty, Form, Result, Skeleton } from 'antd';
import Input from 'antd/es/input/Input';
import { type ReactNode, useEffect, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { PageFrame } from '../../../components/page-frame.tsx';
import { applyFieldErrors } from '../../../lib/form-errors.ts';
import { formRule } from '../../../lib/form-rules.ts';
import { isApiError, markShownInPlace } from '../../../lib/http.ts';
import { formatAmount } from '../../../lib/money-format.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { paths } from '../../../lib/paths.ts';
import { cardCreateText } from '../../../locales/zh-CN/card-create.ts';
import { useWalletStatusStore } from '../../../stores/wallet-status.ts';
import { type AvailableProduct, useOpenedAvailable } from '../api/get-opened-available.ts';
import { useWalletBalances } from '../api/get-wallet-balances.ts';
import { useWalletStatus } from '../api/get-wallet-status.ts';
import { useOpenCard } from '../api/open-card.ts';
import { AmountInput } from '../components/amount-input.tsx';
import { CostBreakdown } from '../components/cost-breakdown.tsx';
import { OpenCardReview } from '../components/open-card-review.tsx';
import { ProductPicker } from '../components/product-picker.tsx';
import { topupFeeText } from '../lib/fee-text.ts';
import { firstLoadProblem, type OpeningBlocker, openingBlockers } from '../lib/opening-checks.ts';
import { useIdempotencyKey } from '../lib/use-idempotency-key.ts';
import styles from './create-card.module.css';

const text = cardCreateText;

interface OpeningValues {
  amount: string;
  nickname: string;
}

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
  } else if (available.isError) {
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
    body = <OpeningForm answer={available.data} />;
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
  const keys = useIdempotencyKey();
  const [reviewing, setReviewing] = useState(false);
  const [unanswered, setUnanswered] = useState(false);

  const productId = search.get('product');
  const product = answer.products.find((candidate) => candidate.id === productId) ?? null;
  const amount = Form.useWatch('amount', form) ?? '';
  const nickname = Form.useWatch('nickname', form) ?? '';

  // a first load checked against one product is checked again against the next one
  useEffect(() => {
    if (product && form.isFieldTouched('amount')) void form.validateFields(['amount']).catch(() => {});
  }, [product, form]);

  const cost = product && firstLoadProblem(product, amount) === null ? openingCost(product, amount) : null;
  const wallet = product ? balances.data?.find((balance) => balance.currency === product.currency)?.available : undefined;
  const blockers = product ? openingBlockers({ product, verification: answer.verification, walletFrozen, available: wallet, cost }) : [];
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
    setUnanswered(false);
    setReviewing(true);
  };

  const confirm = async () => {
    if (!product || !cost || opening.isPending) return;
    const body = { product_id: product.id, amount: cost.amount, nickname: nickname.trim() };
    let card: Awaited<ReturnType<typeof opening.mutateAsync>>;
    try {
      card = await opening.mutateAsync({ body, idempotencyKey: keys.keyFor(body) });
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

  /** A refusal goes where it belongs; no answer keeps the review open for a retry with the same key. */
  const refused = (error: unknown) => {
    if (!isApiError(error) || error.kind !== 'api') {
      setUnanswered(true);
      return;
    }
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
    applyFieldErrors(form, error, { product_id: 'amount' });
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
            initialValues={{ amount: '', nickname: '' }}
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
            <Form.Item name="nickname" label={text.nickname} extra={text.nicknameHint} rules={[formRule(nicknameRule)]} validateFirst>
              <Input size="large" maxLength={cardLimits.nicknameMax} showCount placeholder={text.nicknamePlaceholder} autoComplete="off" aria-required />
            </Form.Item>
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
            <CostBreakdown currency={product.currency} openFee={product.open_fee} cost={cost} available={wallet} feeRule={feeRule} />
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
          {text.submit}
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
          pending={opening.isPending}
          unanswered={unanswered}
          onConfirm={() => void confirm()}
          onCancel={() => setReviewing(false)}
        />
      ) : null}
    </div>
  );
}

function BlockerNotice({
  blocker,
  currency,
  frozenReason,
  onSecondary,
}: {
  blocker: OpeningBlocker;
  currency: string;
  frozenReason: string;
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
          description={b.insufficientHint(blocker.total, blocker.available, currency)}
          data-testid="blocker-insufficient"
        />
      );
  }
}
