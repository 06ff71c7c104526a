// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { useSessionStore } from '../../../stores/session.ts';
import { stubApi } from '../../../testing/api.ts';
import { fieldError } from '../../../testing/field-error.ts';
import { keptCodeRequests } from '../../../testing/code-requests.ts';
import { renderScreen } from '../../../testing/render.tsx';
import SignUp from './sign-up.tsx';

const AGREEMENTS = '/merchant/user-agreement/title';
const SEND_CODE = '/account/send/code';
const REGISTER = '/account/register';

const field = (name: string) => screen.getByRole('textbox', { name });
const password = () => screen.getByLabelText('密码');
const confirm = () => screen.getByLabelText('确认密码');
const sendCode = () => screen.getByRole('button', { name: /获取验证码|重新获取/ });

async function fillValid({ invitation = '' } = {}) {
  await userEvent.type(field('手机号'), '13812345678');
  await userEvent.type(field('验证码'), '123456');
  await userEvent.type(password(), 'Demo1234');
  await userEvent.type(confirm(), 'Demo1234');
  if (invitation) await userEvent.type(field('邀请码（选填）'), invitation);
}

const submit = () => userEvent.click(screen.getByRole('button', { name: '注册' }));

describe('the sign-up screen', () => {
  beforeEach(() => useSessionStore.getState().logout());

  it('refuses to send the form until a code was asked for (请先获取验证码)', async () => {
    const calls = stubApi({ [AGREEMENTS]: [] });
    const { notices } = renderScreen(<SignUp />, { at: '/sign-up' });
    await fillValid();
    await submit();
    await waitFor(() => expect(notices.errors).toEqual(['请先获取验证码']));
    expect(calls.filter((call) => call.url === REGISTER)).toEqual([]);
  });

  it('asks for a valid phone before sending a code, and sends nothing', async () => {
    const calls = stubApi({ [AGREEMENTS]: [] });
    const { notices } = renderScreen(<SignUp />, { at: '/sign-up' });
    await userEvent.type(field('手机号'), '1381234');
    await userEvent.click(sendCode());
    await waitFor(() => expect(notices.errors).toEqual(['请输入正确手机号']));
    expect(calls.filter((call) => call.url === SEND_CODE)).toEqual([]);
    expect(sendCode()).toHaveTextContent('获取验证码');
  });

  it('sends the code to the +86 phone, says where it went and counts down', async () => {
    const calls = stubApi({ [AGREEMENTS]: [], [SEND_CODE]: { resend_after: 60, masked_target: '+86 138****5678' } });
    renderScreen(<SignUp />, { at: '/sign-up' });
    await userEvent.type(field('手机号'), '13812345678');
    await userEvent.click(sendCode());
    expect(await screen.findByText('验证码已发送至 +86 138****5678')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '60秒后重新获取' })).toBeDisabled();
    expect(calls.filter((call) => call.url === SEND_CODE)).toEqual([
      {
        method: 'post',
        url: SEND_CODE,
        body: { send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_REGISTER', phone_info: { phone: '13812345678', phone_prefix: '86' } },
      },
    ]);
  });

  it('marks each line of the password checklist as it is met', async () => {
    stubApi({ [AGREEMENTS]: [] });
    renderScreen(<SignUp />, { at: '/sign-up' });
    const checklist = screen.getByRole('list', { name: '密码要求' });
    const metLines = () =>
      within(checklist)
        .getAllByRole('listitem')
        .filter((line) => within(line).queryByText('已满足'))
        .map((line) => line.textContent?.replace('已满足', ''));
    expect(metLines()).toEqual([]);

    await userEvent.type(password(), 'abc');
    expect(metLines()).toEqual(['至少包含一个小写字母']);
    await userEvent.type(password(), 'DEF12');
    expect(metLines()).toEqual(['长度为8-16位，仅限字母和数字', '至少包含一个大写字母', '至少包含一个小写字母', '至少包含一个数字']);
  });

  it('holds the confirmation to the password, again when the password changes', async () => {
    stubApi({ [AGREEMENTS]: [] });
    renderScreen(<SignUp />, { at: '/sign-up' });
    await userEvent.type(password(), 'Demo1234');
    await userEvent.type(confirm(), 'Demo1235');
    await waitFor(() => expect(fieldError(confirm())).toBe('请保持与设置密码相同'));

    await userEvent.clear(password());
    await userEvent.type(password(), 'Demo1235');
    await waitFor(() => expect(fieldError(confirm())).toBeNull());
  });

  it('checks an invitation code only when one is given', async () => {
    stubApi({ [AGREEMENTS]: [] });
    renderScreen(<SignUp />, { at: '/sign-up' });
    const invitation = field('邀请码（选填）');
    await userEvent.type(invitation, 'a1');
    await waitFor(() => expect(fieldError(invitation)).toBe('请输入正确邀请码'));
    await userEvent.clear(invitation);
    await waitFor(() => expect(fieldError(invitation)).toBeNull());
  });

  it('asks to accept the merchant’s agreement before signing up, and links to it', async () => {
    const calls = stubApi({
      [AGREEMENTS]: [{ id: 'a-1', title: '用户服务协议' }],
      [SEND_CODE]: { resend_after: 60, masked_target: '+86 138****5678' },
    });
    const { notices } = renderScreen(<SignUp />, { at: '/sign-up' });
    const link = await screen.findByRole('link', { name: '用户服务协议（在新窗口中打开）' });
    expect(link).toHaveAttribute('href', '/agreement?id=a-1');
    await fillValid();
    await userEvent.click(sendCode());
    await screen.findByText('验证码已发送至 +86 138****5678');
    await submit();
    await waitFor(() => expect(notices.errors).toEqual(['请阅读并同意协议']));
    expect(calls.filter((call) => call.url === REGISTER)).toEqual([]);
  });

  it('signs up without an invitation code, keeps the token that binds an e-mail and goes on to /sign-email', async () => {
    const calls = stubApi({
      [AGREEMENTS]: [],
      [SEND_CODE]: { resend_after: 60, masked_target: '+86 138****5678' },
      [REGISTER]: { token: 'sign-up-token', signed_in: false },
    });
    const { location } = renderScreen(<SignUp />, { at: '/sign-up' });
    await fillValid();
    await userEvent.click(sendCode());
    await screen.findByText('验证码已发送至 +86 138****5678');
    expect(keptCodeRequests()).toEqual(['MARK_TYPE_REGISTER:13812345678']);
    await submit();
    await waitFor(() => expect(location.current?.pathname).toBe('/sign-email'));
    // the server used the code up
    expect(keptCodeRequests()).toEqual([]);
    expect(calls.find((call) => call.url === REGISTER)?.body).toEqual({
      phone_prefix: '86',
      phone: '13812345678',
      password: 'Demo1234',
      captcha: '123456',
      invitation_code: null,
    });
    expect(useSessionStore.getState()).toMatchObject({ token: 'sign-up-token', isLogin: false });
  });

  it('signs up by a team’s e-mail invitation straight into the portal: the session is a full one, no e-mail to bind', async () => {
    const calls = stubApi({
      [AGREEMENTS]: [],
      [SEND_CODE]: { resend_after: 60, masked_target: '+86 138****5678' },
      '/team/invitations/by-token/tok-1': { account_name: '蓝鲸科技', role: 'MEMBER', invited_by: '138****8000', phone_masked: null, email: 'new@mail.example', expires_at: '2026-03-04T00:00:00.000Z' },
      [REGISTER]: { token: 'member-token', signed_in: true },
    });
    const { location } = renderScreen(<SignUp />, { at: '/sign-up?invitation=tok-1' });
    await screen.findByTestId('invitation-preview');
    await fillValid();
    await userEvent.click(sendCode());
    await screen.findByText('验证码已发送至 +86 138****5678');
    await submit();
    await waitFor(() => expect(location.current?.pathname).toBe('/wallet'));
    expect(calls.find((call) => call.url === REGISTER)?.body).toMatchObject({ invitation: 'tok-1' });
    expect(useSessionStore.getState()).toMatchObject({ token: 'member-token', isLogin: true });
  });
});
