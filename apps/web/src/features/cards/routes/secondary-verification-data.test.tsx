// @vitest-environment jsdom
import { type VerificationAnswer, verificationBody } from '@portal/contract/cards';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/http.ts';
import { stubApi } from '../../../testing/api.ts';
import { fieldError } from '../../../testing/field-error.ts';
import { renderScreen } from '../../../testing/render.tsx';
import SecondaryVerificationData from './secondary-verification-data.tsx';

const VERIFICATION = '/card/verification';
const BASIC = { real_name: '张三', id_number_masked: '110105********002X' };
const BASIC_ONLY: VerificationAnswer = { basic: BASIC, secondary: null };
const GIVEN: VerificationAnswer = { basic: BASIC, secondary: { latin_name: 'Zhang San', website: 'https://shop.example.com' } };
const AT = '/create-card/secondary-verification-data';

const latinName = () => screen.getByRole('textbox', { name: '英文姓名' });
const website = () => screen.getByRole('textbox', { name: '使用网站' });
/** The field's message without its standing hint, which its description names too. */
const LATIN_HINT = '请使用英文字母填写，可为姓名拼音';
const WEBSITE_HINT = '卡片将用于付款的网站地址，以 http:// 或 https:// 开头';
const latinNameError = () => fieldError(latinName())?.replace(LATIN_HINT, '').trim() || null;
const websiteError = () => fieldError(website())?.replace(WEBSITE_HINT, '').trim() || null;
const submit = () => userEvent.click(screen.getByRole('button', { name: '提交资料' }));

/** The GET answers `before`; the PUT answers what `put` makes of the body. */
function stubVerification(before: VerificationAnswer, put: (body: unknown) => unknown = () => GIVEN) {
  return stubApi({ [VERIFICATION]: (body: unknown) => (body === undefined ? before : put(body)) });
}

const puts = (calls: ReturnType<typeof stubApi>) => calls.filter((call) => call.method === 'put');

describe('the secondary verification screen', () => {
  it('shows that it is loading until the account’s data has answered', () => {
    stubApi({ [VERIFICATION]: () => new Promise(() => {}) });
    renderScreen(<SecondaryVerificationData />, { at: AT });
    expect(screen.getByRole('heading', { level: 1, name: '补充资料' })).toBeInTheDocument();
    expect(screen.getByRole('status', { name: '正在加载认证信息' })).toBeInTheDocument();
  });

  it('tells what each field is for, with no message before anything is typed', async () => {
    stubVerification(BASIC_ONLY);
    renderScreen(<SecondaryVerificationData />, { at: AT });
    expect(await screen.findByRole('textbox', { name: '英文姓名' })).toHaveAccessibleDescription(LATIN_HINT);
    expect(website()).toHaveAccessibleDescription(WEBSITE_HINT);
    expect(latinNameError()).toBeNull();
  });

  it('says when the data could not be loaded', async () => {
    stubApi({ [VERIFICATION]: new ApiError({ kind: 'api', code: 1000, status: 500, message: '系统繁忙' }) });
    renderScreen(<SecondaryVerificationData />, { at: AT });
    expect(await screen.findByText('认证信息加载失败')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '重新加载' })).toBeInTheDocument();
  });

  it('says why it asks, then asks for both fields when sent empty (您当前输入为空)', async () => {
    const calls = stubVerification(BASIC_ONLY);
    renderScreen(<SecondaryVerificationData />, { at: AT });
    expect(await screen.findByText(/每个账户只需填写一次/)).toHaveTextContent('发卡机构');
    await submit();
    await waitFor(() => expect(latinNameError()).toBe('您当前输入为空'));
    expect(websiteError()).toBe('您当前输入为空');
    expect(puts(calls)).toEqual([]);
  });

  it('refuses Chinese in the Latin name (不能包含中文字符), and what is not a Latin name', async () => {
    stubVerification(BASIC_ONLY);
    renderScreen(<SecondaryVerificationData />, { at: AT });
    await userEvent.type(await screen.findByRole('textbox', { name: '英文姓名' }), 'Zhang 三');
    await waitFor(() => expect(latinNameError()).toBe('不能包含中文字符'));
    await userEvent.clear(latinName());
    await userEvent.type(latinName(), 'Zhang3');
    await waitFor(() => expect(latinNameError()).toBe('请输入英文姓名（字母与空格）'));
  });

  it('refuses a website that does not start with http:// or https:// (请输入url地址)', async () => {
    const calls = stubVerification(BASIC_ONLY);
    renderScreen(<SecondaryVerificationData />, { at: AT });
    await userEvent.type(await screen.findByRole('textbox', { name: '英文姓名' }), 'Zhang San');
    await userEvent.type(website(), 'www.example.com');
    await waitFor(() => expect(websiteError()).toBe('请输入url地址'));
    await submit();
    expect(puts(calls)).toEqual([]);
  });

  it('sends the pair as the contract reads it, and goes on to the card opening', async () => {
    const calls = stubVerification(BASIC_ONLY);
    const { location, notices } = renderScreen(<SecondaryVerificationData />, { at: AT });
    await userEvent.type(await screen.findByRole('textbox', { name: '英文姓名' }), 'Zhang San ');
    await userEvent.type(website(), ' https://shop.example.com');
    await submit();
    await waitFor(() => expect(location.current?.pathname).toBe('/create-card'));
    const body = { latin_name: 'Zhang San', website: 'https://shop.example.com' };
    expect(puts(calls)).toEqual([{ method: 'put', url: VERIFICATION, body }]);
    expect(verificationBody.parse(body)).toEqual(body);
    expect(notices.successes).toEqual(['补充资料已提交']);
  });

  it('puts the server’s refusal of a field next to that field, and stays', async () => {
    const refusal = new ApiError({
      kind: 'api',
      code: 1001,
      status: 400,
      message: '网址长度超过限制',
      data: { fields: [{ field: 'website', message: '网址长度超过限制' }] },
    });
    stubVerification(BASIC_ONLY, () => refusal);
    const { location } = renderScreen(<SecondaryVerificationData />, { at: AT });
    await userEvent.type(await screen.findByRole('textbox', { name: '英文姓名' }), 'Zhang San');
    await userEvent.type(website(), 'https://shop.example.com');
    await submit();
    await waitFor(() => expect(websiteError()).toBe('网址长度超过限制'));
    expect(location.current?.pathname).toBe(AT);
  });

  it('shows what was given instead of the form, and goes on to from with 继续', async () => {
    stubVerification(GIVEN);
    const { location } = renderScreen(<SecondaryVerificationData />, { at: `${AT}?from=%2Fcreate-card%3Fproduct%3Dp-2` });
    expect(await screen.findByRole('heading', { name: '您已提交补充资料' })).toBeInTheDocument();
    expect(screen.getByText('Zhang San')).toBeInTheDocument();
    expect(screen.getByText('https://shop.example.com')).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: '继续' }));
    await waitFor(() => expect(location.current?.search).toBe('?product=p-2'));
    expect(location.current?.pathname).toBe('/create-card');
  });

  it.each(['//evil.example', 'https://evil.example'])('ignores a from that leaves the portal (%s)', async (from) => {
    stubVerification(BASIC_ONLY);
    const { location } = renderScreen(<SecondaryVerificationData />, { at: `${AT}?from=${encodeURIComponent(from)}` });
    await userEvent.type(await screen.findByRole('textbox', { name: '英文姓名' }), 'Zhang San');
    await userEvent.type(website(), 'https://shop.example.com');
    await submit();
    await waitFor(() => expect(location.current?.pathname).toBe('/create-card'));
    expect(location.current?.search).toBe('');
  });
});
