// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { stubApi } from '../../../testing/api.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { setScreenWidth } from '../../../testing/screen.ts';
import { SessionsSection } from './sessions-section.tsx';
import { TrustedDevicesSection } from './trusted-devices-section.tsx';

const at = '2026-01-01T00:00:00Z';
const sessions = [
  { id: 's1', device: 'Chrome 131 · macOS', ip: '1.2.3.4', created_at: at, last_active_at: at, stage: 'FULL', current: true },
  { id: 's2', device: 'Safari 18 · iOS', ip: '', created_at: at, last_active_at: at, stage: 'VERIFY', current: false },
];
const devices = [{ id: 'd1', label: 'ua', device: 'Edge 131 · Windows', ip: '5.6.7.8', created_at: at, last_used_at: at, expires_at: at, current: false }];

const confirmIn = async (name: string) => {
  const popconfirm = await waitFor(() => document.querySelector('.ant-popconfirm') as HTMLElement);
  await userEvent.click(within(popconfirm).getByRole('button', { name }));
};

afterEach(() => setScreenWidth(1280));

describe.each([
  ['a table', 1280],
  ['cards on phones', 375],
])('the device records as %s', (_, width) => {
  it('marks this session, ends another after a confirm, and says so', async () => {
    setScreenWidth(width);
    const calls = stubApi({ '/account/sessions': sessions, '/account/sessions/s2': null });
    const { notices } = renderScreen(<SessionsSection />);
    const list = await screen.findByTestId('sessions');
    const rows = await within(list).findAllByTestId('session');
    expect(rows.map((row) => row.getAttribute('data-current'))).toEqual(['true', 'false']);
    expect(rows[0]).toHaveTextContent('当前会话');
    expect(rows[1]).toHaveTextContent('待安全验证');
    expect(rows[1]).toHaveTextContent('无');
    expect(within(rows[0] as HTMLElement).queryByRole('button', { name: /结束/ })).toBeNull();
    await userEvent.click(within(rows[1] as HTMLElement).getByRole('button', { name: '结束 Safari 18 · iOS' }));
    await confirmIn('结束');
    await waitFor(() => expect(notices.successes).toEqual(['已结束该登录会话']));
    expect(calls.filter((call) => call.method === 'delete').map((call) => call.url)).toEqual(['/account/sessions/s2']);
  });

  it('removes a trusted device after a confirm, and says so', async () => {
    setScreenWidth(width);
    const calls = stubApi({ '/account/devices': devices, '/account/devices/d1': null });
    const { notices } = renderScreen(<TrustedDevicesSection />);
    const [row] = await within(await screen.findByTestId('trusted-devices')).findAllByTestId('trusted-device');
    expect(row).toHaveTextContent('5.6.7.8');
    await userEvent.click(within(row as HTMLElement).getByRole('button', { name: '移除 Edge 131 · Windows' }));
    await confirmIn('移除');
    await waitFor(() => expect(notices.successes).toEqual(['已移除该受信任设备']));
    expect(calls.filter((call) => call.method === 'delete').map((call) => call.url)).toEqual(['/account/devices/d1']);
  });
});
