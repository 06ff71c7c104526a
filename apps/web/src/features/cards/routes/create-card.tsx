import { Button, Empty, Result, Skeleton } from 'antd';
import type { ReactNode } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { PageFrame } from '../../../components/page-frame.tsx';
import { StaleDataNote } from '../../../components/stale-data-note.tsx';
import { useOpenedAvailable } from '../../../domain/cards/api/get-opened-available.ts';
import { paths } from '../../../lib/paths.ts';
import { cardCreateText } from '../../../locales/zh-CN/card-create.ts';
import styles from '../components/create-card.module.css';
import { OpeningForm } from '../components/opening-form.tsx';
import type { UseBatchOpening } from '../lib/batch-opening.ts';
import { openingAddress } from '../lib/opening-address.ts';
import { permissionDeniedMessage } from '@portal/contract/team';
import { useCan, useRole } from '../../../domain/team/lib/use-can.ts';
import { teamText } from '../../../locales/zh-CN/team.ts';

const text = cardCreateText;

/**
 * /create-card, 开卡 (product.md §4): the products the account may open, a first load and a
 * nickname, the cost before confirming (contract openingCost, the server's own sum) and the wallet
 * after it. What blocks an opening (a frozen wallet, too little money, no quota, a product off, data
 * the product needs) is said before anything is sent. An account without its verification goes to
 * it first and comes back here, the chosen product kept in the address. More than one card is a
 * batch (features/batches, given by the app's route).
 */
export function CreateCard({ useBatchOpening }: { useBatchOpening: UseBatchOpening }) {
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const available = useOpenedAvailable();
  const roleKnown = useRole() !== undefined;
  const mayOpen = useCan('cards.open');
  const mayVerify = useCan('account.verify');

  let body: ReactNode;
  if (roleKnown && !mayOpen) {
    // a role that may not open cards reached the address anyway: nothing to open with
    body = <Result status="403" title={teamText.noPermission} subTitle={permissionDeniedMessage('cards.open')} data-testid="create-card-denied" />;
  } else if (available.isPending) {
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
  } else if (!available.data.verification.basic && !mayVerify) {
    body = <Result status="info" title={teamText.unverified.title} subTitle={teamText.unverified.hint} data-testid="create-card-unverified" />;
  } else if (!available.data.verification.basic) {
    // replaced: Back from the verification leaves the opening instead of bouncing into it again
    return <Navigate to={paths.createCardVerification.getHref(openingAddress(search.get('product')))} replace />;
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
        <OpeningForm answer={available.data} useBatchOpening={useBatchOpening} />
      </>
    );
  }

  return (
    <PageFrame title={text.title} onBack={() => navigate(paths.card.getHref())}>
      {body}
    </PageFrame>
  );
}
