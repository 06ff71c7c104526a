// @vitest-environment jsdom
import type { CardItem } from '@portal/contract/cards';
import { ErrorCode } from '@portal/contract/errors';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/http.ts';
import { stubApi } from '../../testing/api.ts';
import { fieldError } from '../../testing/field-error.ts';
import { renderScreen } from '../../testing/render.tsx';
import CardDetails from './card-details.tsx';
import { accountInfo, card, controls, openedAvailable, walletAvailable, walletBalances } from '../../domain/cards/testing/fixtures.ts';

/** Sets a field's value in one change, as a paste would. */
const type = (field: HTMLElement, value: string) => fireEvent.change(field, { target: { value } });

const CARD = '/card/c-1';
const WITHDRAW = `${CARD}/withdraw`;

const refusal = (code: number, message: string, data: unknown = null) => new ApiError({ kind: 'api', code, status: 400, message, data });
const wrong = () => refusal(ErrorCode.TRX_PASSWORD_WRONG, '交易密码错误，还可尝试4次', { remaining: 4 });
const locked = () => refusal(ErrorCode.TRX_PASSWORD_LOCKED, '交易密码错误次数过多，已锁定至10:16（北京时间），请15分钟后再试');

/** /card-details of one card, with the calls its screen makes and `more`. */
function showCard(trxPasswordSet: boolean, more: Record<string, unknown> = {}, shown: CardItem = card()) {
  const calls = stubApi({
    [CARD]: shown,
    [`${CARD}/transactions`]: { items: [], total: 0, page: 1, page_size: 20 },
    [`${CARD}/controls`]: controls(),
    '/card/opened-available': openedAvailable(),
    '/balance/account-balance': walletBalances(),
    '/balance/account-balance-status': walletAvailable,
    '/account/info': accountInfo(trxPasswordSet),
    ...more,
  });
  const view = renderScreen(<CardDetails />, { at: '/card-details?id=c-1' });
  return { calls, ...view };
}

async function openDialog(action: RegExp, title: string | RegExp) {
  await userEvent.click(within(await screen.findByTestId('card-actions')).getByRole('button', { name: action }));
  const dialog = await screen.findByRole('dialog');
  expect(within(dialog).getByText(title, { selector: '.ant-modal-title' })).toBeInTheDocument();
  return dialog;
}

describe('the trade password in a money dialog', () => {
  it('is asked for once set: an empty one is said on the field, a wrong one and the lock too, and the dialog stays; the right one goes with the call', async () => {
    const answers = [wrong(), locked(), { card: card({ balance: '100.50' }) }];
    const { calls, notices } = showCard(true, { [WITHDRAW]: () => answers.shift() });
    const dialog = await openDialog(/提现/, /提现/);
    type(within(dialog).getByRole('textbox', { name: '提现金额' }), '20');
    const field = await within(dialog).findByLabelText('交易密码');
    expect(within(dialog).getByRole('link', { name: '忘记交易密码' })).toHaveAttribute('href', '/settings#trade-password');

    await userEvent.click(within(dialog).getByRole('button', { name: '确认提现' }));
    await waitFor(() => expect(fieldError(field)).toBe('请输入交易密码'));
    expect(calls.filter((call) => call.method === 'post')).toEqual([]);

    type(field, '12345');
    await userEvent.click(within(dialog).getByRole('button', { name: '确认提现' }));
    await waitFor(() => expect(fieldError(field)).toBe('请输入6到10位的纯数字或大小写英文字母'));

    type(field, 'Wrong123');
    await userEvent.click(within(dialog).getByRole('button', { name: '确认提现' }));
    expect(await within(dialog).findByTestId('trade-password-refusal')).toHaveTextContent('交易密码错误，还可尝试4次');
    expect(screen.getByRole('dialog')).toBe(dialog);

    await userEvent.click(within(dialog).getByRole('button', { name: '确认提现' }));
    await waitFor(() =>
      expect(within(dialog).getByTestId('trade-password-refusal')).toHaveTextContent('交易密码错误次数过多，已锁定至10:16（北京时间），请15分钟后再试'),
    );

    // typing again clears the refusal; the right one goes with the amount
    type(field, 'Right123');
    await waitFor(() => expect(within(dialog).queryByTestId('trade-password-refusal')).toBeNull());
    await userEvent.click(within(dialog).getByRole('button', { name: '确认提现' }));
    await waitFor(() => expect(notices.successes).toEqual(['提现成功：20.00 USD 已转回钱包']));
    const posts = calls.filter((call) => call.url === WITHDRAW);
    expect(posts.map((call) => call.body)).toEqual([
      { amount: '20.00', trx_password: 'Wrong123' },
      { amount: '20.00', trx_password: 'Wrong123' },
      { amount: '20.00', trx_password: 'Right123' },
    ]);
    for (const post of posts) expect(post.headers).toEqual({ 'idempotency-key': expect.stringMatching(/^[0-9a-f-]{36}$/) });
  });

  it('offers to set one on /settings, at its 交易密码 section, when none is set, without holding the call up', async () => {
    const { calls, location } = showCard(false, { [WITHDRAW]: { card: card({ balance: '100.50' }) } });
    const dialog = await openDialog(/提现/, /提现/);
    const offer = await within(dialog).findByTestId('trade-password-unset');
    expect(offer).toHaveTextContent('您尚未设置交易密码，设置后资金转出需输入交易密码确认，更安全。去设置');
    expect(within(dialog).queryByLabelText('交易密码')).toBeNull();
    type(within(dialog).getByRole('textbox', { name: '提现金额' }), '20');
    await userEvent.click(within(dialog).getByRole('button', { name: '确认提现' }));
    await waitFor(() => expect(calls.filter((call) => call.url === WITHDRAW).map((call) => call.body)).toEqual([{ amount: '20.00' }]));

    const again = await openDialog(/提现/, /提现/);
    await userEvent.click(within(again).getByRole('link', { name: '去设置' }));
    expect([location.current?.pathname, location.current?.hash]).toEqual(['/settings', '#trade-password']);
  });

  it('shows the field when the server asks for one the screen did not know of (set in another tab)', async () => {
    const answers = [refusal(ErrorCode.TRX_PASSWORD_REQUIRED, '请输入交易密码'), { card: card({ balance: '100.50' }) }];
    const { calls } = showCard(false, { [WITHDRAW]: () => answers.shift() });
    const dialog = await openDialog(/提现/, /提现/);
    type(within(dialog).getByRole('textbox', { name: '提现金额' }), '20');
    await userEvent.click(within(dialog).getByRole('button', { name: '确认提现' }));
    expect(await within(dialog).findByTestId('trade-password-refusal')).toHaveTextContent('请输入交易密码');
    type(within(dialog).getByLabelText('交易密码'), 'Right123');
    await userEvent.click(within(dialog).getByRole('button', { name: '确认提现' }));
    await waitFor(() => expect(calls.filter((call) => call.url === WITHDRAW).map((call) => call.body)).toEqual([{ amount: '20.00' }, { amount: '20.00', trx_password: 'Right123' }]));
  });

  it('asks for it to cancel a card that holds money', async () => {
    const { calls, notices } = showCard(true, { [CARD]: (body: unknown) => (body === undefined ? card() : card({ status: 'DELETING', actions: [] })) });
    const dialog = await openDialog(/注销/, '注销卡片');
    type(await within(dialog).findByLabelText('交易密码'), 'Right123');
    await userEvent.click(within(dialog).getByRole('button', { name: '确认注销' }));
    await waitFor(() => expect(notices.successes).toEqual(['已提交注销，发卡机构处理中']));
    expect(calls.filter((call) => call.method === 'delete').map((call) => call.body)).toEqual([{ trx_password: 'Right123' }]);
  });

  it('asks for it to cancel a card whose money is all held, and says the held money follows to the wallet', async () => {
    const held = card({ balance: '0.00', held: '50.00' });
    const { calls } = showCard(true, { [CARD]: (body: unknown) => (body === undefined ? held : { ...held, status: 'DELETING', actions: [] }) }, held);
    const dialog = await openDialog(/注销/, '注销卡片');
    expect(within(dialog).getByTestId('delete-refund')).toHaveTextContent('卡内 50.00 USD 处理中（待结算的授权），结算后余下或撤销的金额将自动退回钱包。');
    type(await within(dialog).findByLabelText('交易密码'), 'Right123');
    await userEvent.click(within(dialog).getByRole('button', { name: '确认注销' }));
    await waitFor(() => expect(calls.filter((call) => call.method === 'delete').map((call) => call.body)).toEqual([{ trx_password: 'Right123' }]));
  });

  it('does not ask for it to cancel a card that holds nothing', async () => {
    const { calls } = showCard(true, {}, card({ balance: '0.00' }));
    const dialog = await openDialog(/注销/, '注销卡片');
    await waitFor(() => expect(calls.some((call) => call.url === '/account/info')).toBe(true));
    expect(within(dialog).queryByLabelText('交易密码')).toBeNull();
    expect(within(dialog).queryByTestId('trade-password-unset')).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: '确认注销' }));
    await waitFor(() => expect(calls.filter((call) => call.method === 'delete')).toHaveLength(1));
    expect(calls.find((call) => call.method === 'delete')?.body).toBeUndefined();
  });
});
