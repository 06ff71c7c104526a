import { batchPercent } from '@portal/contract/card-batches';
import { CloseOutlined, CreditCardOutlined, MinusOutlined } from '@ant-design/icons';
import { Button, Progress } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { cardBatchText } from '../../../locales/zh-CN/card-batch.ts';
import { useBatchStatus } from '../api/get-batch-status.ts';
import { BATCH_WIDGET_KEY, type BatchWidgetState, readBatchWidgetState, writeBatchWidgetState } from '../lib/batch-widget-state.ts';
import styles from './batch-progress.module.css';

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

/**
 * 批量开卡进度 (spec §4), on every page of the signed-in layout: the account's batch as the server
 * answers it on start (so a reload or a new tab finds it), asked again every 3 s while it runs and moved
 * at once by BATCH_PROGRESS events. percent = (success + fail) / total, 成功 n / 失败 m / 共 t. All
 * succeeded: shown, then hidden after 3 s. Any failed: 查看失败原因 opens the batch's message. It can be
 * minimised to a pill and expanded again.
 */
export function BatchProgress({ onOpenMessage }: { onOpenMessage: (messageId: string) => void }) {
  const status = useBatchStatus();
  const [widget, update] = useWidgetState();
  const batch = status.data;
  const batchId = batch?.batch_id ?? null;
  const shown = Boolean(batch && batchId && batch.total_count > 0 && widget.dismissed !== batchId);
  const outcome = batch?.status ?? null;

  useEffect(() => {
    if (!shown || outcome !== 'SUCCESS' || !batchId) return;
    const timer = window.setTimeout(() => update({ dismissed: batchId, minimised: false }), SUCCESS_SHOWN_MS);
    return () => window.clearTimeout(timer);
  }, [shown, outcome, batchId, update]);

  if (!batch || !shown || !batchId) return null;

  const percent = batchPercent(batch);
  const running = outcome === 'RUNNING' || batch.exist;
  const title = running ? text.running : outcome === 'SUCCESS' ? text.success : text.fail;
  const counts = text.counts(batch.success_count, batch.fail_count, batch.total_count);

  if (widget.minimised) {
    return (
      <button
        type="button"
        className={`${styles.pill} ${running ? '' : outcome === 'SUCCESS' ? styles.pillSuccess : styles.pillFail}`}
        onClick={() => update({ minimised: false })}
        aria-label={`${text.expand}：${counts}`}
        data-testid="batch-pill"
      >
        <Progress type="circle" percent={percent} size={22} showInfo={false} status={running ? 'active' : outcome === 'SUCCESS' ? 'success' : 'exception'} />
        <span>{text.pill(percent)}</span>
      </button>
    );
  }

  return (
    <section className={styles.widget} aria-label={text.region} data-testid="batch-progress" data-status={running ? 'RUNNING' : outcome}>
      <header className={styles.head}>
        <CreditCardOutlined className={styles.icon} aria-hidden />
        <span className={styles.title}>
          {text.title}
          <span className={styles.state} role="status" aria-live="polite">
            {title}
          </span>
        </span>
        <Button type="text" size="small" icon={<MinusOutlined />} aria-label={text.minimise} title={text.minimise} onClick={() => update({ minimised: true })} />
        {running ? null : (
          <Button type="text" size="small" icon={<CloseOutlined />} aria-label={text.close} title={text.close} onClick={() => update({ dismissed: batchId, minimised: false })} />
        )}
      </header>
      <Progress
        percent={percent}
        status={running ? 'active' : outcome === 'SUCCESS' ? 'success' : 'exception'}
        aria-label={text.region}
        data-testid="batch-percent"
        data-percent={percent}
      />
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
    </section>
  );
}
