import { BULK_ACTION_ROLE, BULK_ACTIONS, type BulkAction } from '@portal/contract/card-bulk';
import { DownOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { cardBulkText } from '../../../locales/zh-CN/card-bulk.ts';
import { useCans } from '../../team/lib/use-can.ts';
import type { BulkTarget } from './bulk-action-dialog.tsx';
import styles from './bulk-bar.module.css';

const BulkActionDialog = lazy(() => import('./bulk-action-dialog.tsx'));

const text = cardBulkText.bar;
/** Shown as buttons; the rest are in 更多操作. */
const FIRST: readonly BulkAction[] = ['FREEZE', 'UNFREEZE', 'RECHARGE', 'WITHDRAW'];

export interface BulkBarProps {
  /** the cards chosen on the list: ticked ones, or every card its filter matches; with how many they are */
  target: BulkTarget | null;
  onClear: () => void;
  /** beside the count: e.g. 选择全部 N 张符合条件的卡片 while only the page's cards are ticked */
  beside?: ReactNode;
}

/** The bulk actions the member's role may take, as the server decides them (the contract's role table). */
export function useBulkActions() {
  const may = useCans(['cards.manage', 'cards.fund', 'cards.assign']);
  return BULK_ACTIONS.filter((action) => may[BULK_ACTION_ROLE[action] as keyof typeof may]);
}

/**
 * 批量操作 over the card list once cards are ticked: the actions the member's role may take (read from
 * the contract's role table, as the server decides), each opening its review. The ticked cards, or all
 * the cards the filter matches.
 */
export function BulkBar({ target, onClear, beside }: BulkBarProps) {
  const [open, setOpen] = useState<BulkAction | null>(null);
  const actions = useBulkActions();
  if (!target || target.count === 0 || actions.length === 0) return null;
  const first = actions.filter((action) => FIRST.includes(action));
  const more = actions.filter((action) => !FIRST.includes(action));

  return (
    <section className={styles.bar} aria-label={text.region} data-testid="bulk-bar">
      <span className={styles.count} data-testid="bulk-count">
        {'filter' in target ? text.allMatching(target.count) : text.selected(target.count)}
      </span>
      {beside}
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
          onClick={onClear}
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
              onClear();
            }}
          />
        </Suspense>
      ) : null}
    </section>
  );
}
