// @vitest-environment jsdom
import type { ActivityItem } from '@portal/contract/team';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { card } from '../../../domain/cards/testing/fixtures.ts';
import { ApiError } from '../../../lib/http.ts';
import { stubApi } from '../../../testing/api.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { CardActivity } from './card-activity.tsx';

const entry = (id: string, summary: string, member_label: string): ActivityItem => ({
  id,
  at: '2026-03-01T02:03:04.000Z',
  member_id: 'm-1',
  member_label,
  kind: 'CARD',
  summary,
  card_id: 'card-1',
  amount: null,
  currency: null,
  ip: '1.2.3.4',
  device: 'Chrome 131 · macOS',
});

const page = (items: ActivityItem[]) => ({ items, total: items.length, page: 1, page_size: 10 });

/** The card page's part: a card whose status a button moves on, as an answer or an event would. */
function ChangingCard() {
  const [status, setStatus] = useState<'NORMAL' | 'UNFREEZING'>('NORMAL');
  return (
    <>
      <button type="button" onClick={() => setStatus('UNFREEZING')}>
        unfreeze
      </button>
      <CardActivity card={card({ id: 'card-1', status })} />
    </>
  );
}

describe("a card's 操作记录", () => {
  it('lists who did what to the card, newest first, and reads it again when the card changes', async () => {
    let items = [entry('a-1', '冻结卡片 旅行卡（****4242）', '138****8000（所有者）')];
    const calls = stubApi({ '/card/card-1/activity': () => page(items) });
    renderScreen(<ChangingCard />);
    const section = await screen.findByRole('region', { name: '操作记录' });
    const row = await within(section).findByTestId('activity-row');
    expect(row).toHaveTextContent('冻结卡片 旅行卡（****4242）');
    expect(row).toHaveTextContent('138****8000（所有者）');
    expect(row).toHaveTextContent('2026-03-01 10:03:04');
    expect(row).toHaveTextContent('1.2.3.4 · Chrome 131 · macOS');
    expect(within(row).queryByRole('link')).toBeNull();
    expect(within(section).getByTestId('card-activity-total')).toHaveTextContent('共 1 条');
    expect(calls[0]?.params).toEqual({ page: 1, page_size: 10 });

    items = [entry('a-2', '解冻卡片 旅行卡（****4242）', '139****9000（管理员）'), ...items];
    fireEvent.click(screen.getByRole('button', { name: 'unfreeze' }));
    await waitFor(() => expect(within(section).getAllByTestId('activity-row')).toHaveLength(2));
    expect(within(section).getAllByTestId('activity-row')[0]).toHaveTextContent('139****9000（管理员）');
  });

  it('says when nothing was done to the card yet, and when its record could not be read', async () => {
    stubApi({ '/card/card-1/activity': page([]) });
    const first = renderScreen(<CardActivity card={card({ id: 'card-1' })} />);
    await screen.findByText('这张卡片暂无操作记录');
    first.unmount();

    stubApi({ '/card/card-1/activity': new ApiError({ kind: 'network', message: '网络异常' }) });
    renderScreen(<CardActivity card={card({ id: 'card-1' })} />);
    expect(await screen.findByTestId('card-activity-failed')).toHaveTextContent('操作记录加载失败');
  });
});
