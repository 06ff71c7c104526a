import { Alert, Button } from 'antd';
import type { ReactNode } from 'react';
import { cardBatchText } from '../../../locales/zh-CN/card-batch.ts';
import { cardCreateText } from '../../../locales/zh-CN/card-create.ts';
import type { OpeningBlocker } from '../lib/opening-checks.ts';

const b = cardCreateText.blockers;
const batch = cardBatchText.blockers;

/** What a notice says: how grave it is, its title and hint, its test id, and the button that clears it where there is one. */
interface Notice {
  type: 'error' | 'warning' | 'info';
  title: string;
  description: string;
  testId: string;
  action?: ReactNode;
}

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
  /** the way to the secondary verification; none for a role that may not give it */
  onSecondary?: (() => void) | undefined;
}) {
  const notice = noticeOf(blocker, { currency, frozenReason, quantity, onSecondary });
  return (
    <Alert type={notice.type} showIcon title={notice.title} description={notice.description} {...(notice.action ? { action: notice.action } : {})} data-testid={notice.testId} />
  );
}

function noticeOf(
  blocker: OpeningBlocker,
  { currency, frozenReason, quantity, onSecondary }: { currency: string; frozenReason: string; quantity: number; onSecondary?: (() => void) | undefined },
): Notice {
  switch (blocker.kind) {
    case 'walletFrozen':
      return {
        type: 'error',
        title: b.walletFrozen,
        description: frozenReason ? b.walletFrozenReason(frozenReason) : b.walletFrozenNoReason,
        testId: 'blocker-wallet-frozen',
      };
    case 'productOff':
      return { type: 'warning', title: b.productOff, description: b.productOffHint, testId: 'blocker-product-off' };
    case 'quotaUsed':
      return { type: 'warning', title: b.quotaUsed, description: b.quotaUsedHint(blocker.limit), testId: 'blocker-quota' };
    case 'quotaShort':
      return { type: 'warning', title: batch.quotaShort, description: batch.quotaShortHint(blocker.remaining), testId: 'blocker-quota-short' };
    case 'overBatchMax':
      return { type: 'warning', title: batch.overBatchMax, description: batch.overBatchMaxHint(blocker.max), testId: 'blocker-batch-max' };
    case 'batchRunning':
      return { type: 'info', title: batch.running, description: batch.runningHint(blocker.done, blocker.total), testId: 'blocker-batch-running' };
    case 'secondary':
      return {
        type: 'info',
        title: b.secondary,
        description: onSecondary ? b.secondaryHint : b.secondaryByOthers,
        testId: 'blocker-secondary',
        ...(onSecondary
          ? {
              action: (
                <Button size="small" onClick={onSecondary}>
                  {b.secondaryAction}
                </Button>
              ),
            }
          : {}),
      };
    case 'insufficient':
      return {
        type: 'error',
        title: b.insufficient,
        description:
          quantity > 1
            ? batch.insufficientHint(blocker.total, blocker.available, currency)
            : b.insufficientHint(blocker.total, blocker.available, currency),
        testId: 'blocker-insufficient',
      };
  }
}
