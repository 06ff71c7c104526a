import { CloseOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { Button, Progress } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { cardBulkText } from '../../../locales/zh-CN/card-bulk.ts';
import { useBulkAction } from '../api/bulk-actions.ts';
import { type BulkWidgetState, onBulkWidgetChange, readBulkWidgetState, writeBulkWidgetState } from '../lib/bulk-widget-state.ts';
import { ProgressCard } from '../../../components/progress-card.tsx';
import styles from './bulk-progress-panel.module.css';

const BulkResultsDialog = lazy(() => import('./bulk-results-dialog.tsx'));
const text = cardBulkText.progress;

/** The bulk action the widget follows (this tab's or another's), null when none or put away. */
export function useFollowedBulk() {
  const [state, setState] = useState<BulkWidgetState>(readBulkWidgetState);
  useEffect(() => onBulkWidgetChange(() => setState(readBulkWidgetState())), []);
  const bulk = useBulkAction(state.dismissed ? null : state.id);
  return state.dismissed || !state.id ? undefined : bulk.data;
}

/**
 * A bulk action's part of the layout's progress widget: its counts as they move, then its result, with
 * each card's result and reason one click away.
 */
export function BulkProgressPanel({ bulk }: { bulk: NonNullable<ReturnType<typeof useFollowedBulk>> }) {
  const [showing, setShowing] = useState(false);
  const ended = bulk.succeeded + bulk.failed;
  const percent = bulk.total > 0 ? Math.floor((ended * 100) / bulk.total) : 0;
  const done = bulk.status === 'DONE';
  return (
    <ProgressCard
      label={text.title(bulk.action)}
      testId="bulk-progress"
      status={bulk.status}
      icon={<ThunderboltOutlined />}
      title={text.title(bulk.action)}
      state={done ? text.done : text.running}
      actions={
        done ? (
          <Button type="text" size="small" icon={<CloseOutlined />} aria-label={text.close} title={text.close} onClick={() => writeBulkWidgetState({ id: bulk.id, dismissed: true })} />
        ) : null
      }
    >
      <Progress
        percent={percent}
        success={{ percent: bulk.total > 0 ? Math.floor((bulk.succeeded * 100) / bulk.total) : 0 }}
        strokeColor={bulk.failed > 0 ? '#ff4d4f' : undefined}
        size="small"
        data-testid="bulk-percent"
      />
      <p className={styles.counts} data-testid="bulk-counts">
        {text.counts(bulk.succeeded, bulk.failed, bulk.total)}
      </p>
      {done ? (
        <Button type="link" className={styles.results} onClick={() => setShowing(true)} data-testid="bulk-view-results">
          {text.results}
        </Button>
      ) : null}
      {showing ? (
        <Suspense fallback={null}>
          <BulkResultsDialog bulk={bulk} onClose={() => setShowing(false)} />
        </Suspense>
      ) : null}
    </ProgressCard>
  );
}
