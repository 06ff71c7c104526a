// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { rememberCodeSent } from '../../../lib/code-send-limits.ts';
import { useSessionStore } from '../../../stores/session.ts';
import { stubApi } from '../../../testing/api.ts';
import { keptCodeRequests } from '../../../testing/code-requests.ts';
import { renderScreen } from '../../../testing/render.tsx';
import LoginVerificationDialog from './login-verification-dialog.tsx';

const SEND = '/account/send/code-auto';
const CHECK = '/account/login/code/check';

const dialog = (account: string, onVerified = () => {}) =>
  renderScreen(<LoginVerificationDialog method="phone" account={account} onVerified={onVerified} onCancel={() => {}} />);

describe('安全验证 of a sign-in', () => {
  it('keeps the code asked for per account signed in: another account in the same tab starts with none', async () => {
    stubApi({ [SEND]: { resend_after: 60, masked_target: '+86 138****8000' } });
    const first = dialog('13800138000');
    fireEvent.click(await screen.findByRole('button', { name: '获取验证码' }));
    expect(await screen.findByText('验证码已发送至 +86 138****8000')).toBeInTheDocument();
    first.unmount();

    // someone else signs in within the code's ten minutes: nothing of the first account shows
    const second = dialog('13900139000');
    expect(await screen.findByRole('button', { name: '获取验证码' })).toBeEnabled();
    expect(screen.queryByText(/138\*\*\*\*8000/)).toBeNull();
    expect(screen.getByText('您正在新设备上登录，请使用账户绑定的手机号接收验证码完成验证。')).toBeInTheDocument();
    second.unmount();

    // the first account again (a dialog opened again): its code is still known
    dialog('13800138000');
    expect(await screen.findByText('验证码已发送至 +86 138****8000')).toBeInTheDocument();
  });

  it('forgets the code once it is checked, and a finished sign-in forgets every access code asked for before', async () => {
    stubApi({
      [SEND]: { resend_after: 60, masked_target: '+86 138****8000' },
      [CHECK]: { token: 'signed-in', email: 'me@mail.example', check: false },
    });
    rememberCodeSent('MARK_TYPE_ACCESS:send_type_phone:signin:13900139000', { resendAfter: 60 });
    const onVerified = vi.fn();
    dialog('13800138000', onVerified);
    fireEvent.click(await screen.findByRole('button', { name: '获取验证码' }));
    await screen.findByText('验证码已发送至 +86 138****8000');
    fireEvent.change(screen.getByRole('textbox', { name: '验证码' }), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: '确定' }));
    await waitFor(() => expect(onVerified).toHaveBeenCalled());
    expect(keptCodeRequests()).toEqual(['MARK_TYPE_ACCESS:send_type_phone:signin:13900139000']);
    useSessionStore.getState().login('signed-in');
    expect(keptCodeRequests()).toEqual([]);
  });
});
