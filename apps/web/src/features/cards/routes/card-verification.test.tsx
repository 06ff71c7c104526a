// @vitest-environment jsdom
import { type VerificationAnswer, verificationBody } from '@portal/contract/cards';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/http.ts';
import { stubApi } from '../../../testing/api.ts';
import { fieldError } from '../../../testing/field-error.ts';
import { renderScreen } from '../../../testing/render.tsx';
import CardVerification from './card-verification.tsx';

const VERIFICATION = '/card/verification';
const NOTHING_GIVEN: VerificationAnswer = { basic: null, secondary: null };
const GIVEN: VerificationAnswer = { basic: { real_name: '张三', id_number_masked: '110105********002X' }, secondary: null };
/** a real ID number: 1949-12-31, check character X */
const ID_NUMBER = '11010519491231002X';

const realName = () => screen.getByRole('textbox', { name: '真实姓名' });
const idNumber = () => screen.getByRole('textbox', { name: '身份证号码' });
const submit = () => userEvent.click(screen.getByRole('button', { name: '提交认证' }));

/** The GET answers `before`; the PUT answers what `put` makes of the body. */
function stubVerification(before: VerificationAnswer | Error, put: (body: unknown) => unknown = () => GIVEN) {
  return stubApi({ [VERIFICATION]: (body: unknown) => (body === undefined ? before : put(body)) });
}

const puts = (calls: ReturnType<typeof stubApi>) => calls.filter((call) => call.method === 'put');

describe('the verification screen', () => {
  it('shows that it is loading until the account’s data has answered', async () => {
    stubApi({ [VERIFICATION]: () => new Promise(() => {}) });
    renderScreen(<CardVerification />, { at: '/create-card/verification' });
    expect(screen.getByRole('heading', { level: 1, name: '实名认证' })).toBeInTheDocument();
    expect(screen.getByRole('status', { name: '正在加载认证信息' })).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: '真实姓名' })).toBeNull();
  });

  it('says when the data could not be loaded, and asks again on 重新加载', async () => {
    let answer: VerificationAnswer | Error = new ApiError({ kind: 'network', message: '当前网络异常，请检查网络设置后再次尝试操作' });
    const calls = stubApi({ [VERIFICATION]: () => answer });
    renderScreen(<CardVerification />, { at: '/create-card/verification' });
    expect(await screen.findByText('认证信息加载失败')).toBeInTheDocument();
    answer = NOTHING_GIVEN;
    await userEvent.click(screen.getByRole('button', { name: '重新加载' }));
    expect(await screen.findByRole('textbox', { name: '真实姓名' })).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'get')).toHaveLength(2);
  });

  it('says why it asks, then asks for both fields when sent empty (您当前输入为空)', async () => {
    const calls = stubVerification(NOTHING_GIVEN);
    renderScreen(<CardVerification />, { at: '/create-card/verification' });
    expect(await screen.findByText(/每个账户只需认证一次/)).toHaveTextContent('发卡机构');
    await submit();
    await waitFor(() => expect(fieldError(realName())).toBe('您当前输入为空'));
    expect(fieldError(idNumber())).toBe('您当前输入为空');
    expect(puts(calls)).toEqual([]);
  });

  it('refuses a name that is not a name (请输入真实姓名), as it is typed', async () => {
    stubVerification(NOTHING_GIVEN);
    renderScreen(<CardVerification />, { at: '/create-card/verification' });
    await userEvent.type(await screen.findByRole('textbox', { name: '真实姓名' }), '张3');
    await waitFor(() => expect(fieldError(realName())).toBe('请输入真实姓名'));
    await userEvent.clear(realName());
    await userEvent.type(realName(), '张三');
    await waitFor(() => expect(fieldError(realName())).toBeNull());
  });

  it('refuses an ID number whose check character is wrong, or that is short (请输入正确的身份证号码)', async () => {
    const calls = stubVerification(NOTHING_GIVEN);
    renderScreen(<CardVerification />, { at: '/create-card/verification' });
    await userEvent.type(await screen.findByRole('textbox', { name: '真实姓名' }), '张三');
    await userEvent.type(idNumber(), '110105194912310021');
    await waitFor(() => expect(fieldError(idNumber())).toBe('请输入正确的身份证号码'));
    await submit();
    expect(puts(calls)).toEqual([]);
    await userEvent.clear(idNumber());
    await userEvent.type(idNumber(), '1101051949');
    await waitFor(() => expect(fieldError(idNumber())).toBe('请输入正确的身份证号码'));
    await userEvent.clear(idNumber());
    await userEvent.type(idNumber(), ID_NUMBER);
    await waitFor(() => expect(fieldError(idNumber())).toBeNull());
  });

  it('sends the pair as the contract reads it, and goes on to the card opening', async () => {
    const calls = stubVerification(NOTHING_GIVEN);
    const { location, notices } = renderScreen(<CardVerification />, { at: '/create-card/verification' });
    await userEvent.type(await screen.findByRole('textbox', { name: '真实姓名' }), ' 张三 ');
    // a lower-case check character is the same number
    await userEvent.type(idNumber(), ID_NUMBER.toLowerCase());
    await submit();
    await waitFor(() => expect(location.current?.pathname).toBe('/create-card'));
    const body = { real_name: '张三', id_number: ID_NUMBER };
    expect(puts(calls)).toEqual([{ method: 'put', url: VERIFICATION, body }]);
    expect(verificationBody.parse(body)).toEqual(body);
    expect(notices.successes).toEqual(['实名认证已完成']);
  });

  it('puts the server’s refusal of a field next to that field, and stays', async () => {
    const refusal = new ApiError({
      kind: 'api',
      code: 1001,
      status: 400,
      message: '请输入正确的身份证号码',
      data: { fields: [{ field: 'id_number', message: '请输入正确的身份证号码' }] },
    });
    stubVerification(NOTHING_GIVEN, () => refusal);
    const { location, notices } = renderScreen(<CardVerification />, { at: '/create-card/verification' });
    await userEvent.type(await screen.findByRole('textbox', { name: '真实姓名' }), '张三');
    await userEvent.type(idNumber(), ID_NUMBER);
    await submit();
    await waitFor(() => expect(fieldError(idNumber())).toBe('请输入正确的身份证号码'));
    expect(location.current?.pathname).toBe('/create-card/verification');
    expect(notices.successes).toEqual([]);
  });

  it('shows what was given instead of the form, the number masked, and goes on with 继续', async () => {
    const calls = stubVerification(GIVEN);
    const { location } = renderScreen(<CardVerification />, { at: '/create-card/verification?from=%2Fcreate-card%3Fproduct%3Dp-1' });
    expect(await screen.findByRole('heading', { name: '您已完成实名认证' })).toBeInTheDocument();
    expect(screen.getByText('张三')).toBeInTheDocument();
    expect(screen.getByText('110105********002X')).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: '继续' }));
    await waitFor(() => expect(location.current?.pathname).toBe('/create-card'));
    expect(location.current?.search).toBe('?product=p-1');
    expect(puts(calls)).toEqual([]);
  });

  it('goes on to the portal path in from once sent', async () => {
    stubVerification(NOTHING_GIVEN);
    const { location } = renderScreen(<CardVerification />, { at: '/create-card/verification?from=%2Fcard' });
    await userEvent.type(await screen.findByRole('textbox', { name: '真实姓名' }), '张三');
    await userEvent.type(idNumber(), ID_NUMBER);
    await submit();
    await waitFor(() => expect(location.current?.pathname).toBe('/card'));
  });

  it.each(['//evil.example', 'https://evil.example/create-card'])('ignores a from that leaves the portal (%s)', async (from) => {
    stubVerification(GIVEN);
    const { location } = renderScreen(<CardVerification />, { at: `/create-card/verification?from=${encodeURIComponent(from)}` });
    await userEvent.click(await screen.findByRole('button', { name: '继续' }));
    await waitFor(() => expect(location.current?.pathname).toBe('/create-card'));
    expect(location.current?.search).toBe('');
  });
});
