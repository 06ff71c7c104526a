// @vitest-environment jsdom
import type { ActivityItem, Role } from '@portal/contract/team';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { accountInfo } from '../../../domain/cards/testing/fixtures.ts';
import { ApiError } from '../../../lib/http.ts';
import { stubApi } from '../../../testing/api.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { setScreenWidth } from '../../../testing/screen.ts';
import { ActivitySection } from './activity-section.tsx';

const entry = (overrides: Partial<ActivityItem>): ActivityItem => ({
  id: 'a-1',
  at: '2026-03-01T02:03:04.000Z',
  member_id: 'm-1',
  member_label: '138****8000（所有者）',
  kind: 'CARD',
  summary: '冻结卡片 旅行卡（****4242）',
  card_id: 'card-1',
  amount: null,
  currency: null,
  ip: '1.2.3.4',
  device: 'Chrome 131 · macOS',
  ...overrides,
});

const ENTRIES = [
  entry({ id: 'a-2', kind: 'MONEY', summary: '卡片充值 旅行卡（****4242） 10.00 USD', amount: '10.00', currency: 'USD', at: '2026-03-01T03:00:00.000Z' }),
  entry({ id: 'a-1' }),
  entry({ id: 'a-0', kind: 'MEMBER', summary: '撤销邀请', card_id: null, member_id: 'm-2', member_label: '139****9000（管理员）', ip: '', device: '' }),
];

const MEMBERS = [
  { id: 'm-1', label: '138****8000（所有者）' },
  { id: 'm-2', label: '139****9000（管理员）' },
  { id: 'm-3', label: '137****7000（成员）' },
];

const page = (items: ActivityItem[]) => ({ items, total: items.length, page: 1, page_size: 20 });

function stub(role: Role, activity: unknown) {
  return stubApi({
    '/account/info': { ...accountInfo(false), role },
    '/team/activity/members': { items: MEMBERS },
    '/team/activity': activity,
  });
}

afterEach(() => setScreenWidth(1280));

describe('操作日志', () => {
  it.each([
    ['a table', 1280],
    ['lines on phones', 375],
  ])('shows each entry as %s: time, who, what, the card, the amount and where from', async (_, width) => {
    setScreenWidth(width);
    stub('OWNER', page(ENTRIES));
    renderScreen(<ActivitySection />);
    const rows = await screen.findAllByTestId('activity-row');
    expect(rows.map((row) => within(row).getByTestId('activity-summary').textContent)).toEqual(ENTRIES.map((item) => item.summary));
    const [money, freeze, member] = rows as [HTMLElement, HTMLElement, HTMLElement];
    expect(money).toHaveTextContent('2026-03-01 11:00:00');
    expect(within(money).getByTestId('activity-amount')).toHaveTextContent('10.00USD');
    expect(within(freeze).getByRole('link', { name: '查看卡片' })).toHaveAttribute('href', '/card-details?id=card-1');
    expect(within(freeze).getByTestId('activity-source')).toHaveTextContent('1.2.3.4');
    expect(within(freeze).getByTestId('activity-source')).toHaveTextContent('Chrome 131 · macOS');
    expect(within(member).getByTestId('activity-member')).toHaveTextContent('139****9000（管理员）');
    expect(within(member).queryByRole('link')).toBeNull();
  });

  it('offers a 财务 every member in the 操作人 filter, not only those the page shows', async () => {
    stub('FINANCE', page(ENTRIES.slice(0, 1)));
    renderScreen(<ActivitySection />);
    await screen.findAllByTestId('activity-row');
    fireEvent.mouseDown(within(screen.getByTestId('filter-member')).getByRole('combobox'));
    await screen.findByTitle(MEMBERS[2]?.label ?? '');
    const options = [...document.querySelectorAll('.ant-select-item-option')];
    expect(options.map((option) => option.textContent)).toEqual(MEMBERS.map((member) => member.label));
  });

  it('asks the API with the filters in the address, China-time days as from and to', async () => {
    const calls = stub('OWNER', page([]));
    renderScreen(<ActivitySection />, { at: '/settings?kind=MONEY&member=m-2&start=2026-03-01&end=2026-03-02&page=2' });
    await screen.findByText('没有符合条件的操作记录');
    const asked = calls.filter((call) => call.url === '/team/activity').map((call) => call.params);
    expect(asked[0]).toEqual({ kind: 'MONEY', member_id: 'm-2', from: '2026-03-01', to: '2026-03-02', page: 2, page_size: 20 });
    expect(screen.getByTestId('activity-export')).toBeDisabled();
  });

  it('says when there is nothing yet, and offers a retry when the log could not be read', async () => {
    stub('OWNER', page([]));
    const first = renderScreen(<ActivitySection />);
    await screen.findByText('暂无操作记录');
    first.unmount();

    let answer: unknown = new ApiError({ kind: 'network', message: '网络异常' });
    stub('OWNER', () => answer);
    renderScreen(<ActivitySection />);
    await screen.findByText('操作日志加载失败');
    answer = page(ENTRIES);
    await userEvent.click(screen.getByRole('button', { name: /重\s*试/ }));
    await waitFor(() => expect(screen.getAllByTestId('activity-row')).toHaveLength(3));
  });
});
