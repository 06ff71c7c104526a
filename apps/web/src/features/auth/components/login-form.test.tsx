// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError, http } from '../../../lib/http.ts';
import { apiUrl } from '../../../testing/api.ts';
import { fieldError } from '../../../testing/field-error.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { LoginForm } from './login-form.tsx';

const phoneField = () => screen.getByRole('textbox', { name: '手机号' });
const passwordField = () => screen.getByLabelText('密码');
const submit = () => screen.getByRole('button', { name: '登录' });

describe('the sign-in form', () => {
  it('says what is missing and sends nothing when submitted empty', async () => {
    const post = vi.spyOn(http, 'post');
    renderScreen(<LoginForm onLoggedIn={vi.fn()} />);
    await userEvent.click(submit());
    await waitFor(() => expect(fieldError(phoneField())).toBe('您当前输入为空'));
    expect(fieldError(passwordField())).toBe('您当前输入为空');
    expect(phoneField()).toHaveAttribute('aria-invalid', 'true');
    expect(post).not.toHaveBeenCalled();
  });

  it('holds the phone and password to the rules of spec §5, first failed check first', async () => {
    renderScreen(<LoginForm onLoggedIn={vi.fn()} />);
    await userEvent.type(phoneField(), '2381234567');
    await userEvent.type(passwordField(), 'abc');
    await userEvent.click(submit());
    await waitFor(() => expect(fieldError(phoneField())).toBe('手机号格式有误'));
    expect(fieldError(passwordField())).toBe('输入小于最小输入限制');

    await userEvent.clear(passwordField());
    await userEvent.type(passwordField(), 'abcdefgh');
    await waitFor(() => expect(fieldError(passwordField())).toBe('需包含大写字母、小写字母、数字，密码长度为8-16位'));
  });

  it('takes only digits in the phone, at most 11', async () => {
    renderScreen(<LoginForm onLoggedIn={vi.fn()} />);
    await userEvent.type(phoneField(), '138-1234 5678 9');
    expect(phoneField()).toHaveValue('13812345678');
  });

  it('signs in by e-mail on its tab, with the e-mail rule and without the phone field', async () => {
    renderScreen(<LoginForm onLoggedIn={vi.fn()} />);
    await userEvent.click(screen.getByRole('tab', { name: '邮箱' }));
    expect(screen.getByRole('tab', { name: '邮箱' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.queryByRole('textbox', { name: '手机号' })).toBeNull();

    const email = screen.getByRole('textbox', { name: '邮箱' });
    await userEvent.type(email, 'someone@example');
    await userEvent.click(submit());
    await waitFor(() => expect(fieldError(email)).toBe('请输入正确的邮箱'));
  });

  it('sends a valid phone with the +86 prefix and hands the answer on with the account signed in', async () => {
    const answer = { token: 't-1', email: 'a@b.com', check: false };
    const post = vi.spyOn(http, 'post').mockResolvedValue(answer);
    const onLoggedIn = vi.fn();
    renderScreen(<LoginForm onLoggedIn={onLoggedIn} />);
    await userEvent.type(phoneField(), '13812345678');
    await userEvent.type(passwordField(), 'Demo1234');
    await userEvent.click(submit());
    await waitFor(() => expect(onLoggedIn).toHaveBeenCalledWith(answer, 'phone', '13812345678'));
    expect(post).toHaveBeenCalledWith(apiUrl('/account/login'), {
      phone_info: { phone: '13812345678', phone_prefix: '86' },
      password: 'Demo1234',
    });
  });

  it('puts the server’s refusal of a field next to that field', async () => {
    vi.spyOn(http, 'post').mockRejectedValue(
      new ApiError({ kind: 'api', code: 1001, status: 400, message: '手机号格式有误', data: { fields: [{ field: 'phone_info.phone', message: '手机号格式有误' }] } }),
    );
    const onLoggedIn = vi.fn();
    renderScreen(<LoginForm onLoggedIn={onLoggedIn} />);
    await userEvent.type(phoneField(), '13812345678');
    await userEvent.type(passwordField(), 'Demo1234');
    await userEvent.click(submit());
    await waitFor(() => expect(fieldError(phoneField())).toBe('手机号格式有误'));
    expect(onLoggedIn).not.toHaveBeenCalled();
  });
});
