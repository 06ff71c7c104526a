// @vitest-environment jsdom
import type { BatchStatusAnswer } from '@portal/contract/card-batches';
import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../../testing/api.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { applyBatchEvent } from '../lib/apply-batch-event.ts';
import { BATCH_WIDGET_KEY } from '../lib/batch-widget-state.ts';
import { BatchProgress } from './batch-progress.tsx';

const STATUS = '/card/batch-create-card-status';

const batch = (overrides: Partial<BatchStatusAnswer> = {}): BatchStatusAnswer => ({
  exist: true,
  success_count: 0,
  fail_count: 0,
  total_count: 20,
  batch_id: 'b-1',
  status: 'RUNNING',
  product_id: 'p-ad',
  nickname_prefix: 'FB',
  message_id: null,
  created_at: '2026-03-01T00:00:00.000Z',
  finished_at: null,
  ...overrides,
});

/** Moves the fake clock and lets the answers it releases land. */
const tick = async (ms: number) => {
  await act(() => vi.advanceTimersByTimeAsync(ms));
  // the query library tells the screen of an answer on a zero timer set once the answer landed
  await act(() => vi.advanceTimersByTimeAsync(1));
};

/** The server's answer, changed by the test between polls. */
function stubStatus(first: BatchStatusAnswer) {
  let answer = first;
  const calls = stubApi({ [STATUS]: () => answer });
  return {
    set: (next: BatchStatusAnswer) => {
      answer = next;
    },
    polls: () => calls.filter((call) => call.url === STATUS).length,
  };
}

function draw(onOpenMessage = vi.fn()) {
  const view = renderScreen(<BatchProgress onOpenMessage={onOpenMessage} />);
  return { ...view, onOpenMessage };
}

const counts = () => screen.getByTestId('batch-counts').textContent?.replace(/\s+/g, ' ').trim();

beforeEach(() => {
  window.localStorage.removeItem(BATCH_WIDGET_KEY);
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('批量开卡进度', () => {
  it('shows nothing when the account has no batch', async () => {
    const server = stubStatus(batch({ exist: false, status: null, batch_id: null, total_count: 0 }));
    draw();
    await tick(0);
    expect(server.polls()).toBe(1);
    expect(screen.queryByTestId('batch-progress')).toBeNull();
    // nothing runs: nothing is asked again
    await tick(10_000);
    expect(server.polls()).toBe(1);
  });

  it('draws the issued and the failed cards in their shares of the bar: 48 of 50 green, 2 red', async () => {
    stubStatus(batch({ exist: false, status: 'FAIL', success_count: 48, fail_count: 2, total_count: 50, message_id: 'm-1', finished_at: '2026-03-01T00:01:00.000Z' }));
    draw();
    await tick(0);
    expect(screen.getByTestId('batch-percent')).toHaveAttribute('data-percent', '100');
    expect(screen.getByTestId('batch-bar-success').style.width).toBe('96%');
    expect(screen.getByTestId('batch-bar-fail').style.width).toBe('4%');
  });

  it('asks the server every 3 s while the batch runs: percent = (success + fail) / total, 成功 n / 失败 m / 共 t', async () => {
    const server = stubStatus(batch({ success_count: 2, fail_count: 1 }));
    draw();
    await tick(0);
    expect(screen.getByTestId('batch-progress')).toHaveAttribute('data-status', 'RUNNING');
    expect(screen.getByTestId('batch-percent')).toHaveAttribute('data-percent', '15');
    expect(counts()).toBe('成功 2 / 失败 1 / 共 20');
    server.set(batch({ success_count: 9, fail_count: 1 }));
    await tick(2_800);
    expect(counts()).toBe('成功 2 / 失败 1 / 共 20');
    await tick(200);
    expect(server.polls()).toBe(2);
    expect(counts()).toBe('成功 9 / 失败 1 / 共 20');
    expect(screen.getByTestId('batch-percent')).toHaveAttribute('data-percent', '50');
  });

  it('moves at once on a BATCH_PROGRESS event, never backwards', async () => {
    stubStatus(batch({ success_count: 1 }));
    const { queryClient } = draw();
    await tick(0);
    act(() => applyBatchEvent(queryClient, { type: 'BATCH_PROGRESS', batch_id: 'b-1', status: 'RUNNING', success_count: 12, fail_count: 2, total_count: 20, message_id: null } as never));
    await tick(0);
    expect(counts()).toBe('成功 12 / 失败 2 / 共 20');
    expect(screen.getByTestId('batch-percent')).toHaveAttribute('data-percent', '70');
    // an event of an earlier moment, arriving late, leaves the newer figures
    act(() => applyBatchEvent(queryClient, { type: 'BATCH_PROGRESS', batch_id: 'b-1', status: 'RUNNING', success_count: 5, fail_count: 0, total_count: 20, message_id: null } as never));
    await tick(0);
    expect(counts()).toBe('成功 12 / 失败 2 / 共 20');
  });

  it('all succeeded: shown, then hidden after 3 s, and not again on the next start', async () => {
    const server = stubStatus(batch({ success_count: 19 }));
    const view = draw();
    await tick(0);
    server.set(batch({ exist: false, status: 'SUCCESS', success_count: 20 }));
    await tick(3_000);
    expect(screen.getByTestId('batch-progress')).toHaveAttribute('data-status', 'SUCCESS');
    expect(counts()).toBe('成功 20 / 失败 0 / 共 20');
    expect(screen.getByRole('status')).toHaveTextContent('全部开卡成功');
    await tick(2_800);
    expect(screen.getByTestId('batch-progress')).toBeInTheDocument();
    await tick(200);
    expect(screen.queryByTestId('batch-progress')).toBeNull();
    // the polls stop once it ended
    const polls = server.polls();
    await tick(9_000);
    expect(server.polls()).toBe(polls);
    view.unmount();
    // a reload finds the same finished batch: it stays put away
    draw();
    await tick(0);
    expect(screen.queryByTestId('batch-progress')).toBeNull();
  });

  it('any failed: stays, and 查看失败原因 opens the batch’s message', async () => {
    stubStatus(batch({ exist: false, status: 'FAIL', success_count: 17, fail_count: 3, message_id: 'm-9' }));
    const { onOpenMessage } = draw();
    await tick(0);
    expect(screen.getByRole('status')).toHaveTextContent('部分卡片开卡失败');
    expect(counts()).toBe('成功 17 / 失败 3 / 共 20');
    await tick(10_000);
    expect(screen.getByTestId('batch-progress')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: '查看失败原因' }));
    expect(onOpenMessage).toHaveBeenCalledWith('m-9');
  });

  it('minimises to a pill and expands again, the choice kept across a reload', async () => {
    stubStatus(batch({ success_count: 5, fail_count: 0 }));
    const view = draw();
    await tick(0);
    fireEvent.click(screen.getByRole('button', { name: '收起' }));
    expect(screen.queryByTestId('batch-progress')).toBeNull();
    expect(screen.getByTestId('batch-pill')).toHaveTextContent('批量开卡 25%');
    view.unmount();
    draw();
    await tick(0);
    const pill = screen.getByRole('button', { name: /展开批量开卡进度/ });
    expect(pill).toHaveAccessibleName('展开批量开卡进度：成功 5 / 失败 0 / 共 20');
    fireEvent.click(pill);
    expect(screen.getByTestId('batch-progress')).toBeInTheDocument();
    expect(screen.queryByTestId('batch-pill')).toBeNull();
  });

  it('closing a failed batch’s result puts it away', async () => {
    stubStatus(batch({ exist: false, status: 'FAIL', success_count: 19, fail_count: 1, message_id: 'm-1' }));
    draw();
    await tick(0);
    fireEvent.click(screen.getByRole('button', { name: '关闭' }));
    expect(screen.queryByTestId('batch-progress')).toBeNull();
    expect(JSON.parse(window.localStorage.getItem(BATCH_WIDGET_KEY) ?? '{}')).toMatchObject({ dismissed: 'b-1' });
  });
});
