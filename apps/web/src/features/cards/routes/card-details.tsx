import { type CardAction, type CardItem, cancelMovesMoney } from '@portal/contract/cards';
import { toMinorUnits } from '@portal/contract/money';
import { CreditCardOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { useIsFetching, useQueryClient } from '@tanstack/react-query';
import { Button, Result, Skeleton, Tooltip } from 'antd';
import { type ComponentType, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { RefreshAction } from '../../../components/page-action.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { StaleDataNote } from '../../../components/stale-data-note.tsx';
import { formatDateTime } from '../../../lib/date-time.ts';
import { formatAmount } from '../../../lib/money-format.ts';
import { topupFeeText } from '../lib/fee-text.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { paths } from '../../../lib/paths.ts';
import { useSingleSubmission } from '../../../lib/use-single-submission.ts';
import { cardCommonText } from '../../../locales/zh-CN/card-common.ts';
import { cardDetailsText } from '../../../locales/zh-CN/card-details.ts';
import { useWalletStatusStore } from '../../../stores/wallet-status.ts';
import { cardAnswers } from '../../../domain/cards/api/card-keys.ts';
import { useDeleteCard } from '../api/delete-card.ts';
import { isCardNotFound, useCard } from '../api/get-card.ts';
import { useOpenedAvailable } from '../../../domain/cards/api/get-opened-available.ts';
import { useAccountBalance } from '../../../domain/wallet/api/get-account-balance.ts';
import { useWalletStatus } from '../../../domain/wallet/api/get-balance-status.ts';
import { useUpdateCardStatus } from '../api/update-card-status.ts';
import { CardActions } from '../components/card-actions.tsx';
import { CardChangedDialog } from '../components/card-changed-dialog.tsx';
import { CardFace } from '../components/card-face.tsx';
import { CardStateNotice } from '../components/card-state-notice.tsx';
import { CardStatusTag } from '../components/card-status-tag.tsx';
import { ConfirmActionDialog, type ConfirmedAction } from '../components/confirm-action-dialog.tsx';
import { NicknameEditor } from '../components/nickname-editor.tsx';
import { RechargeDialog } from '../components/recharge-dialog.tsx';
import { RevealDialog } from '../components/reveal-dialog.tsx';
import { useTradePasswordConfirmation } from '../../../domain/trade-password/components/trade-password-confirm.tsx';
import { WithdrawDialog } from '../components/withdraw-dialog.tsx';
import { CardHolder } from '../components/card-holder.tsx';
import { CardTagsCell } from '../components/card-tags.tsx';
import { cardListText } from '../../../locales/zh-CN/card-list.ts';
import { cardActivityKey } from '../api/get-card-activity.ts';
import { CardActivity } from '../components/card-activity.tsx';
import { useCans } from '../../../domain/team/lib/use-can.ts';
import { type CardDialog, canRevealCard, cardChangeFor } from '../lib/dialog-card-change.ts';
import { unansweredMessage, useIdempotencyKey } from '../lib/use-idempotency-key.ts';
import styles from './card-details.module.css';

const text = cardDetailsText;

/**
 * /card-details?id= (product.md §4): the card's face with its number masked (查看卡号 shows it after
 * an access code), its nickname changed in place, balance, status and what the status means (who
 * froze it and why, the issuer at work, why it failed), the actions its `actions` allow, and its
 * controls (limits, blocked categories, allowed countries) and its transactions, where a decline's fix
 * opens the top-up, the unfreeze or the controls. CARD_STATUS and CARD_TRANSACTION events show what
 * changed live; below them 操作记录, what members did to the card. An unknown id says 卡片不存在.
 */
/**
 * The card's spending below it (its controls and transactions, features/spending), given by the app's
 * route: a decline's fix that is a top-up or an unfreeze opens this screen's dialog.
 */
export interface CardSpendingProps {
  card: CardItem;
  onRecharge: () => void;
  onUnfreeze: () => void;
}

export function CardDetails({ spending }: { spending: ComponentType<CardSpendingProps> }) {
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const id = search.get('id') ?? '';
  const fetching = useIsFetching(cardAnswers.ofCard(id)) + useIsFetching({ queryKey: cardActivityKey(id) }) > 0;
  const back = () => navigate(paths.card.getHref());
  const refresh = () => {
    void queryClient.invalidateQueries(cardAnswers.ofCard(id));
    void queryClient.invalidateQueries({ queryKey: cardActivityKey(id) });
  };

  return (
    <PageFrame
      title={text.title}
      onBack={back}
      extra={id ? <RefreshAction label={text.refresh} fetching={fetching} onClick={refresh} /> : null}
    >
      {id ? <CardPage id={id} onBack={back} spending={spending} /> : <NotFound onBack={back} />}
    </PageFrame>
  );
}

function NotFound({ onBack }: { onBack: () => void }) {
  return (
    <Result
      icon={
        <span className={styles.notFoundIcon} aria-hidden="true">
          <CreditCardOutlined />
        </span>
      }
      title={text.notFound}
      subTitle={text.notFoundHint}
      extra={
        <Button type="primary" onClick={onBack}>
          {cardCommonText.back}
        </Button>
      }
      data-testid="card-not-found"
    />
  );
}

function CardPage({ id, onBack, spending }: { id: string; onBack: () => void; spending: ComponentType<CardSpendingProps> }) {
  const card = useCard(id);
  if (card.isPending) {
    return (
      <div className={styles.top} role="status" aria-label={text.loading} aria-busy="true" data-testid="card-loading">
        <div className={styles.faceLoading} />
        <Skeleton active title={{ width: '40%' }} paragraph={{ rows: 5 }} />
      </div>
    );
  }
  if (card.isError && isCardNotFound(card.error)) return <NotFound onBack={onBack} />;
  // a card already shown stays on screen when a refresh fails (its dialogs keep what was typed)
  if (card.data === undefined) {
    return (
      <Result
        status="warning"
        title={text.loadFailed}
        subTitle={text.loadFailedHint}
        extra={
          <Button type="primary" onClick={() => void card.refetch()}>
            {cardCommonText.retry}
          </Button>
        }
      />
    );
  }
  return (
    <>
      <StaleDataNote queries={[card]} />
      <CardView card={card.data} spending={spending} />
    </>
  );
}

type OpenDialog = CardDialog | null;

/** The title and the action's name of each dialog, for the line that stands in for it once the card changed. */
function dialogCopy(dialog: CardDialog, nickname: string) {
  if (dialog === 'reveal') return { title: text.reveal, action: text.reveal };
  if (dialog === 'recharge') return { title: `${text.recharge.title} · ${nickname}`, action: text.actions.RECHARGE };
  if (dialog === 'withdraw') return { title: `${text.withdraw.title} · ${nickname}`, action: text.actions.WITHDRAW };
  return { title: text.confirm[dialog].title, action: text.actions[dialog] };
}

function CardView({ card, spending: Spending }: { card: CardItem; spending: ComponentType<CardSpendingProps> }) {
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const available = useOpenedAvailable();
  const balances = useAccountBalance();
  // asked again on this screen: its answer keeps the wallet-status store, read below, up to date
  useWalletStatus();
  const walletFrozen = useWalletStatusStore((state) => state.isWalletFreeze);
  const changeStatus = useUpdateCardStatus(card.id);
  const close = useDeleteCard(card.id);
  // a card that holds money, held included, gives it back to the wallet when cancelled: that asks for the trade password
  const deleteTrade = useTradePasswordConfirmation({ needed: cancelMovesMoney({ available: toMinorUnits(card.balance), held: toMinorUnits(card.held) }) });
  // kept here, not in the dialogs: a retry after closing and reopening one still sends the same key
  const rechargeKeys = useIdempotencyKey();
  const withdrawKeys = useIdempotencyKey();

  const product = available.data?.products.find((candidate) => candidate.id === card.product_id);
  const walletAvailable = balances.data?.find((balance) => balance.currency === card.currency)?.available;
  const canReveal = canRevealCard(card);
  // 查看卡号 and the nickname are offered to the roles that may (cards.reveal, cards.manage), hidden from the others
  const may = useCans(['cards.reveal', 'cards.manage']);
  const statusChange = useSingleSubmission();
  const [unanswered, setUnanswered] = useState<string | null>(null);
  // the card as it is now (events keep it live): a dialog it no longer allows says what changed instead
  const changed = dialog !== null && !statusChange.pending ? cardChangeFor(dialog, card) : null;
  const shown = changed === null ? dialog : null;
  const closeDialog = () => {
    setDialog(null);
    setUnanswered(null);
  };

  const act = (action: CardAction) => {
    if (action === 'RECHARGE') setDialog('recharge');
    else if (action === 'WITHDRAW') setDialog('withdraw');
    else setDialog(action);
  };


  const confirm = async (action: ConfirmedAction) => {
    setUnanswered(null);
    try {
      if (action === 'DELETE') {
        const confirmation = await deleteTrade.collect();
        if (!confirmation) return;
        await close.mutateAsync(confirmation);
      } else await changeStatus.mutateAsync(action);
    } catch (error) {
      // a refusal of the trade password stays on its field; no answer keeps the dialog open for the
      // same press again; for anything else the HTTP module said why, and the card is read again and
      // shows what it allows now
      if (deleteTrade.refused(error)) return;
      const message = unansweredMessage(error);
      if (message !== null) {
        setUnanswered(message);
        return;
      }
      setDialog(null);
      return;
    }
    setDialog(null);
    notifySuccess(text.confirm[action].done);
  };

  return (
    <>
      <div className={styles.top}>
        <div className={styles.faceColumn}>
          <CardFace card={card} />
          {may['cards.reveal'] ? (
            <Tooltip title={canReveal ? undefined : text.revealUnavailable}>
              <Button className={styles.reveal} icon={<SafetyCertificateOutlined />} onClick={() => setDialog('reveal')} disabled={!canReveal} block>
                {text.reveal}
              </Button>
            </Tooltip>
          ) : null}
        </div>

        <div className={styles.info}>
          <div className={styles.titleRow}>
            <NicknameEditor id={card.id} nickname={card.nickname} editable={card.status !== 'DELETE' && may['cards.manage']} />
            <CardStatusTag status={card.status} />
          </div>

          <CardStateNotice card={card} />

          <dl className={styles.balances}>
            <div>
              <dt className={styles.balanceLabel}>{text.balance}</dt>
              <dd className={styles.balance} data-testid="card-balance">
                {formatAmount(card.balance)}
                <span className={styles.currency}>{card.currency}</span>
              </dd>
            </div>
            <div>
              <dt className={styles.balanceLabel}>
                <Tooltip title={text.heldHint}>
                  <span className={styles.hinted}>{text.held}</span>
                </Tooltip>
              </dt>
              <dd className={styles.held} data-testid="card-held">
                {formatAmount(card.held)}
                <span className={styles.currency}>{card.currency}</span>
              </dd>
            </div>
          </dl>

          <CardActions actions={card.actions} onAction={act} />

          <dl className={styles.facts}>
            <div className={styles.fact}>
              <dt>{text.info.product}</dt>
              <dd>{card.product_name}</dd>
            </div>
            <div className={styles.fact}>
              <dt>{text.info.brand}</dt>
              <dd>{cardCommonText.brand[card.brand]}</dd>
            </div>
            <div className={styles.fact}>
              <dt>{text.info.currency}</dt>
              <dd>
                {card.currency} {cardCommonText.currencyName[card.currency]}
              </dd>
            </div>
            <div className={styles.fact}>
              <dt>{text.info.createdAt}</dt>
              <dd>{formatDateTime(card.created_at)}</dd>
            </div>
            {/* the terms the card was opened under, which its top-ups and declines are charged by */}
            <div className={styles.fact} title={text.info.feesHint}>
              <dt>{text.info.topupFee}</dt>
              <dd data-testid="card-topup-fee">{topupFeeText({ ...card.fees, currency: card.currency })}</dd>
            </div>
            <div className={styles.fact} title={text.info.feesHint}>
              <dt>{text.info.declineFee}</dt>
              <dd data-testid="card-decline-fee">
                {formatAmount(card.fees.decline_fee)} {card.currency}
              </dd>
            </div>
            <CardHolder card={card} />
            <div className={styles.fact} data-testid="card-details-tags">
              <dt>{cardListText.columns.tags}</dt>
              <dd>
                <CardTagsCell card={card} editable={card.status !== 'DELETE' && may['cards.manage']} />
              </dd>
            </div>
          </dl>
        </div>
      </div>

      <Spending card={card} onRecharge={() => setDialog('recharge')} onUnfreeze={() => setDialog('UNFREEZE')} />
      <CardActivity card={card} />

      <RevealDialog open={shown === 'reveal'} card={card} onClose={closeDialog} />
      <RechargeDialog
        open={shown === 'recharge'}
        card={card}
        product={product}
        walletAvailable={walletAvailable}
        walletFrozen={walletFrozen}
        keys={rechargeKeys}
        onClose={closeDialog}
      />
      <WithdrawDialog open={shown === 'withdraw'} card={card} keys={withdrawKeys} onClose={closeDialog} />
      <ConfirmActionDialog
        action={shown === 'FREEZE' || shown === 'UNFREEZE' || shown === 'DELETE' ? shown : null}
        card={card}
        pending={statusChange.pending}
        trade={deleteTrade}
        unanswered={unanswered}
        onConfirm={(action) => void statusChange.run(() => confirm(action))}
        onCancel={closeDialog}
      />
      <CardChangedDialog status={changed} {...(dialog ? dialogCopy(dialog, card.nickname) : { title: '', action: '' })} onClose={closeDialog} />
    </>
  );
}
