// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/http.ts';
import { stubApi } from '../../../testing/api.ts';
import { fieldError } from '../../../testing/field-error.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { LoginPasswordSection } from './login-password-section.tsx';

const CHANGE = '/account/password';

const dialog = () => screen.getByRole('dialog', { name: '修改登录密码' });
const oldPassword = () => within(dialog()).getByLabelText('原密码');
const newPassword = () => within(dialog()).getByLabelText('新密码');
const confirm = () => within(dialog()).getByLabelText('确认新密码');
const submit = () => userEvent.click(within(dialog()).getByRole('button', { name: '确认修改' }));
const changes = (calls: { url: string }[]) => calls.filter((call) => call.url === CHANGE);

async function open() {
  await userEvent.click(screen.getByRole('button', { name: '修改密码' }));
  await screen.findByRole('dialog', { name: '修改登录密码' });
}

async function fill(old: string, next: string, again = next) {
  await userEvent.type(oldPassword(), old);
  await userEvent.type(newPassword(), next);
  await userEvent.type(confirm(), again);
}

describe('the login password section', () => {
  it("marks the checklist's lines as the new password is typed, as at sign-up", async () => {
    stubApi({});
    renderScreen(<LoginPasswordSection />);
    await open();
    const checklist = within(dialog()).getByRole('list', { name: '密码要求' });
    const met = () =>
      within(checklist)
        .getAllByRole('listitem')
        .filter((line) => within(line).queryByText('已满足'))
        .map((line) => line.textContent?.replace('已满足', ''));
    expect(met()).toEqual([]);
    await userEvent.type(newPassword(), 'abc1');
    expect(met()).toEqual(['至少包含一个小写字母', '至少包含一个数字']);
    await userEvent.type(newPassword(), 'DEFG');
    expect(met()).toEqual(['长度为8-16位，仅限字母和数字', '至少包含一个大写字母', '至少包含一个小写字母', '至少包含一个数字']);
  });

  it('refuses in the form what the server would: an empty old password, a broken rule, the old password again, a mismatch', async () => {
    const calls = stubApi({});
    renderScreen(<LoginPasswordSection />);
    await open();
    await userEvent.type(newPassword(), 'abcdefgh1');
    await submit();
    await waitFor(() => expect(fieldError(oldPassword())).toBe('您当前输入为空'));
    expect(await within(dialog()).findByText('需包含大写字母、小写字母、数字，密码长度为8-16位')).toBeInTheDocument();

    await userEvent.type(oldPassword(), 'Demo1234');
    await userEvent.clear(newPassword());
    await userEvent.type(newPassword(), 'Demo1234');
    expect(await within(dialog()).findByText('新密码不能与原密码相同')).toBeInTheDocument();

    await userEvent.clear(newPassword());
    await userEvent.type(newPassword(), 'Other5678');
    await userEvent.type(confirm(), 'Other5679');
    await waitFor(() => expect(fieldError(confirm())).toBe('请保持与设置密码相同'));
    await submit();
    expect(changes(calls)).toEqual([]);
  });

  it('sends the old and the new password and says how many other sessions were ended', async () => {
    const calls = stubApi({ [CHANGE]: { ended_sessions: 2 } });
    const { notices } = renderScreen(<LoginPasswordSection />);
    await open();
    await fill('Demo1234', 'Other5678');
    await submit();
    const done = await screen.findByTestId('password-changed');
    expect(done).toHaveTextContent('登录密码已修改，已退出其他 2 个登录会话');
    expect(done).toHaveTextContent('其他设备上的 2 个登录会话已结束，需使用新密码重新登录。');
    expect(notices.successes).toEqual(['登录密码已修改，已退出其他 2 个登录会话']);
    expect(changes(calls)).toEqual([{ method: 'put', url: CHANGE, body: { old_password: 'Demo1234', password: 'Other5678' } }]);
  });

  it("puts the server's refusal of the old password next to it, and the lock too", async () => {
    let answer: ApiError = new ApiError({
      kind: 'api',
      code: 2111,
      status: 400,
      message: '原密码错误，再错2次将锁定15分钟',
      data: { remaining: 2, fields: [{ field: 'old_password', message: '原密码错误，再错2次将锁定15分钟' }] },
    });
    stubApi({ [CHANGE]: () => answer });
    renderScreen(<LoginPasswordSection />);
    await open();
    await fill('Wrong1234', 'Other5678');
    await submit();
    await waitFor(() => expect(fieldError(oldPassword())).toBe('原密码错误，再错2次将锁定15分钟'));

    answer = new ApiError({ kind: 'api', code: 2010, status: 429, message: '密码错误次数过多，账户已锁定，请15分钟后再试', data: { retry_after: 900 } });
    await submit();
    await waitFor(() => expect(fieldError(oldPassword())).toBe('密码错误次数过多，账户已锁定，请15分钟后再试'));
    expect(screen.queryByTestId('password-changed')).toBeNull();
  });
});
