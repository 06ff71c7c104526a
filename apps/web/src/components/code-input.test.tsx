// @vitest-environment jsdom
import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { ErrorCode } from '@portal/contract/errors';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { codeRequest, codeRequestKey, rememberCodeSent } from '../lib/code-send-limits.ts';
import { useSessionStore } from '../stores/session.ts';
import { ApiError } from '../lib/http.ts';
import { CodeInput, waitEndsText } from './code-input.tsx';

/** The field as a form holds it: its value lives outside, as antd Form keeps it. */
function Field(props: { onSend: () => Promise<number | { resend_after: number; masked_target: string } | undefined>; canSend?: boolean; sentWait?: number; requestKey?: string }) {
  const [value, setValue] = useState('');
  return <CodeInput aria-label="验证码" value={value} onChange={setValue} {...props} />;
}

const sendButton = () => screen.getByRole('button');
const tick = (ms: number) => act(() => vi.advanceTimersByTime(ms));

/**
 * A click, then the send's promise settled. Events are fired directly: testing-library's user-event
 * waits on real timers between steps, and these tests hold the clock.
 */
async function clickSend() {
  fireEvent.click(sendButton());
  await act(async () => {});
}

const tooSoon = (seconds: number) =>
  new ApiError({ kind: 'api', code: ErrorCode.CODE_TOO_SOON, status: 429, message: `验证码发送过于频繁，请${seconds}秒后再试`, data: { retry_after: seconds } });

describe('CodeInput', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    sessionStorage.clear();
  });
  afterEach(() => vi.useRealTimers());

  it('a resend refused as too soon counts down the seconds the server gave, and the code sent before counts as asked for', async () => {
    const key = codeRequestKey('MARK_TYPE_ACCESS', 'SEND_TYPE_PHONE');
    render(<Field onSend={async () => Promise.reject(tooSoon(4))} requestKey={key} />);
    await clickSend();
    expect(sendButton()).toHaveTextContent('4秒后重新获取');
    expect(sendButton()).toBeDisabled();
    expect(codeRequest(key)).not.toBeNull();
    tick(4_000);
    expect(sendButton()).toHaveTextContent('重新获取');
    expect(sendButton()).toBeEnabled();
  });

  it('the codes of the account (access codes, a change of address) are forgotten at logout: the next account in this tab has codes of its own', async () => {
    const key = codeRequestKey('MARK_TYPE_ACCESS', 'SEND_TYPE_PHONE');
    const signUp = codeRequestKey('MARK_TYPE_REGISTER', '13800138000');
    render(<Field onSend={async () => 60} requestKey={key} />);
    await clickSend();
    rememberCodeSent(signUp, { resendAfter: 60 });
    // a change of e-mail or phone: the current address's code and the new one's
    const changeKeys = [
      codeRequestKey('MARK_TYPE_CHANGE_EMAIL', 'SEND_TYPE_EMAIL:m***@mail.example'),
      codeRequestKey('MARK_TYPE_CHANGE_EMAIL', 'new@new.example'),
      codeRequestKey('MARK_TYPE_CHANGE_PHONE', 'SEND_TYPE_PHONE:138****8000'),
    ];
    for (const change of changeKeys) rememberCodeSent(change, { resendAfter: 60 });
    expect(codeRequest(key)).not.toBeNull();
    act(() => useSessionStore.getState().logout());
    expect(codeRequest(key)).toBeNull();
    for (const change of changeKeys) expect(codeRequest(change)).toBeNull();
    expect(codeRequest(signUp)).not.toBeNull();
  });

  it('a code asked for is still known, and still counting, when the field appears again (a reload, a dialog opened again)', async () => {
    const key = codeRequestKey('MARK_TYPE_REGISTER', '13800138000');
    const first = render(<Field onSend={async () => ({ resend_after: 60, masked_target: '138****8000' })} requestKey={key} />);
    await clickSend();
    tick(20_000);
    first.unmount();

    render(<Field onSend={async () => 60} requestKey={key} />);
    expect(sendButton()).toHaveTextContent('40秒后重新获取');
    expect(codeRequest(key)?.sentTo).toBe('138****8000');
    tick(40_000);
    expect(sendButton()).toHaveTextContent('重新获取');
    // another phone has its own: nothing asked for it yet
    expect(codeRequest(codeRequestKey('MARK_TYPE_REGISTER', '13900139000'))).toBeNull();
    // good for ten minutes from the send, then forgotten
    tick(9 * 60_000 - 60_000);
    expect(codeRequest(key)).not.toBeNull();
    tick(60_000);
    expect(codeRequest(key)).toBeNull();
  });

  it('another target has its own wait and state: a phone typed anew does not carry the previous one’s countdown', async () => {
    const first = codeRequestKey('MARK_TYPE_REGISTER', '13800138000');
    const second = codeRequestKey('MARK_TYPE_REGISTER', '13900139000');
    const onSend = async () => 60;
    const view = render(<Field onSend={onSend} requestKey={first} />);
    await clickSend();
    expect(sendButton()).toHaveTextContent('60秒后重新获取');
    tick(10_000);

    view.rerender(<Field onSend={onSend} requestKey={second} />);
    expect(sendButton()).toHaveTextContent('获取验证码');
    expect(sendButton()).toBeEnabled();

    // back to the first phone: its code and its wait are still there
    view.rerender(<Field onSend={onSend} requestKey={first} />);
    expect(sendButton()).toHaveTextContent('50秒后重新获取');
    tick(50_000);
    expect(sendButton()).toHaveTextContent('重新获取');
  });

  it('a daily or network limit names when another code may be asked for (China time) instead of counting hours of seconds', async () => {
    // 10:00 in China
    vi.setSystemTime(new Date('2026-03-01T02:00:00Z'));
    const daily = (seconds: number) =>
      new ApiError({ kind: 'api', code: ErrorCode.CODE_DAILY_LIMIT, status: 429, message: '今日验证码发送次数已达上限', data: { retry_after: seconds } });
    const untilMidnight = 14 * 3600;
    const view = render(<Field onSend={async () => Promise.reject(daily(untilMidnight))} />);
    await clickSend();
    expect(sendButton()).toHaveTextContent('明日再试');
    expect(sendButton()).toBeDisabled();
    view.unmount();

    const ip = new ApiError({ kind: 'api', code: ErrorCode.CODE_IP_LIMIT, status: 429, message: '发送过于频繁', data: { retry_after: 3 * 3600 } });
    const later = render(<Field onSend={async () => Promise.reject(ip)} />);
    await clickSend();
    expect(sendButton()).toHaveTextContent('13:00后再试');
    // the last two minutes are counted in seconds
    tick(3 * 3600_000 - 120_000);
    expect(sendButton()).toHaveTextContent('120秒后重新获取');
    tick(120_000);
    expect(sendButton()).toHaveTextContent('获取验证码');
    expect(sendButton()).toBeEnabled();
    later.unmount();

    const short = render(<Field onSend={async () => Promise.reject(daily(90))} />);
    await clickSend();
    expect(sendButton()).toHaveTextContent('90秒后重新获取');
    short.unmount();
  });

  it('names a long wait’s end by the China day it falls on', () => {
    // 2026-03-01 23:00 in China
    const now = Date.parse('2026-03-01T15:00:00Z');
    expect(waitEndsText(30 * 60, now)).toBe('23:30后再试');
    expect(waitEndsText(3600, now)).toBe('明日再试');
    expect(waitEndsText(10 * 3600, now)).toBe('明日09:00后再试');
    expect(waitEndsText(2 * 86400, now)).toBe('03-03 23:00后再试');
  });

  it('counts down the 60 s of spec §9 after a send whose answer names no wait, then offers 重新获取', async () => {
    const onSend = vi.fn(async () => undefined);
    render(<Field onSend={onSend} />);
    expect(sendButton()).toHaveTextContent('获取验证码');

    await clickSend();
    expect(onSend).toHaveBeenCalledTimes(1);
    expect(sendButton()).toHaveTextContent('60秒后重新获取');
    expect(sendButton()).toBeDisabled();

    tick(59_000);
    expect(sendButton()).toHaveTextContent('1秒后重新获取');
    tick(1_000);
    expect(sendButton()).toHaveTextContent('重新获取');
    expect(sendButton()).toBeEnabled();
  });

  it('waits as long as the server says (resend_after or a limit’s retry_after)', async () => {
    render(<Field onSend={async () => 5} />);
    await clickSend();
    expect(sendButton()).toHaveTextContent('5秒后重新获取');
    tick(5_000);
    expect(sendButton()).toHaveTextContent('重新获取');
  });

  it('is ready again at once, with no countdown, when nothing was sent', async () => {
    const onSend = vi.fn(async (): Promise<number | undefined> => {
      throw new Error('请输入正确手机号');
    });
    render(<Field onSend={onSend} />);
    await clickSend();
    expect(onSend).toHaveBeenCalledTimes(1);
    expect(sendButton()).toHaveTextContent('获取验证码');
    expect(sendButton()).toBeEnabled();
  });

  it('says 发送中 while the code is on its way and sends once however often it is clicked', async () => {
    let answer: (wait: number) => void = () => {};
    const onSend = vi.fn(() => new Promise<number | undefined>((resolve) => (answer = resolve)));
    render(<Field onSend={onSend} />);
    await clickSend();
    expect(sendButton()).toHaveTextContent('发送中');
    expect(sendButton()).toBeDisabled();
    await clickSend();
    expect(onSend).toHaveBeenCalledTimes(1);

    await act(async () => answer(60));
    expect(sendButton()).toHaveTextContent('60秒后重新获取');
  });

  it('cannot send while the form says no (e.g. no valid phone yet)', async () => {
    const onSend = vi.fn(async () => 60);
    render(<Field onSend={onSend} canSend={false} />);
    expect(sendButton()).toBeDisabled();
    await clickSend();
    expect(onSend).not.toHaveBeenCalled();
  });

  it('starts counting when the previous screen has just sent a code', () => {
    render(<Field onSend={async () => 60} sentWait={42} />);
    expect(sendButton()).toHaveTextContent('42秒后重新获取');
    tick(42_000);
    expect(sendButton()).toHaveTextContent('重新获取');
  });

  it('keeps only ASCII digits, at most six', () => {
    render(<Field onSend={async () => 60} />);
    const field = screen.getByRole('textbox', { name: '验证码' });
    fireEvent.change(field, { target: { value: '12a3-45 678' } });
    expect(field).toHaveValue('123456');
    fireEvent.change(field, { target: { value: '９８７６５４' } });
    expect(field).toHaveValue('');
  });
});
