// @vitest-environment jsdom
import type { AccountInfo } from '@portal/contract/account';
import { ErrorCode } from '@portal/contract/errors';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/http.ts';
import { stubApi } from '../../../testing/api.ts';
import { fieldError } from '../../../testing/field-error.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { TradePasswordSection } from './trade-password-section.tsx';

const INFO = '/account/info';
const TRADE = '/account/trx-password';
const FORGOT = '/account/forget-password/code';

/** Sets a field's value in one change, as a paste would. */
const type = (field: HTMLElement, value: string) => fireEvent.change(field, { target: { value } });

const info = (set: boolean): AccountInfo => ({
  id: 'a-1',
  member_id: 'a-1',
  role: 'OWNER',
  account_name: '138****8000 的团队',
  email: 'demo@bluewhale.example',
  phone: '13800138000',
  phone_prefix: '86',
  trx_password_set: set,
});
const refusal = (code: number, message: string) => new ApiError({ kind: 'api', code, status: 400, message });

async function section() {
  const found = await screen.findByTestId('settings-trade-password');
  await within(found).findByTestId('trade-password-submit');
  return found;
}

describe('交易密码 on /settings', () => {
  it('sets the first one, typed twice, with the login password: a mismatch or a rule break is said on its field before anything is sent; then it says 已设置 and asks for the old one to change it', async () => {
    let set = false;
    const calls = stubApi({
      [INFO]: () => info(set),
      [TRADE]: () => {
        set = true;
        return null;
      },
    });
    const { notices } = renderScreen(<TradePasswordSection />, { at: '/settings' });
    const box = await section();
    expect(within(box).getByTestId('trade-password-status')).toHaveTextContent('未设置');
    expect(within(box).queryByLabelText('原交易密码')).toBeNull();
    const password = within(box).getByLabelText('交易密码');
    const confirm = within(box).getByLabelText('确认交易密码');
    type(within(box).getByLabelText('登录密码'), 'Passw0rd1');

    type(password, 'abc12');
    type(confirm, 'abc12');
    await userEvent.click(within(box).getByRole('button', { name: '设置交易密码' }));
    await waitFor(() => expect(fieldError(password)).toBe('请输入6到10位的纯数字或大小写英文字母'));

    type(password, 'Abc123');
    type(confirm, 'Abc124');
    await userEvent.click(within(box).getByRole('button', { name: '设置交易密码' }));
    await waitFor(() => expect(fieldError(confirm)).toBe('请保持与设置密码相同'));
    expect(calls.filter((call) => call.method === 'put')).toEqual([]);

    type(confirm, 'Abc123');
    await userEvent.click(within(box).getByRole('button', { name: '设置交易密码' }));
    await waitFor(() => expect(notices.successes).toEqual(['交易密码已设置']));
    expect(calls.filter((call) => call.method === 'put')).toEqual([{ method: 'put', url: TRADE, body: { trx_password: 'Abc123', password: 'Passw0rd1' } }]);
    await waitFor(() => expect(within(box).getByTestId('trade-password-status')).toHaveTextContent('已设置'));
    expect(within(box).queryByLabelText('登录密码')).toBeNull();
    expect(within(box).getByLabelText('原交易密码')).toHaveValue('');
    expect(within(box).getByLabelText('新交易密码')).toHaveValue('');
    expect(within(box).getByRole('button', { name: '修改交易密码' })).toBeInTheDocument();
  });

  it('asks the login password with the first one: a missing one is said before anything is sent, a wrong one on its field', async () => {
    const calls = stubApi({ [INFO]: info(false), [TRADE]: () => refusal(ErrorCode.LOGIN_PASSWORD_WRONG, '登录密码错误') });
    const { notices } = renderScreen(<TradePasswordSection />, { at: '/settings' });
    const box = await section();
    const login = within(box).getByLabelText('登录密码');
    const password = within(box).getByLabelText('交易密码');
    await userEvent.click(within(box).getByRole('button', { name: '设置交易密码' }));
    await waitFor(() => expect(fieldError(login)).toBe('请输入登录密码'));
    expect(fieldError(password)).toBe('请输入交易密码');
    expect(calls.filter((call) => call.method === 'put')).toEqual([]);

    type(login, 'Wrong1234');
    type(password, 'Abc123');
    type(within(box).getByLabelText('确认交易密码'), 'Abc123');
    await userEvent.click(within(box).getByRole('button', { name: '设置交易密码' }));
    await waitFor(() => expect(fieldError(login)).toBe('登录密码错误'));
    expect(notices.errors).toEqual([]);
    expect(calls.filter((call) => call.method === 'put').map((call) => call.body)).toEqual([{ trx_password: 'Abc123', password: 'Wrong1234' }]);
  });

  it('changes it with the old one; a wrong old one, the lock and the same one again are said on their fields', async () => {
    const answers: unknown[] = [
      refusal(ErrorCode.TRX_PASSWORD_WRONG, '交易密码错误，还可尝试4次'),
      refusal(ErrorCode.TRX_PASSWORD_LOCKED, '交易密码错误次数过多，已锁定至10:16（北京时间），请15分钟后再试'),
      refusal(ErrorCode.TRX_PASSWORD_SAME, '新交易密码不能与原交易密码相同'),
      null,
    ];
    const calls = stubApi({ [INFO]: info(true), [TRADE]: () => answers.shift() });
    const { notices } = renderScreen(<TradePasswordSection />, { at: '/settings' });
    const box = await section();
    expect(within(box).getByTestId('trade-password-status')).toHaveTextContent('已设置');
    const old = within(box).getByLabelText('原交易密码');
    const fresh = within(box).getByLabelText('新交易密码');
    const submit = () => userEvent.click(within(box).getByRole('button', { name: '修改交易密码' }));

    await submit();
    await waitFor(() => expect(fieldError(old)).toBe('请输入交易密码'));
    expect(fieldError(fresh)).toBe('请输入交易密码');

    type(old, 'Wrong123');
    type(fresh, 'New12345');
    type(within(box).getByLabelText('确认新交易密码'), 'New12345');
    await submit();
    await waitFor(() => expect(fieldError(old)).toBe('交易密码错误，还可尝试4次'));
    await submit();
    await waitFor(() => expect(fieldError(old)).toBe('交易密码错误次数过多，已锁定至10:16（北京时间），请15分钟后再试'));
    await submit();
    await waitFor(() => expect(fieldError(fresh)).toBe('新交易密码不能与原交易密码相同'));
    await submit();
    await waitFor(() => expect(notices.successes).toEqual(['交易密码已修改']));
    expect(calls.filter((call) => call.method === 'put').map((call) => call.body)).toEqual(
      Array.from({ length: 4 }, () => ({ trx_password: 'New12345', old_trx_password: 'Wrong123' })),
    );
  });

  it('says when whether one is set cannot be read, and reads it again on 重试', async () => {
    const answers: unknown[] = [new ApiError({ kind: 'network', message: '网络异常' }), info(false)];
    const calls = stubApi({ [INFO]: () => answers.shift() });
    renderScreen(<TradePasswordSection />, { at: '/settings' });
    const box = await screen.findByTestId('settings-trade-password');
    expect(await within(box).findByRole('alert')).toHaveTextContent('加载失败，请稍后重试');
    expect(within(box).queryByTestId('trade-password-status')).toBeNull();
    await userEvent.click(within(box).getByRole('button', { name: '重试' }));
    expect(await within(box).findByTestId('trade-password-status')).toHaveTextContent('未设置');
    expect(within(box).getByRole('button', { name: '设置交易密码' })).toBeInTheDocument();
    expect(calls.filter((call) => call.url === INFO)).toHaveLength(2);
  });

  describe('忘记交易密码', () => {
    beforeEach(() => {
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it('mails the reset link (FORGET_TRX_PASSWORD) to the account’s own e-mail, says where, and waits before sending again', async () => {
      const calls = stubApi({ [INFO]: info(true), [FORGOT]: { resend_after: 60, masked_target: 'd***@bluewhale.example' } });
      renderScreen(<TradePasswordSection />, { at: '/settings' });
      const box = await section();
      await userEvent.click(within(box).getByRole('button', { name: '忘记交易密码' }));
      expect(await within(box).findByTestId('trade-password-reset-sent')).toHaveTextContent(
        '重置链接已发送至 d***@bluewhale.example，请检查收件箱，并点击邮件中的链接重置您的交易密码。',
      );
      expect(calls.filter((call) => call.method === 'post')).toEqual([{ method: 'post', url: FORGOT, body: { email: 'demo@bluewhale.example', type: 'FORGET_TRX_PASSWORD' } }]);
      const again = within(box).getByTestId('trade-password-forgot');
      expect(again).toHaveTextContent('重新发送（60s）');
      expect(again).toBeDisabled();
      act(() => vi.advanceTimersByTime(60_000));
      await waitFor(() => expect(within(box).getByTestId('trade-password-forgot')).toHaveTextContent('忘记交易密码'));
      expect(within(box).getByTestId('trade-password-forgot')).toBeEnabled();
    });

    it('a link refused as too soon is said and counted down with the seconds the server gave', async () => {
      const tooSoon = new ApiError({ kind: 'api', code: ErrorCode.CODE_TOO_SOON, status: 429, message: '验证码发送过于频繁，请7秒后再试', data: { retry_after: 7 } });
      stubApi({ [INFO]: info(true), [FORGOT]: () => tooSoon });
      renderScreen(<TradePasswordSection />, { at: '/settings' });
      const box = await section();
      await userEvent.click(within(box).getByRole('button', { name: '忘记交易密码' }));
      await waitFor(() => expect(within(box).getByTestId('trade-password-forgot')).toHaveTextContent('重新发送（7s）'));
      expect(within(box).getByTestId('trade-password-forgot')).toBeDisabled();
      act(() => vi.advanceTimersByTime(7_000));
      await waitFor(() => expect(within(box).getByTestId('trade-password-forgot')).toBeEnabled());
    });
  });
});
