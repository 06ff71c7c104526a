import { type OpenedAvailableAnswer, openingCost } from '@portal/contract/cards';
import { batchLimits, CardBatchErrorCode } from '@portal/contract/card-batches';
import { CardErrorCode } from '@portal/contract/card-errors';
import { Form } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { AvailableProduct } from '../../../domain/cards/api/get-opened-available.ts';
import { type TradePasswordPart, useTradePasswordConfirmation } from '../../../domain/trade-password/components/trade-password-confirm.tsx';
import { applyFieldErrors } from '../../../lib/form-errors.ts';
import { isApiError, markShownInPlace } from '../../../lib/http.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { paths } from '../../../lib/paths.ts';
import { useSingleSubmission } from '../../../lib/use-single-submission.ts';
import { cardCreateText } from '../../../locales/zh-CN/card-create.ts';
import { useWalletStatusStore } from '../../../stores/wallet-status.ts';
import { useAccountBalance } from '../../../domain/wallet/api/get-account-balance.ts';
import { useWalletStatus } from '../../../domain/wallet/api/get-balance-status.ts';
import { useCan } from '../../../domain/team/lib/use-can.ts';
import { useOpenCard } from '../api/open-card.ts';
import type { UseBatchOpening } from '../lib/batch-opening.ts';
import { topupFeeText } from '../lib/fee-text.ts';
import { firstLoadProblem, openingBlockers } from '../lib/opening-checks.ts';
import { openingAddress } from '../lib/opening-address.ts';
import { unansweredMessage, useIdempotencyKey } from '../lib/use-idempotency-key.ts';
import { BatchSubmittedDialog } from './batch-submitted-dialog.tsx';
import styles from './create-card.module.css';
import { OpenCardReview } from './open-card-review.tsx';
import { OpeningFields, type OpeningValues } from './opening-fields.tsx';
import { OpeningSummary } from './opening-summary.tsx';
import { ProductPicker } from './product-picker.tsx';

const text = cardCreateText;

/** A count the form may send: a whole number from 1 to the batch maximum, else null. */
const quantityOf = (value: unknown) =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= batchLimits.quantityMax ? value : null;

/**
 * The opening itself: the product (kept in the address), the form, the cost with what blocks it, the
 * review with the trade password, then one card opened (its page) or a batch accepted (the widget
 * follows it). A refusal lands on its field or sends to the verification it asks for.
 */
export function OpeningForm({ answer, useBatchOpening }: { answer: OpenedAvailableAnswer; useBatchOpening: UseBatchOpening }) {
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const [form] = Form.useForm<OpeningValues>();
  const balances = useAccountBalance();
  // asked again on this screen: its answer keeps the wallet-status store, read below, up to date
  useWalletStatus();
  const walletFrozen = useWalletStatusStore((state) => state.isWalletFreeze);
  const frozenReason = useWalletStatusStore((state) => state.reason);
  const opening = useOpenCard();
  const batch = useBatchOpening();
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

  // a first load checked against one product is checked again against the next one
  useEffect(() => {
    if (product && form.isFieldTouched('amount')) void form.validateFields(['amount']).catch(() => {});
  }, [product, form]);

  const cost = product && firstLoadProblem(product, amount) === null ? openingCost(product, amount) : null;
  const wallet = product ? balances.data?.find((balance) => balance.currency === product.currency)?.available : undefined;
  const blockers = product
    ? openingBlockers({ product, verification: answer.verification, walletFrozen, available: wallet, cost, quantity, runningBatch: batch.running })
    : [];
  const feeRule = product ? topupFeeText(product) : '';

  const goToSecondary = (id: string) => navigate(paths.createCardSecondaryVerificationData.getHref(openingAddress(id)));
  // the verification forms are for the roles that may submit them; the others are told whom to ask
  const mayVerify = useCan('account.verify');

  const choose = (next: AvailableProduct) => {
    if (next.needs_secondary && !answer.verification.secondary && mayVerify) {
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
      await batch.open({ body: { ...body, ...confirmation }, idempotencyKey: keys.keyFor(body) });
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
    if (error.code === CardErrorCode.CARD_NOT_VERIFIED && mayVerify) {
      navigate(paths.createCardVerification.getHref(openingAddress(product?.id ?? null)));
      return;
    }
    if (error.code === CardErrorCode.CARD_SECONDARY_REQUIRED && product && mayVerify) {
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

        <OpeningFields form={form} product={product} nickname={nickname} quantity={quantity} onReview={() => void review()} />
      </div>

      <OpeningSummary
        product={product}
        cost={cost}
        wallet={wallet}
        feeRule={feeRule}
        quantity={quantity}
        blockers={blockers}
        frozenReason={frozenReason}
        onSecondary={mayVerify ? () => product && goToSecondary(product.id) : undefined}
        onSubmit={() => form.submit()}
      />

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

      <BatchSubmittedDialog
        count={submitted}
        onStay={() => {
          setSubmitted(null);
          form.resetFields(['nickname', 'quantity']);
        }}
        onToCards={() => navigate(paths.card.getHref())}
      />
    </div>
  );
}
