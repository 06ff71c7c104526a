// @vitest-environment jsdom
import { type CardItem, type CardTransactionItem, rechargeCost } from '@portal/contract/cards';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/http.ts';
import { stubApi } from '../../testing/api.ts';
import { renderScreen } from '../../testing/render.tsx';
import { card, controls, openedAvailable, SUBSCRIPTION_PRODUCT, walletAvailable, walletBalances, accountInfo } from '../../domain/cards/testing/fixtures.ts';
import CardDetails from './card-details.tsx';

/** Sets a field's value in one change, as a paste would: these tests are about the screen, not the keystrokes. */
const type = (field: HTMLElement, value: string) => fireEvent.change(field, { target: { value } });

const CARD = '/card/c-1';
const TRANSACTIONS = '/card/c-1/transactions';

const transaction = (overrides: Partial<CardTransactionItem> = {}): CardTransactionItem => ({
  id: 't-1',
  card_id: 'c-1',
  type: 'TRANSFER_IN',
  status: 'CLOSED',
  amount: '100.00',
  currency: 'USD',
  merchant_name: null,
  mcc: null,
  country: null,
  decline_reason: null,
  authorization_id: null,
  decline_code: null,
  decline_fix: null,
  created_at: '2026-03-01T02:31:00.000Z',
  settled_at: '2026-03-01T02:31:00.000Z',
  ...overrides,
});

function stubCard(answer: CardItem | Error | ((body: unknown) => unknown), more: Record<string, unknown> = {}) {
  return stubApi({
    '/account/info': accountInfo(false),
    [CARD]: answer,
    [TRANSACTIONS]: { items: [], total: 0, page: 1, page_size: 20 },
    [`${CARD}/controls`]: controls(),
    '/card/opened-available': openedAvailable(),
    '/balance/account-balance': walletBalances(),
    '/balance/account-balance-status': walletAvailable,
    ...more,
  });
}

/**
 * The open dialog, checked by its title. (In tests every antd id is "test-id", so a dialog's
 * aria-labelledby can name a tooltip's element instead of its title.)
 */
async function openDialog(title: string | RegExp) {
  const dialog = await screen.findByRole('dialog');
  expect(within(dialog).getByText(title, { selector: '.ant-modal-title' })).toBeInTheDocument();
  return dialog;
}

const actionButtons = () =>
  within(screen.getByTestId('card-actions'))
    .getAllByRole('button')
    .map((button) => button.textContent?.replace(/\s/g, ''));

describe('卡片详情', () => {
  it('shows the card masked, its balance and status, and offers exactly its actions', async () => {
    stubCard(card());
    renderScreen(<CardDetails />, { at: '/card-details?id=c-1' });
    expect(await screen.findByTestId('card-face-number')).toHaveTextContent('•••• •••• •••• 4444');
    expect(screen.getByTestId('card-face-expiry')).toHaveTextContent('**/**');
    expect(screen.getByTestId('card-title')).toHaveTextContent('订阅付款');
    expect(screen.getByTestId('card-balance')).toHaveTextContent('120.50USD');
    expect(screen.getByTestId('card-status')).toHaveTextContent('使用中');
    expect(actionButtons()).toEqual(['充值', '提现', '冻结', '注销']);
  });

  it('shows who froze it and why, and no 解冻 when the operator did', async () => {
    stubCard(card({ status: 'FREEZE', frozen_by: 'OPERATOR', status_reason: '交易异常核查', actions: ['WITHDRAW'] }));
    renderScreen(<CardDetails />, { at: '/card-details?id=c-1' });
    const notice = await screen.findByTestId('card-frozen-notice');
    expect(notice).toHaveTextContent('此卡已冻结（平台冻结）');
    expect(notice).toHaveTextContent('冻结原因：交易异常核查');
    expect(notice).toHaveTextContent('此卡由平台冻结，如需解冻请联系客服');
    expect(actionButtons()).toEqual(['提现']);
    expect(screen.queryByRole('button', { name: /解冻/ })).toBeNull();
  });

  it('says the same of a freeze by the issuer', async () => {
    stubCard(card({ status: 'FREEZE', frozen_by: 'ISSUER', status_reason: null, actions: ['WITHDRAW'] }));
    renderScreen(<CardDetails />, { at: '/card-details?id=c-1' });
    expect(await screen.findByTestId('card-frozen-notice')).toHaveTextContent('此卡由发卡机构冻结，如需解冻请联系客服');
    expect(screen.queryByRole('button', { name: /解冻/ })).toBeNull();
  });

  it('unfreezes the holder’s own freeze after confirming, and shows the issuer at work', async () => {
    const frozen = card({ status: 'FREEZE', frozen_by: 'CUSTOMER', actions: ['UNFREEZE', 'WITHDRAW', 'DELETE'] });
    const calls = stubCard(frozen, { [`${CARD}/status`]: card({ status: 'UNFREEZING', frozen_by: null, actions: [] }) });
    const { notices } = renderScreen(<CardDetails />, { at: '/card-details?id=c-1' });
    expect(await screen.findByTestId('card-frozen-notice')).toHaveTextContent('您可随时解冻此卡');
    expect(actionButtons()).toEqual(['提现', '解冻', '注销']);
    await userEvent.click(screen.getByRole('button', { name: /解冻/ }));
    const dialog = await openDialog('解冻卡片');
    await userEvent.click(within(dialog).getByRole('button', { name: '确认解冻' }));
    await waitFor(() => expect(screen.getByTestId('card-status')).toHaveTextContent('解冻中'));
    expect(calls.filter((call) => call.method === 'put')).toEqual([{ method: 'put', url: `${CARD}/status`, body: { action: 'UNFREEZE' } }]);
    expect(screen.getByTestId('card-processing-notice')).toHaveTextContent('发卡机构处理中');
    expect(screen.queryByTestId('card-actions')).toBeNull();
    expect(notices.successes).toEqual(['已提交解冻，发卡机构处理中']);
  });

  it('shows a card being opened as 申请中, the issuer at work, with nothing to do yet', async () => {
    stubCard(card({ status: 'CARD_STATUS_INIT', last4: null, balance: '0.00', actions: [] }));
    renderScreen(<CardDetails />, { at: '/card-details?id=c-1' });
    expect(await screen.findByTestId('card-status')).toHaveTextContent('申请中');
    expect(screen.getByTestId('card-processing-notice')).toHaveTextContent('开卡申请处理中');
    expect(screen.getByTestId('card-face-number')).toHaveTextContent('待发卡');
    expect(screen.queryByTestId('card-actions')).toBeNull();
    expect(screen.getByRole('button', { name: /查看卡号/ })).toBeDisabled();
  });

  it('says why a card was not issued', async () => {
    stubCard(card({ status: 'FAIL', last4: null, failure_reason: '持卡人信息未通过发卡机构审核', actions: [] }));
    renderScreen(<CardDetails />, { at: '/card-details?id=c-1' });
    const notice = await screen.findByTestId('card-failed-notice');
    expect(notice).toHaveTextContent('失败原因：持卡人信息未通过发卡机构审核');
    expect(screen.getByTestId('card-status')).toHaveTextContent('开卡失败');
  });

  it('says that closing returns the balance to the wallet before closing', async () => {
    const calls = stubCard(card(), { [CARD]: (body: unknown) => (body === undefined ? card() : null) });
    renderScreen(<CardDetails />, { at: '/card-details?id=c-1' });
    await userEvent.click(await screen.findByRole('button', { name: /注销/ }));
    const dialog = await openDialog('注销卡片');
    expect(within(dialog).getByTestId('delete-refund')).toHaveTextContent('卡内余额 120.50 USD 将在注销完成后退回钱包。');
    await userEvent.click(within(dialog).getByRole('button', { name: '取消' }));
    expect(calls.filter((call) => call.method === 'delete')).toEqual([]);
  });

  it('shows the fee and total of a top-up before confirming, and sends it with an Idempotency-Key', async () => {
    const calls = stubCard(card(), {
      [`${CARD}/recharge`]: { card: card({ balance: '170.50' }), fee: '0.80', total: '50.80' },
    });
    const { notices } = renderScreen(<CardDetails />, { at: '/card-details?id=c-1' });
    await userEvent.click(await screen.findByRole('button', { name: /充值/ }));
    const dialog = await openDialog(/充值/);
    type(within(dialog).getByRole('textbox', { name: '充值金额' }), '50');
    const cost = rechargeCost(SUBSCRIPTION_PRODUCT, '50');
    await waitFor(() => expect(within(dialog).getByTestId('recharge-fee')).toHaveTextContent(`${cost.fee} USD`));
    expect(within(dialog).getByTestId('recharge-total')).toHaveTextContent(`${cost.total} USD`);
    expect(within(dialog).getByTestId('recharge-wallet')).toHaveTextContent('1,000.00 USD');
    await userEvent.click(within(dialog).getByRole('button', { name: '确认充值' }));
    await waitFor(() => expect(notices.successes).toEqual(['充值成功：50.00 USD，手续费 0.80 USD']));
    const post = calls.find((call) => call.url === `${CARD}/recharge`);
    expect(post?.body).toEqual({ amount: '50.00' });
    expect(post?.headers).toEqual({ 'idempotency-key': expect.stringMatching(/^[0-9a-f-]{36}$/) });
    await waitFor(() => expect(screen.getByTestId('card-balance')).toHaveTextContent('170.50USD'));
  });

  it('previews a top-up at the fee terms the card was opened under, not its product’s current ones', async () => {
    // the product now charges 1 % + 0.30; this card was opened at 2 % with a 1.00 minimum
    const opened = card({ fees: { topup_fee_rate: '0.02', topup_fee_fixed: '0.00', topup_fee_min: '1.00', topup_fee_max: null, decline_fee: '0.50' } });
    stubCard(opened);
    renderScreen(<CardDetails />, { at: '/card-details?id=c-1' });
    await userEvent.click(await screen.findByRole('button', { name: /充值/ }));
    const dialog = await openDialog(/充值/);
    type(within(dialog).getByRole('textbox', { name: '充值金额' }), '80');
    await waitFor(() => expect(within(dialog).getByTestId('recharge-fee')).toHaveTextContent('1.60 USD'));
    expect(within(dialog).getByTestId('recharge-total')).toHaveTextContent('81.60 USD');
    expect(rechargeCost(SUBSCRIPTION_PRODUCT, '80').fee).not.toBe('1.60');
    expect(within(dialog).getByTestId('recharge-breakdown')).toHaveTextContent('费率 2%（最低 1.00）');
    // the card's page names the same terms
    expect(screen.getByTestId('card-topup-fee')).toHaveTextContent('2%（最低 1.00）');
    expect(screen.getByTestId('card-decline-fee')).toHaveTextContent('0.50 USD');
  });

  it('refuses a withdrawal above the card’s balance', async () => {
    const calls = stubCard(card());
    renderScreen(<CardDetails />, { at: '/card-details?id=c-1' });
    await userEvent.click(await screen.findByRole('button', { name: /提现/ }));
    const dialog = await openDialog(/提现/);
    type(within(dialog).getByRole('textbox', { name: '提现金额' }), '200');
    await userEvent.click(within(dialog).getByRole('button', { name: '确认提现' }));
    expect(await within(dialog).findByText('提现金额不能超过卡内可用余额')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'post')).toEqual([]);
  });

  it('lists the card’s transactions with the contract’s labels', async () => {
    stubCard(card(), {
      [TRANSACTIONS]: {
        items: [transaction(), transaction({ id: 't-2', type: 'TRANSFER_OUT', status: 'PENDING', amount: '20.00' })],
        total: 2,
        page: 1,
        page_size: 20,
      },
    });
    renderScreen(<CardDetails />, { at: '/card-details?id=c-1' });
    await waitFor(() => expect(screen.getAllByTestId('transaction-type').map((cell) => cell.textContent)).toEqual(['转入', '转出']));
    expect(screen.getAllByTestId('transaction-status').map((cell) => cell.textContent)).toEqual(['已完成', '处理中']);
  });

  it('says when the card has no transactions yet', async () => {
    stubCard(card());
    renderScreen(<CardDetails />, { at: '/card-details?id=c-1' });
    expect(await screen.findByTestId('transactions-empty')).toHaveTextContent('暂无交易记录');
  });

  it('says 卡片不存在 for an unknown id, without a toast, with a way back to /card', async () => {
    stubCard(new ApiError({ kind: 'api', code: 4001, status: 404, message: '卡片不存在' }));
    const { location, notices } = renderScreen(<CardDetails />, { at: '/card-details?id=c-1' });
    const missing = await screen.findByTestId('card-not-found');
    expect(missing).toHaveTextContent('卡片不存在');
    await userEvent.click(within(missing).getByRole('button', { name: '返回我的卡片' }));
    expect(location.current?.pathname).toBe('/card');
    expect(notices.errors).toEqual([]);
  });

  it('says 卡片不存在 without an id', async () => {
    const calls = stubCard(card());
    renderScreen(<CardDetails />, { at: '/card-details' });
    expect(screen.getByTestId('card-not-found')).toHaveTextContent('卡片不存在');
    expect(calls).toEqual([]);
  });
});
