// @vitest-environment jsdom
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { stubApi } from '../../../testing/api.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { messageKeys } from '../api/message-keys.ts';
import { type Notice, useNoticesStore } from '../stores/notices.ts';
import { stackHeight } from '../lib/notice-placement.ts';
import { MessageNotices, NoticeStack } from './message-notices.tsx';

const READ_STATUS = '/msg-center/station-msg/read-status';

const notice = (id: string, extra: Partial<Notice> = {}): Notice => ({
  id,
  kind: 'message',
  type: 'NOTICE',
  title: `消息${id}`,
  content: '',
  status: 'success',
  ...extra,
});

const show = (...notices: Notice[]) =>
  act(() => {
    for (const one of notices) useNoticesStore.getState().show(one);
  });
const shownTitles = () => screen.queryAllByTestId('notice-title').map((title) => title.textContent);

describe('the floating notices', () => {
  beforeEach(() => useNoticesStore.getState().clear());

  it('stack the newest on top, at most five, the title cut to 15 characters', () => {
    renderScreen(<MessageNotices />, { at: '/wallet' });
    expect(screen.queryByRole('region', { name: '新消息' })).toBeNull();
    show(notice('1', { title: '您的钱包已被冻结，请联系客服了解原因' }), ...['2', '3', '4', '5', '6'].map((id) => notice(id)));
    expect(shownTitles()).toEqual(['消息6', '消息5', '消息4', '消息3', '消息2']);
    show(notice('7', { title: '您的钱包已被冻结，请联系客服了解原因', content: '冻结原因：风控' }));
    expect(shownTitles()[0]).toBe('您的钱包已被冻结，请联系客服了…');
    expect(screen.getByText('冻结原因：风控')).toBeInTheDocument();
  });

  it('close one at a time', async () => {
    renderScreen(<MessageNotices />, { at: '/wallet' });
    show(notice('1'), notice('2'), notice('3'));
    const second = screen.getAllByTestId('message-notice')[1] as HTMLElement;
    await userEvent.click(within(second).getByRole('button', { name: '关闭通知' }));
    expect(shownTitles()).toEqual(['消息3', '消息1']);
  });

  it('open the message center on the message, marked read, with the new unread count for the bell', async () => {
    const calls = stubApi({ [READ_STATUS]: { unread_quantity: 4 } });
    const { location, queryClient } = renderScreen(<MessageNotices />, { at: '/wallet' });
    show(notice('m-1'), notice('m-2'));
    await userEvent.click(screen.getByRole('button', { name: /消息m-1/ }));
    await waitFor(() => expect(location.current?.pathname).toBe('/information-center'));
    expect(location.current?.search).toBe('');
    expect(location.current?.state).toEqual({ open: { id: 'm-1', kind: 'message' } });
    expect(calls).toEqual([{ method: 'put', url: READ_STATUS, body: { id: 'm-1' } }]);
    expect(queryClient.getQueryData(messageKeys.unreadQuantity())).toEqual({ count: 4 });
  });

  it('open an announcement on the announcements’ tab, even when marking it read fails', async () => {
    stubApi({ [READ_STATUS]: new Error('当前网络异常，请检查网络设置后再次尝试操作') });
    const { location } = renderScreen(<MessageNotices />, { at: '/card' });
    show(notice('a-1', { kind: 'announcement', title: '系统维护公告' }));
    await userEvent.click(screen.getByRole('button', { name: /系统维护公告/ }));
    await waitFor(() => expect(location.current?.pathname).toBe('/information-center'));
    expect(location.current?.search).toBe('?tab=announcement');
    expect(location.current?.state).toEqual({ open: { id: 'a-1', kind: 'announcement' } });
  });

  it('go away on the message pages, which show the messages themselves', () => {
    show(notice('1'), notice('2'));
    renderScreen(<MessageNotices />, { at: '/information-center' });
    expect(screen.queryByTestId('message-notice')).toBeNull();
    expect(screen.queryByRole('button', { name: /条新消息/ })).toBeNull();
    expect(useNoticesStore.getState().notices).toEqual([]);
  });

  it('draw as many as the room holds, 80 px apart, and fold only the rest into +N, drawn once opened', async () => {
    const five = ['5', '4', '3', '2', '1'].map((id) => notice(id));
    // room for two and the +N line under them
    render(<NoticeStack notices={five} placement={{ docked: false, bottom: 24, room: stackHeight(2, 5) }} onOpen={() => {}} />);
    expect(shownTitles()).toEqual(['消息5', '消息4']);
    expect(screen.getAllByTestId('message-notice').map((card) => card.style.top)).toEqual(['0px', '80px']);
    const more = screen.getByRole('button', { name: '另有 3 条新消息' });
    expect(more).toHaveTextContent('+3');
    expect(more).toHaveAttribute('aria-expanded', 'false');

    await userEvent.click(more);
    expect(more).toHaveAttribute('aria-expanded', 'true');
    expect(shownTitles()).toEqual(['消息5', '消息4', '消息3', '消息2', '消息1']);
  });

  it('fold into one line, N 条新消息, when not one notice fits', async () => {
    const three = ['3', '2', '1'].map((id) => notice(id));
    render(<NoticeStack notices={three} placement={{ docked: false, bottom: 12, room: stackHeight(1, 3) - 1 }} onOpen={() => {}} />);
    expect(screen.queryByTestId('message-notice')).toBeNull();
    const summary = screen.getByRole('button', { name: '3 条新消息' });
    await userEvent.click(summary);
    expect(shownTitles()).toEqual(['消息3', '消息2', '消息1']);
  });

  it('show every notice, in a column, in the dock', () => {
    const three = ['3', '2', '1'].map((id) => notice(id));
    render(<NoticeStack notices={three} placement={{ docked: true, bottom: 0, room: 0 }} onOpen={() => {}} />);
    expect(shownTitles()).toEqual(['消息3', '消息2', '消息1']);
    expect(screen.queryByTestId('notices-summary')).toBeNull();
  });
});
