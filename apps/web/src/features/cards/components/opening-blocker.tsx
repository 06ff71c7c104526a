import { Alert, Button } from 'antd';
import { cardBatchText } from '../../../locales/zh-CN/card-batch.ts';
import { cardCreateText } from '../../../locales/zh-CN/card-create.ts';
import type { OpeningBlocker } from '../lib/opening-checks.ts';

const text = cardCreateText;

/** One reason the opening cannot go ahead, said before anything is sent, with its way out where there is one. */
export function BlockerNotice({
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
