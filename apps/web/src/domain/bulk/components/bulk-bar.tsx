import { BULK_ACTION_ROLE, BULK_ACTIONS, type BulkAction, type BulkFilter } from '@portal/contract/card-bulk';
import { DownOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { cardBulkText } from '../../../locales/zh-CN/card-bulk.ts';
import { useCans } from '../../team/lib/use-can.ts';
import type { BulkTarget } from './bulk-action-dialog.tsx';
import styles from './bulk-bar.module.css';

const BulkActionDialog = lazy(() => import('./bulk-action-dialog.tsx'));

const text = cardBulkText.bar;
/** Shown as buttons; the rest are in 更多操作. */
const FIRST: readonly BulkAction[] = ['FREEZE', 'UNFREEZE', 'RECHARGE', 'WITHDRAW'];

export interface BulkBarProps {
  /** the cards ticked */
  selectedIds: string[];
  /** how many cards the list's filter matches, and the filter itself: "all N matching" acts on them */
  matching: { total: number; filter: BulkFilter };
  onClear: () => void;
}

/**
 * 批量操作 over the card list once cards are ticked: the actions the member's role may take (read from
 * the contract's role table, as the server decides), each opening its review. The ticked cards, or all
 * the cards the filter matches.
 */
export function BulkBar({ selectedIds, matching, onClear }: BulkBarProps) {
  const may = useCans(['cards.manage', 'cards.fund', 'cards.assign']);
  const [allMatching, setAllMatching] = useState(false);
  const [open, setOpen] = useState<BulkAction | null>(null);
  const actions = BULK_ACTIONS.filter((action) => may[BULK_ACTION_ROLE[action] as keyof typeof may]);
  if (selectedIds.length === 0 || actions.length === 0) return null;
  const target: BulkTarget = allMatching ? { filter: matching.filter, count: matching.total } : { card_ids: selectedIds, count: selectedIds.length };
  const first = actions.filter((action) => FIRST.includes(action));
  const more = actions.filter((action) => !FIRST.includes(action));

  return (
    <section className={styles.bar} aria-label={text.region} data-testid="bulk-bar">
      <span className={styles.count} data-testid="bulk-count">
        {allMatching ? text.allMatching(matching.total) : text.selected(selectedIds.length)}
      </span>
      {!allMatching && matching.total > selectedIds.length ? (
        <Button type="link" size="small" onClick={() => setAllMatching(true)} data-testid="bulk-all-matching">
          {text.selectAllMatching(matching.total)}
        </Button>
      ) : null}
      <span className={styles.actions}>
        {first.map((action) => (
          <Button key={action} size="small" danger={action === 'CANCEL'} onClick={() => setOpen(action)} data-testid={`bulk-${action}`}>
            {text.action(action)}
          </Button>
        ))}
        {more.length > 0 ? (
          <Dropdown
            trigger={['click']}
            menu={{ items: more.map((action) => ({ key: action, label: text.action(action), danger: action === 'CANCEL' })), onClick: ({ key }) => setOpen(key as BulkAction) }}
          >
            <Button size="small" data-testid="bulk-more">
              {text.more} <DownOutlined />
            </Button>
          </Dropdown>
        ) : null}
        <Button
          type="text"
          size="small"
          onClick={() => {
            setAllMatching(false);
            onClear();
          }}
        >
          {text.clear}
        </Button>
      </span>
      {open ? (
        <Suspense fallback={null}>
          <BulkActionDialog
            action={open}
            target={target}
            onClose={() => setOpen(null)}
            onStarted={() => {
              setOpen(null);
              setAllMatching(false);
              onClear();
            }}
          />
        </Suspense>
      ) : null}
    </section>
  );
}
