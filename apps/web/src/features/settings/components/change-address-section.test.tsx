// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/http.ts';
import { stubApi } from '../../../testing/api.ts';
import { fieldError } from '../../../testing/field-error.ts';
import { keptCodeRequests } from '../../../testing/code-requests.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { EmailSection } from './email-section.tsx';
import { PhoneSection } from './phone-section.tsx';

const SEND_CURRENT = '/account/send/code-auto';
const SEND_NEW = '/account/send/code';

const overview = {
  id: 'u1',
  phone: '138****8000',
  phone_prefix: '86',
  email: 'me@mail.example',
  created_at: '2026-01-01T00:00:00Z',
  manager: null,
  trx_password_set: false,
  trusted_devices: 0,
  sessions: 1,
  last_sign_in: null,
};
const api = {
  '/account/security': overview,
  '/account/info': { id: 'u1', email: 'me@mail.example', phone: '13800138000', phone_prefix: '86', trx_password_set: false },
  [SEND_CURRENT]: { masked_target: 'm***@mail.example', resend_after: 60 },
  [SEND_NEW]: { masked_target: 'n***@new.example', resend_after: 60 },
};

const posts = (calls: { method: string; url: string; body?: unknown }[], url: string) => calls.filter((call) => call.method === 'post' && call.url === url).map((call) => call.body);

async function open(button: string, title: string) {
  await userEvent.click(await screen.findByRole('button', { name: button }));
  return screen.findByRole('dialog', { name: title });
}

const sendButton = (dialog: HTMLElement, label: string) =>
  within(within(dialog).getByLabelText(label).closest('.ant-form-item') as HTMLElement).getByRole('button', { name: '获取验证码' });

describe('the e-mail section', () => {
  it('shows the bound e-mail, sends both codes and changes it with them', async () => {
    const calls = stubApi({ ...api, '/account/email/change': { email: 'new@new.example' } });
    const { notices } = renderScreen(<EmailSection />);
    expect(await screen.findByTestId('current-email')).toHaveTextContent('me@mail.example');
    const dialog = await open('更换邮箱', '更换邮箱');
    expect(within(dialog).getByText('me@mail.example')).toBeInTheDocument();

    await userEvent.click(sendButton(dialog, '当前邮箱验证码'));
    expect(await within(dialog).findByText('验证码已发送至 m***@mail.example')).toBeInTheDocument();
    expect(posts(calls, SEND_CURRENT)).toEqual([{ send_type: 'SEND_TYPE_EMAIL', mark_type: 'MARK_TYPE_CHANGE_EMAIL' }]);

    await userEvent.type(within(dialog).getByLabelText('新邮箱'), ' new@new.example ');
    await userEvent.click(sendButton(dialog, '新邮箱验证码'));
    expect(await within(dialog).findByText('验证码已发送至 n***@new.example')).toBeInTheDocument();
    expect(posts(calls, SEND_NEW)).toEqual([{ send_type: 'SEND_TYPE_EMAIL', mark_type: 'MARK_TYPE_CHANGE_EMAIL', email: 'new@new.example' }]);

    // the form's rule refuses the spaces that the code's request trims
    await userEvent.clear(within(dialog).getByLabelText('新邮箱'));
    await userEvent.type(within(dialog).getByLabelText('新邮箱'), 'new@new.example');
    await userEvent.type(within(dialog).getByLabelText('当前邮箱验证码'), '111111');
    await userEvent.type(within(dialog).getByLabelText('新邮箱验证码'), '222222');
    expect(keptCodeRequests()).toEqual(['MARK_TYPE_CHANGE_EMAIL:new@new.example', 'MARK_TYPE_CHANGE_EMAIL:send_type_email:me@mail.example']);
    await userEvent.click(within(dialog).getByRole('button', { name: '确认更换' }));
    await waitFor(() => expect(notices.successes).toEqual(['邮箱已更换为 new@new.example']));
    // the server used both codes up
    expect(keptCodeRequests()).toEqual([]);
    expect(posts(calls, '/account/email/change')).toEqual([{ email: 'new@new.example', old_captcha: '111111', captcha: '222222' }]);
  });

  it('asks for the new address before its code, says a malformed one on its field, and refuses the current one', async () => {
    const calls = stubApi(api);
    const { notices } = renderScreen(<EmailSection />);
    const dialog = await open('更换邮箱', '更换邮箱');
    await userEvent.click(sendButton(dialog, '新邮箱验证码'));
    await waitFor(() => expect(notices.errors).toEqual(['请输入邮箱']));

    const field = within(dialog).getByLabelText('新邮箱');
    await userEvent.type(field, 'not-an-address');
    await userEvent.click(sendButton(dialog, '新邮箱验证码'));
    await waitFor(() => expect(fieldError(field)).toBe('请输入正确的邮箱'));
    expect(posts(calls, SEND_NEW)).toEqual([]);

    await userEvent.clear(field);
    await userEvent.type(field, 'ME@mail.example');
    await userEvent.click(within(dialog).getByRole('button', { name: '确认更换' }));
    await waitFor(() => expect(fieldError(field)).toBe('新邮箱不能与当前邮箱相同'));
  });
});

describe('the phone section', () => {
  it('shows the number masked, sends both codes and changes it with them', async () => {
    const calls = stubApi({ ...api, '/account/phone/change': { phone: '139****9000', phone_prefix: '86' } });
    const { notices } = renderScreen(<PhoneSection />);
    expect(await screen.findByText('+86 138****8000')).toBeInTheDocument();
    const dialog = await open('更换手机号', '更换手机号');

    await userEvent.click(sendButton(dialog, '当前手机号验证码'));
    await within(dialog).findByText('验证码已发送至 m***@mail.example');
    expect(posts(calls, SEND_CURRENT)).toEqual([{ send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_CHANGE_PHONE' }]);

    await userEvent.type(within(dialog).getByLabelText('新手机号'), '13900139000');
    await userEvent.click(sendButton(dialog, '新手机号验证码'));
    await within(dialog).findByText('验证码已发送至 n***@new.example');
    expect(posts(calls, SEND_NEW)).toEqual([
      { send_type: 'SEND_TYPE_PHONE', mark_type: 'MARK_TYPE_CHANGE_PHONE', phone_info: { phone: '13900139000', phone_prefix: '86' } },
    ]);

    await userEvent.type(within(dialog).getByLabelText('当前手机号验证码'), '111111');
    await userEvent.type(within(dialog).getByLabelText('新手机号验证码'), '222222');
    await userEvent.click(within(dialog).getByRole('button', { name: '确认更换' }));
    await waitFor(() => expect(notices.successes).toEqual(['手机号已更换为 +86 139****9000']));
    expect(posts(calls, '/account/phone/change')).toEqual([
      { phone_info: { phone: '13900139000', phone_prefix: '86' }, old_captcha: '111111', captcha: '222222' },
    ]);
  });

  it('asks for a right number before its code, refuses the current one, and puts the server’s refusal of phone_info on the field', async () => {
    const calls = stubApi({
      ...api,
      '/account/phone/change': new ApiError({ kind: 'api', code: 1001, status: 400, message: '该手机号已被注册', data: { fields: [{ field: 'phone_info.phone', message: '该手机号已被注册' }] } }),
    });
    const { notices } = renderScreen(<PhoneSection />);
    const dialog = await open('更换手机号', '更换手机号');
    const field = within(dialog).getByLabelText('新手机号');
    await userEvent.type(field, '1390');
    await userEvent.click(sendButton(dialog, '新手机号验证码'));
    await waitFor(() => expect(notices.errors).toEqual(['请输入正确手机号']));
    expect(posts(calls, SEND_NEW)).toEqual([]);

    await userEvent.clear(field);
    await userEvent.type(field, '13800138000');
    await userEvent.click(within(dialog).getByRole('button', { name: '确认更换' }));
    await waitFor(() => expect(fieldError(field)).toBe('新手机号不能与当前手机号相同'));

    await userEvent.clear(field);
    await userEvent.type(field, '13900139000');
    await userEvent.type(within(dialog).getByLabelText('当前手机号验证码'), '111111');
    await userEvent.type(within(dialog).getByLabelText('新手机号验证码'), '222222');
    await userEvent.click(within(dialog).getByRole('button', { name: '确认更换' }));
    await waitFor(() => expect(fieldError(field)).toBe('该手机号已被注册'));
  });
});
