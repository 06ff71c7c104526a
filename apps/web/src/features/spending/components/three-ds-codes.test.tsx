// @vitest-environment jsdom
import type { ThreeDsOtp } from '@portal/contract/card-spending';
import { QueryClient } from '@tanstack/react-query';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen } from '../../../testing/render.tsx';
import { applySpendingEvent } from '../lib/apply-spending-event.ts';
import { useThreeDsStore } from '../stores/three-ds.ts';
import { ThreeDsCodes } from './three-ds-codes.tsx';

const NOW = new Date('2026-03-01T08:00:00.000Z');

const otp = (overrides: Partial<ThreeDsOtp> = {}): ThreeDsOtp => ({
  card_id: 'c-1',
  last4: '4444',
  nickname: '订阅付款',
  code: '483920',
  merchant_name: 'Meta Ads',
  amount: '1234.5',
  currency: 'USD',
  // 5 minutes from NOW
  expires_at: '2026-03-01T08:05:00.000Z',
  ...overrides,
});

/** The stream's THREE_DS_OTP event, as every open tab of the account receives it. */
const receive = (code: ThreeDsOtp) => act(() => applySpendingEvent(new QueryClient(), { type: 'THREE_DS_OTP', ...code }));
const tick = (ms: number) => act(() => vi.advanceTimersByTime(ms));

describe('3-D Secure 验证码', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(NOW);
  });
  afterEach(() => {
    act(() => useThreeDsStore.getState().clear());
    vi.useRealTimers();
  });

  it('opens a dialog with the code, merchant, amount and card the moment the event arrives', () => {
    renderScreen(<ThreeDsCodes />);
    expect(screen.queryByTestId('three-ds-dialog')).toBeNull();
    receive(otp());
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByText('3-D Secure 验证码')).toBeInTheDocument();
    expect(within(dialog).getByTestId('three-ds-code')).toHaveTextContent('483920');
    expect(within(dialog).getByTestId('three-ds-merchant')).toHaveTextContent('Meta Ads');
    expect(within(dialog).getByTestId('three-ds-amount')).toHaveTextContent('1,234.50 USD');
    expect(within(dialog).getByTestId('three-ds-card')).toHaveTextContent('订阅付款 •••• 4444');
    expect(within(dialog).getByTestId('three-ds-countdown')).toHaveTextContent('5:00');
    expect(screen.getByTestId('three-ds-notice')).toHaveTextContent('Meta Ads · 1,234.50 USD');
  });

  it('counts down to the expiry, then masks the code and says 已过期', () => {
    renderScreen(<ThreeDsCodes />);
    receive(otp({ expires_at: '2026-03-01T08:01:05.000Z' }));
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByTestId('three-ds-countdown')).toHaveTextContent('1:05');
    tick(1_000);
    expect(within(dialog).getByTestId('three-ds-countdown')).toHaveTextContent('1:04');
    tick(60_000);
    expect(within(dialog).getByTestId('three-ds-countdown')).toHaveTextContent('0:04');
    expect(within(dialog).getByTestId('three-ds-code')).toHaveTextContent('483920');
    tick(4_000);
    expect(within(dialog).queryByTestId('three-ds-countdown')).toBeNull();
    expect(within(dialog).getByTestId('three-ds-expired')).toHaveTextContent('已过期');
    expect(within(dialog).getByTestId('three-ds-code')).toHaveTextContent('••••••');
    expect(within(dialog).queryByText('483920')).toBeNull();
    expect(within(dialog).getByTestId('three-ds-copy')).toBeDisabled();
    expect(within(dialog).getByText('验证码已过期，如需继续支付请在商户页面重新发起。')).toBeInTheDocument();
    // the notice says it too
    expect(within(screen.getByTestId('three-ds-notice')).getByTestId('three-ds-expired')).toBeInTheDocument();
  });

  it('shows a code that arrives already expired masked', () => {
    renderScreen(<ThreeDsCodes />);
    receive(otp({ expires_at: '2026-03-01T07:59:00.000Z' }));
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByTestId('three-ds-code')).toHaveTextContent('••••••');
    expect(within(dialog).getByTestId('three-ds-expired')).toBeInTheDocument();
  });

  it('copies the code', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const { notices } = renderScreen(<ThreeDsCodes />);
    receive(otp());
    fireEvent.click(screen.getByTestId('three-ds-copy'));
    await act(async () => {});
    expect(writeText).toHaveBeenCalledWith('483920');
    expect(notices.successes).toEqual(['验证码已复制']);
  });

  it('keeps a floating notice after the dialog is closed, which opens it again until it is closed itself', () => {
    renderScreen(<ThreeDsCodes />);
    receive(otp());
    const [footerClose] = within(screen.getByRole('dialog')).getAllByRole('button', { name: '关闭' }).slice(-1);
    fireEvent.click(footerClose as HTMLElement);
    expect(useThreeDsStore.getState().openKey).toBeNull();
    const notice = screen.getByTestId('three-ds-notice');
    fireEvent.click(within(notice).getByRole('button', { name: /收到 3-D Secure 验证码/ }));
    expect(useThreeDsStore.getState().openKey).not.toBeNull();
    fireEvent.click(within(notice).getByRole('button', { name: '关闭通知' }));
    expect(screen.queryByTestId('three-ds-notice')).toBeNull();
    expect(useThreeDsStore.getState().codes).toEqual([]);
  });

  it('shows the same event once, without opening a closed dialog again, and a newer code in the dialog', () => {
    renderScreen(<ThreeDsCodes />);
    receive(otp());
    act(() => useThreeDsStore.getState().close());
    receive(otp());
    expect(screen.getAllByTestId('three-ds-notice')).toHaveLength(1);
    expect(useThreeDsStore.getState().openKey).toBeNull();
    receive(otp({ code: '111222', merchant_name: 'Google Ads', expires_at: '2026-03-01T08:06:00.000Z' }));
    expect(screen.getAllByTestId('three-ds-notice')).toHaveLength(2);
    expect(screen.getByTestId('three-ds-code')).toHaveTextContent('111222');
    expect(screen.getByTestId('three-ds-merchant')).toHaveTextContent('Google Ads');
  });

  it('ignores an event that lacks the code', () => {
    renderScreen(<ThreeDsCodes />);
    act(() => applySpendingEvent(new QueryClient(), { type: 'THREE_DS_OTP', card_id: 'c-1' }));
    expect(screen.queryByTestId('three-ds-notice')).toBeNull();
  });
});
