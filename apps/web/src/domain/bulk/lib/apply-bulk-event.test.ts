import type { BulkActionAnswer } from '@portal/contract/card-bulk';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { bulkKeys } from '../api/bulk-actions.ts';
import { applyBulkEvent } from './apply-bulk-event.ts';

const running: BulkActionAnswer = {
  id: 'b-1',
  action: 'RECHARGE',
  status: 'RUNNING',
  total: 30,
  succeeded: 4,
  failed: 1,
  items: [],
};

function cacheWithBulk() {
  const queryClient = new QueryClient();
  queryClient.setQueryData(bulkKeys.detail('b-1'), running);
  const state = () => queryClient.getQueryState(bulkKeys.detail('b-1'));
  return { queryClient, state, data: () => queryClient.getQueryData<BulkActionAnswer>(bulkKeys.detail('b-1')) };
}

const progress = (figures: Record<string, unknown>) => ({ type: 'BULK_ACTION_PROGRESS', bulk_id: 'b-1', action: 'RECHARGE', total: 30, ...figures });

describe('BULK_ACTION_PROGRESS', () => {
  it('moves the widget’s figures at once, without asking the server', () => {
    const { queryClient, state, data } = cacheWithBulk();
    expect(applyBulkEvent(queryClient, progress({ status: 'RUNNING', succeeded: 9, failed: 1 }))).toBe(true);
    expect(data()).toMatchObject({ status: 'RUNNING', succeeded: 9, failed: 1 });
    expect(state()?.isInvalidated).toBe(false);
  });

  it('never moves backwards on a late event', () => {
    const { queryClient, data } = cacheWithBulk();
    applyBulkEvent(queryClient, progress({ status: 'RUNNING', succeeded: 2, failed: 0 }));
    expect(data()).toMatchObject({ succeeded: 4, failed: 1 });
  });

  it('keeps an ended action ended when the last card’s event comes after the end', () => {
    const { queryClient, data } = cacheWithBulk();
    queryClient.setQueryData(bulkKeys.detail('b-1'), { ...running, status: 'DONE', succeeded: 29, failed: 1 });
    applyBulkEvent(queryClient, progress({ status: 'RUNNING', succeeded: 29, failed: 1 }));
    expect(data()).toMatchObject({ status: 'DONE', succeeded: 29, failed: 1 });
  });

  it('asks for each card’s result when the action ends, or when its figures cannot be read', () => {
    const ended = cacheWithBulk();
    applyBulkEvent(ended.queryClient, progress({ status: 'DONE', succeeded: 28, failed: 2 }));
    expect(ended.data()).toMatchObject({ status: 'DONE', succeeded: 28, failed: 2 });
    expect(ended.state()?.isInvalidated).toBe(true);
    const garbled = cacheWithBulk();
    applyBulkEvent(garbled.queryClient, progress({ status: 'SOMETHING', succeeded: -1, failed: 'x' }));
    expect(garbled.data()).toEqual(running);
    expect(garbled.state()?.isInvalidated).toBe(true);
  });

  it('leaves every other event to the others', () => {
    const { queryClient, state } = cacheWithBulk();
    expect(applyBulkEvent(queryClient, { type: 'BATCH_PROGRESS' })).toBe(false);
    expect(state()?.isInvalidated).toBe(false);
  });
});
