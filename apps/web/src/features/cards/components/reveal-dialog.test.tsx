// @vitest-environment jsdom
import { REVEAL_SHOW_SECONDS, type RevealAnswer } from '@portal/contract/cards';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/http.ts';
import { stubApi } from '../../../testing/api.ts';
import { keptCodeRequests } from '../../../testing/code-requests.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { markAccessCodeChecked } from '../lib/reveal-window.ts';
import { RevealDialog } from './reveal-dialog.tsx';

const REVEAL = '/card/c-1/reveal';
const SEND = '/account/send/code-auto';
const NUMBERS: RevealAnswer = { pan: '5555555555554444', cvv: '123', exp_month: '8', exp_year: '2029' };

const codeRequired = () => new ApiError({ kind: 'api', code: 4009, status: 403, message: '请先获取并输入验证码' });

function show() {
  return renderScreen(<RevealDialog open card={{ id: 'c-1', last4: '4444' }} onClose={() => {}} />);
}

describe('查看卡号', () => {
  beforeEach(() => {
    // the countdowns tick on intervals and read the clock; everything else keeps real time
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('asks for an access code, shows the numbers grouped, and masks them again after 60 s', async () => {
    const calls = stubApi({ [SEND]: { resend_after: 60, masked_target: '+86 138****8000' }, [REVEAL]: NUMBERS });
    show();
    fireEvent.click(await screen.findByRole('button', { name: '获取验证码' }));
    expect(await screen.findByText('验证码已发送至 +86 138****8000')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '60秒后重新获取' })).toBeDisabled();
    expect(keptCodeRequests()).toEqual(['MARK_TYPE_ACCESS:send_type_phone']);
    fireEvent.change(screen.getByRole('textbox', { name: '验证码' }), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: '验证并查看' }));

    expect(await screen.findByTestId('reveal-number')).toHaveTextContent('5555 5555 5555 4444');
    // the server used the code up: the next 查看卡号 asks for another
    expect(keptCodeRequests()).toEqual([]);
    expect(screen.getByTestId('reveal-cvv')).toHaveTextContent('123');
    expect(screen.getByTestId('reveal-expiry')).toHaveTextContent('08/29');
    expect(screen.getByTestId('reveal-countdown')).toHaveTextContent(`${REVEAL_SHOW_SECONDS} 秒后自动隐藏`);
    expect(calls.filter((call) => call.method === 'post')).toEqual([
      { method: 'post', url: SEND, body: { send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_ACCESS' } },
      { method: 'post', url: REVEAL, body: { captcha: '123456', send_type: 'SEND_TYPE_PHONE' } },
    ]);

    act(() => vi.advanceTimersByTime(30_000));
    expect(screen.getByTestId('reveal-countdown')).toHaveTextContent('30 秒后自动隐藏');
    act(() => vi.advanceTimersByTime(30_000));
    expect(screen.getByTestId('reveal-hidden')).toHaveTextContent('卡号已自动隐藏');
    expect(screen.getByTestId('reveal-number')).toHaveTextContent('•••• •••• •••• 4444');
    expect(screen.getByTestId('reveal-cvv')).toHaveTextContent('***');
    expect(screen.getByTestId('reveal-expiry')).toHaveTextContent('**/**');
    expect(screen.queryByText('5555 5555 5555 4444')).toBeNull();
    expect(screen.queryByRole('button', { name: /复制/ })).toBeNull();
  });

  it('sends the code to the e-mail when chosen', async () => {
    const calls = stubApi({ [SEND]: { resend_after: 60, masked_target: 'a***@b.com' }, [REVEAL]: NUMBERS });
    show();
    await userEvent.click(await screen.findByText('邮箱'));
    await userEvent.click(screen.getByRole('button', { name: '获取验证码' }));
    expect(await screen.findByText('验证码已发送至 a***@b.com')).toBeInTheDocument();
    expect(calls[0]?.body).toEqual({ send_type: 'SEND_TYPE_EMAIL', mark_type: 'MARK_TYPE_ACCESS' });
  });

  it('asks for a code to be requested first (请先获取验证码)', async () => {
    const calls = stubApi({});
    const { notices } = show();
    fireEvent.change(await screen.findByRole('textbox', { name: '验证码' }), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: '验证并查看' }));
    await waitFor(() => expect(notices.errors).toEqual(['请先获取验证码']));
    expect(calls).toEqual([]);
  });

  it('tries without a code within five minutes of a checked one, and again after hiding', async () => {
    markAccessCodeChecked();
    const calls = stubApi({ [REVEAL]: NUMBERS });
    show();
    expect(await screen.findByTestId('reveal-number')).toHaveTextContent('5555 5555 5555 4444');
    expect(screen.queryByRole('textbox', { name: '验证码' })).toBeNull();
    act(() => vi.advanceTimersByTime(REVEAL_SHOW_SECONDS * 1000));
    expect(screen.getByTestId('reveal-hidden')).toHaveTextContent('5 分钟内再次查看无需验证码');
    fireEvent.click(screen.getByRole('button', { name: '再次查看' }));
    await waitFor(() => expect(screen.getByTestId('reveal-number')).toHaveTextContent('5555 5555 5555 4444'));
    expect(calls.map((call) => call.body)).toEqual([{}, {}]);
  });

  it('asks for a code when the server says one is needed (4009), without a toast', async () => {
    markAccessCodeChecked();
    const calls = stubApi({ [REVEAL]: codeRequired() });
    const { notices } = show();
    expect(await screen.findByRole('textbox', { name: '验证码' })).toBeInTheDocument();
    expect(calls).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(notices.errors).toEqual([]);
  });

  it('puts a wrong code next to the code field', async () => {
    stubApi({
      [SEND]: { resend_after: 60, masked_target: '+86 138****8000' },
      [REVEAL]: new ApiError({ kind: 'api', code: 2001, status: 400, message: '验证码错误' }),
    });
    const { notices } = show();
    fireEvent.click(await screen.findByRole('button', { name: '获取验证码' }));
    await screen.findByText('验证码已发送至 +86 138****8000');
    fireEvent.change(screen.getByRole('textbox', { name: '验证码' }), { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: '验证并查看' }));
    expect(await screen.findByText('验证码错误')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(notices.errors).toEqual([]);
  });
});
