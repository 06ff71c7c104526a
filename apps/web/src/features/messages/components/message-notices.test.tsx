// @vitest-environment jsdom
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { stubApi } from '../../../testing/api.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { setScreenWidth } from '../../../testing/screen.ts';
import { messageKeys } from '../api/message-keys.ts';
import { type Notice, useNoticesStore } from '../stores/notices.ts';
import { MessageNotices } from './message-notices.tsx';

const READ_STATUS = '/api/v1/msg-center/station-msg/read-status';

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

  it('fold into one line on a narrow screen that opens on a tap', async () => {
    setScreenWidth(375);
    renderScreen(<MessageNotices />, { at: '/wallet' });
    show(notice('1'), notice('2'), notice('3'));
    const summary = screen.getByRole('button', { name: /3 条新消息/ });
    expect(summary).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByTestId('message-notice')).toBeNull();

    await userEvent.click(summary);
    expect(summary).toHaveAttribute('aria-expanded', 'true');
    expect(shownTitles()).toEqual(['消息3', '消息2', '消息1']);
  });

  it('fold when the window becomes narrow while they are shown', () => {
    renderScreen(<MessageNotices />, { at: '/wallet' });
    show(notice('1'), notice('2'));
    expect(screen.getAllByTestId('message-notice')).toHaveLength(2);
    act(() => setScreenWidth(600));
    expect(screen.getByRole('button', { name: /2 条新消息/ })).toBeInTheDocument();
  });

  it('fold rather than cover one of the screen’s primary controls', () => {
    // jsdom's window is 1024 × 768: the stack of two takes x 660–1000, y 596–744
    const banner = document.body.appendChild(Object.assign(document.createElement('div'), { textContent: '钱包已冻结' }));
    banner.setAttribute('data-primary-control', '');
    banner.getBoundingClientRect = () => ({ x: 0, y: 620, left: 0, top: 620, right: 1024, bottom: 700, width: 1024, height: 80, toJSON: () => ({}) });
    try {
      renderScreen(<MessageNotices />, { at: '/wallet' });
      show(notice('1'), notice('2'));
      expect(screen.getByRole('button', { name: /2 条新消息/ })).toBeInTheDocument();
    } finally {
      banner.remove();
    }
  });
});
