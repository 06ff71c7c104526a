import { batchPercent, batchShares, type BatchStatusAnswer } from '@portal/contract/card-batches';
import { CloseOutlined, CreditCardOutlined, MinusOutlined } from '@ant-design/icons';
import { Button, Progress } from 'antd';
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { FloatingLayer } from '../../../components/floating-layers.tsx';
import { cardBatchText } from '../../../locales/zh-CN/card-batch.ts';
import { useBatchStatus } from '../api/get-batch-status.ts';
import { BATCH_WIDGET_KEY, type BatchWidgetState, readBatchWidgetState, writeBatchWidgetState } from '../lib/batch-widget-state.ts';
import { ProgressCard } from '../../../components/progress-card.tsx';
import styles from './batch-progress.module.css';
import { BulkProgressPanel, useFollowedBulk } from '../../../domain/bulk/components/bulk-progress-panel.tsx';

const text = cardBatchText.widget;

/** How long a batch whose every card was issued stays shown (spec §4). */
export const SUCCESS_SHOWN_MS = 3_000;

/** The widget's choices, shared with the other tabs through local storage. */
function useWidgetState() {
  const [state, setState] = useState<BatchWidgetState>(readBatchWidgetState);
  useEffect(() => {
    const follow = (event: StorageEvent) => {
      if (event.key === BATCH_WIDGET_KEY) setState(readBatchWidgetState());
    };
    window.addEventListener('storage', follow);
    return () => window.removeEventListener('storage', follow);
  }, []);
  const update = useCallback((change: Partial<BatchWidgetState>) => {
    setState((previous) => {
      const next = { ...previous, ...change };
      writeBatchWidgetState(next);
      return next;
    });
  }, []);
  return [state, update] as const;
}

/** The bar: the issued cards' share in green, the failed cards' share in red, the rest still to come. */
function SharesBar({ batch, percent, running }: { batch: BatchStatusAnswer; percent: number; running: boolean }) {
  const shares = batchShares(batch);
  return (
    <div className={styles.barRow}>
      <div
        className={running ? `${styles.bar} ${styles.barRunning}` : styles.bar}
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-label={text.region}
        data-testid="batch-percent"
        data-percent={percent}
      >
        <span className={styles.barSuccess} style={{ width: `${shares.success}%` }} data-testid="batch-bar-success" />
        <span className={styles.barFail} style={{ width: `${shares.fail}%` }} data-testid="batch-bar-fail" />
      </div>
      <span className={styles.percent}>{percent}%</span>
    </div>
  );
}

/**
 * Whether the element was on screen at least half of it: the customer has seen what it says.
 * Without an IntersectionObserver (an old browser), shown is seen.
 */
function useSeen(active: boolean) {
  const ref = useRef<HTMLElement>(null);
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    if (!active) {
      setSeen(false);
      return;
    }
    const element = ref.current;
    if (!element || typeof IntersectionObserver === 'undefined') {
      setSeen(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setSeen(true);
      },
      { threshold: 0.5 },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [active]);
  return [ref, seen] as const;
}

/**
 * 批量开卡进度 (spec §4), on every page of the signed-in layout: the account's batch as the server
 * answers it on start (so a reload or a new tab finds it), asked again every 3 s while it runs and moved
 * at once by BATCH_PROGRESS events. percent = (success + fail) / total, 成功 n / 失败 m / 共 t. All
 * succeeded: shown, then hidden after 3 s. Any failed: 查看失败原因 opens the batch's message, and once
 * the result was seen, the next screen shows it folded to its chip. It can be minimised to the chip and
 * expanded again. One of the floating layers (components/floating-layers.tsx): it never covers a control.
 */
export function BatchProgress({ onOpenMessage }: { onOpenMessage: (messageId: string) => void }) {
  const status = useBatchStatus();
  const [widget, update] = useWidgetState();
  const batch = status.data;
  // a bulk action on cards shows in the same widget, under the batch when both run
  const bulk = useFollowedBulk();
  const batchId = batch?.batch_id ?? null;
  const shown = Boolean(batch && batchId && batch.total_count > 0 && widget.dismissed !== batchId);
  const outcome = batch?.status ?? null;
  const finished = Boolean(batch && !(outcome === 'RUNNING' || batch.exist));
  const [widgetRef, seen] = useSeen(shown && finished && !widget.minimised);
  const { pathname } = useLocation();
  const seenOn = useRef<string | null>(null);

  // a finished result seen on one screen is folded to the chip on the next
  useEffect(() => {
    if (seen && seenOn.current === null) seenOn.current = pathname;
    if (!seen) seenOn.current = null;
  }, [seen, pathname]);
  useEffect(() => {
    if (seenOn.current !== null && seenOn.current !== pathname && !widget.minimised) {
      seenOn.current = null;
      update({ minimised: true });
    }
  }, [pathname, widget.minimised, update]);

  useEffect(() => {
    if (!shown || outcome !== 'SUCCESS' || !batchId) return;
    const timer = window.setTimeout(() => update({ dismissed: batchId, minimised: false }), SUCCESS_SHOWN_MS);
    return () => window.clearTimeout(timer);
  }, [shown, outcome, batchId, update]);

  if (!(batch && shown && batchId) && !bulk) return null;

  let drawn: ReactNode = null;
  if (batch && shown && batchId) {

  const percent = batchPercent(batch);
  const running = outcome === 'RUNNING' || batch.exist;
  const title = running ? text.running : outcome === 'SUCCESS' ? text.success : text.fail;
  const counts = text.counts(batch.success_count, batch.fail_count, batch.total_count);

  if (widget.minimised) {
    drawn = (
      <button
        type="button"
        className={`${styles.pill} ${running ? '' : outcome === 'SUCCESS' ? styles.pillSuccess : styles.pillFail}`}
        onClick={() => update({ minimised: false })}
        aria-label={`${text.expand}：${counts}`}
        data-testid="batch-pill"
      >
        <Progress
          type="circle"
          percent={percent}
          success={{ percent: Math.floor(batchShares(batch).success), strokeColor: '#52c41a' }}
          strokeColor={batch.fail_count > 0 ? '#ff4d4f' : undefined}
          size={22}
          showInfo={false}
        />
        <span>{text.pill(percent)}</span>
      </button>
    );
  } else {
    drawn = (
    <ProgressCard
      cardRef={widgetRef}
      label={text.region}
      testId="batch-progress"
      status={running ? 'RUNNING' : (outcome ?? '')}
      icon={<CreditCardOutlined />}
      title={text.title}
      state={title}
      actions={
        <>
          <Button type="text" size="small" icon={<MinusOutlined />} aria-label={text.minimise} title={text.minimise} onClick={() => update({ minimised: true })} />
          {running ? null : (
            <Button type="text" size="small" icon={<CloseOutlined />} aria-label={text.close} title={text.close} onClick={() => update({ dismissed: batchId, minimised: false })} />
          )}
        </>
      }
    >
      <SharesBar batch={batch} percent={percent} running={running} />
      <p className={styles.counts} data-testid="batch-counts">
        <span>{text.successLabel} <b className={styles.success}>{batch.success_count}</b></span>
        <span aria-hidden="true"> / </span>
        <span>{text.failLabel} <b className={batch.fail_count > 0 ? styles.fail : undefined}>{batch.fail_count}</b></span>
        <span aria-hidden="true"> / </span>
        <span>{text.totalLabel} <b>{batch.total_count}</b></span>
      </p>
      {!running && outcome === 'FAIL' && batch.message_id ? (
        <Button
          type="link"
          className={styles.reasons}
          onClick={() => {
            update({ minimised: true });
            onOpenMessage(batch.message_id as string);
          }}
          data-testid="batch-view-failures"
        >
          {text.viewFailures}
        </Button>
      ) : null}
    </ProgressCard>
    );
  }

  }

  const bulkDrawn = bulk ? <BulkProgressPanel bulk={bulk} /> : null;
  return (
    <FloatingLayer layerKey="batch" side="left" order={0}>
      {() => (drawn && bulkDrawn ? <div className={styles.stack}>{drawn}{bulkDrawn}</div> : (drawn ?? bulkDrawn))}
    </FloatingLayer>
  );
}
