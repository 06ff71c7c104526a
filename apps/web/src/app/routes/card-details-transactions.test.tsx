// @vitest-environment jsdom
import type { CardItem, CardTransactionItem } from '@portal/contract/cards';
import { declineReasons } from '@portal/contract/card-spending';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError, http, type RawResponse } from '../../lib/http.ts';
import { apiUrl, stubApi } from '../../testing/api.ts';
import { renderScreen } from '../../testing/render.tsx';
import { setScreenWidth } from '../../testing/screen.ts';
import { applyCardEvents } from '../layouts/apply-card-events.ts';
import CardDetails from './card-details.tsx';
import { card, controls, openedAvailable, walletAvailable, walletBalances, accountInfo } from '../../domain/cards/testing/fixtures.ts';

const CARD = '/card/c-1';
const TRANSACTIONS = '/card/c-1/transactions';
const EXPORT = '/card/c-1/transactions/export';

const transaction = (overrides: Partial<CardTransactionItem> = {}): CardTransactionItem => ({
  id: 't-1',
  card_id: 'c-1',
  type: 'CONSUME',
  status: 'CLOSED',
  amount: '12.34',
  currency: 'USD',
  merchant_name: 'Meta Ads',
  mcc: '7311',
  country: 'US',
  decline_reason: null,
  created_at: '2026-03-01T02:31:00.000Z',
  settled_at: '2026-03-01T02:31:00.000Z',
  authorization_id: 'auth-1',
  decline_code: null,
  decline_fix: null,
  ...overrides,
});

const declined = (code: keyof typeof declineReasons, overrides: Partial<CardTransactionItem> = {}) =>
  transaction({
    id: `t-${code}`,
    status: 'FAIL',
    decline_code: code,
    decline_reason: declineReasons[code].reason,
    decline_fix: declineReasons[code].fix,
    ...overrides,
  });

const page = (items: CardTransactionItem[]) => ({ items, total: items.length, page: 1, page_size: 20 });

function stubCard(items: CardTransactionItem[] | ((query: unknown) => unknown), more: Record<string, unknown> = {}, theCard: CardItem = card()) {
  return stubApi({
    '/account/info': accountInfo(false),
    [CARD]: theCard,
    [TRANSACTIONS]: typeof items === 'function' ? items : page(items),
    [`${CARD}/controls`]: controls(),
    '/card/opened-available': openedAvailable(),
    '/balance/account-balance': walletBalances(),
    '/balance/account-balance-status': walletAvailable,
    ...more,
  });
}

const texts = (testId: string) => screen.getAllByTestId(testId).map((cell) => cell.textContent);
const transactionQueries = (calls: ReturnType<typeof stubApi>) => calls.filter((call) => call.url === TRANSACTIONS).map((call) => call.params);

describe('卡片交易记录', () => {
  it('shows every type and status with the contract’s 中文 labels', async () => {
    stubCard([
      transaction({ id: 'a', type: 'CONSUME', status: 'CLOSED' }),
      transaction({ id: 'b', type: 'ADJUST_IN', status: 'PENDING' }),
      transaction({ id: 'c', type: 'REFUND', status: 'CLOSED' }),
      transaction({ id: 'd', type: 'TRANSFER_IN', status: 'CLOSED', merchant_name: null, mcc: null, country: null }),
      transaction({ id: 'e', type: 'TRANSFER_OUT', status: 'FAIL' }),
    ]);
    renderScreen(<CardDetails />, { at: '/card-details?id=c-1' });
    await waitFor(() => expect(texts('transaction-type')).toEqual(['消费', '调整转入', '退款', '转入', '转出']));
    expect(texts('transaction-status')).toEqual(['已完成', '处理中', '已完成', '已完成', '失败']);
  });

  it('names the merchant, its category and its country in 中文, with no code beside them', async () => {
    stubCard([
      transaction({ id: 'a', merchant_name: 'Lucky Casino', mcc: '7995', country: 'GB' }),
      transaction({ id: 'b', merchant_name: 'Meta Ads', mcc: '7311', country: 'US' }),
      transaction({ id: 'c', merchant_name: 'Shop', mcc: '5734', country: 'MT' }),
    ]);
    renderScreen(<CardDetails />, { at: '/card-details?id=c-1' });
    await waitFor(() => expect(texts('transaction-merchant')).toEqual(['Lucky Casino', 'Meta Ads', 'Shop']));
    expect(texts('transaction-category')).toEqual(['博彩', '广告服务', '计算机软件商店']);
    expect(texts('transaction-country')).toEqual(['英国', '美国', '马耳他']);
    expect(screen.getAllByTestId('transaction-category').map((cell) => cell.getAttribute('title'))).toEqual(['MCC 7995', 'MCC 7311', 'MCC 5734']);
    expect(texts('transaction-amount')[0]).toBe('12.34 USD');
  });

  it('shows a decline’s reason and fix, with the fix’s button only where it can act', async () => {
    stubCard([
      declined('INSUFFICIENT_FUNDS', { id: 'a' }),
      declined('CARD_CLOSED', { id: 'b' }),
      // a decline whose row carries only the code: the contract's words stand in
      declined('OVER_DAILY_LIMIT', { id: 'c', decline_reason: null, decline_fix: null }),
    ]);
    renderScreen(<CardDetails />, { at: '/card-details?id=c-1' });
    await waitFor(() => expect(screen.getAllByTestId('transaction-decline')).toHaveLength(3));
    expect(texts('decline-reason')).toEqual(['卡片余额不足', '卡片已注销', '超出单日限额']);
    expect(texts('decline-fix')).toEqual([declineReasons.INSUFFICIENT_FUNDS.fix, declineReasons.CARD_CLOSED.fix, declineReasons.OVER_DAILY_LIMIT.fix]);
    const [funds, closed, daily] = screen.getAllByTestId('transaction-decline') as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(funds).getByTestId('decline-fix-button')).toHaveTextContent('去充值');
    expect(within(closed).queryByTestId('decline-fix-button')).toBeNull();
    expect(within(daily).getByTestId('decline-fix-button')).toHaveTextContent('调整卡片限制');
  });

  it('opens the card’s 充值 from a decline for want of funds', async () => {
    stubCard([declined('INSUFFICIENT_FUNDS')]);
    renderScreen(<CardDetails />, { at: '/card-details?id=c-1' });
    await userEvent.click(await screen.findByTestId('decline-fix-button'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/充值/, { selector: '.ant-modal-title' })).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: '充值金额' })).toBeInTheDocument();
  });

  it('offers 解冻 for a decline of a frozen card the holder may unfreeze', async () => {
    const frozen = card({ status: 'FREEZE', frozen_by: 'CUSTOMER', actions: ['UNFREEZE', 'WITHDRAW', 'DELETE'] });
    stubCard([declined('CARD_FROZEN')], {}, frozen);
    renderScreen(<CardDetails />, { at: '/card-details?id=c-1' });
    await userEvent.click(await screen.findByTestId('decline-fix-button'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('解冻卡片', { selector: '.ant-modal-title' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: '确认解冻' })).toBeInTheDocument();
  });

  it('hides 解冻 for a card the platform froze', async () => {
    stubCard([declined('CARD_FROZEN')], {}, card({ status: 'FREEZE', frozen_by: 'OPERATOR', actions: ['WITHDRAW'] }));
    renderScreen(<CardDetails />, { at: '/card-details?id=c-1' });
    expect(await screen.findByTestId('transaction-decline')).toHaveTextContent('卡片已冻结');
    expect(screen.queryByTestId('decline-fix-button')).toBeNull();
  });

  it('leads a decline over a limit to that limit in the card’s controls', async () => {
    stubCard([declined('OVER_SINGLE_LIMIT')]);
    renderScreen(<CardDetails />, { at: '/card-details?id=c-1' });
    const field = await screen.findByTestId('control-single_limit');
    const scrolled = vi.fn();
    Element.prototype.scrollIntoView = scrolled;
    await userEvent.click(await screen.findByTestId('decline-fix-button'));
    await waitFor(() => expect(field).toHaveFocus());
    expect(scrolled).toHaveBeenCalled();
    // jsdom has no scrollIntoView of its own
    Reflect.deleteProperty(Element.prototype, 'scrollIntoView');
  });

  it('asks the server for the type, status and days in the address, and for a type chosen', async () => {
    const calls = stubCard([transaction()]);
    renderScreen(<CardDetails />, { at: '/card-details?id=c-1&status=FAIL&start=2026-03-01&end=2026-03-31' });
    await waitFor(() =>
      expect(transactionQueries(calls)).toContainEqual({ page: 1, page_size: 20, status: 'FAIL', date_from: '2026-03-01', date_to: '2026-03-31' }),
    );
    fireEvent.mouseDown(screen.getByRole('combobox', { name: '交易类型' }));
    fireEvent.click(await screen.findByTitle('退款'));
    await waitFor(() =>
      expect(transactionQueries(calls)).toContainEqual({
        page: 1,
        page_size: 20,
        type: 'REFUND',
        status: 'FAIL',
        date_from: '2026-03-01',
        date_to: '2026-03-31',
      }),
    );
  });

  it('drops days the API would refuse, and a range that ends before it starts keeps its start alone', async () => {
    const calls = stubCard([transaction()]);
    renderScreen(<CardDetails />, { at: '/card-details?id=c-1&type=SPEND&start=2026-03-10&end=2026-03-01' });
    await waitFor(() => expect(transactionQueries(calls)).toEqual([{ page: 1, page_size: 20, date_from: '2026-03-10' }]));
  });

  it('says so when nothing matches the filters, and clears them', async () => {
    const calls = stubCard([]);
    renderScreen(<CardDetails />, { at: '/card-details?id=c-1&type=REFUND' });
    const empty = await screen.findByTestId('transactions-empty');
    expect(empty).toHaveTextContent('没有符合条件的交易记录');
    await userEvent.click(within(empty).getByRole('button', { name: '重置' }));
    await waitFor(() => expect(transactionQueries(calls).at(-1)).toEqual({ page: 1, page_size: 20 }));
  });

  it('says when the list could not be loaded, and asks again on 重试', async () => {
    let fail = true;
    const calls = stubCard(() => (fail ? new Error('offline') : page([transaction()])));
    renderScreen(<CardDetails />, { at: '/card-details?id=c-1' });
    const error = await screen.findByTestId('transactions-error');
    fail = false;
    await userEvent.click(within(error).getByRole('button', { name: '重试' }));
    await waitFor(() => expect(texts('transaction-type')).toEqual(['消费']));
    expect(transactionQueries(calls)).toHaveLength(2);
  });

  it('exports the filtered transactions as .xlsx under the server’s name', async () => {
    stubCard([transaction()]);
    const download = vi.spyOn(http, 'download').mockResolvedValue({
      data: new Blob(['xlsx']),
      headers: { 'content-disposition': "attachment; filename*=UTF-8''%E5%8D%A1%E7%89%87.xlsx" },
    } as unknown as RawResponse);
    URL.createObjectURL = vi.fn(() => 'blob:export');
    URL.revokeObjectURL = vi.fn();
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const { notices } = renderScreen(<CardDetails />, { at: '/card-details?id=c-1&type=CONSUME&start=2026-03-01' });
    const button = await screen.findByTestId('card-transactions-export');
    await waitFor(() => expect(button).toBeEnabled());
    await userEvent.click(button);
    await waitFor(() => expect(notices.successes).toEqual(['已导出 1 条交易记录']));
    expect(download).toHaveBeenCalledWith(apiUrl(EXPORT), { params: { type: 'CONSUME', date_from: '2026-03-01' } });
    expect(clicked).toHaveBeenCalledTimes(1);
  });

  it('keeps the export button usable again after a failed export (the HTTP module says why)', async () => {
    stubCard([transaction()]);
    vi.spyOn(http, 'download').mockRejectedValue(new ApiError({ kind: 'network', message: '网络异常' }));
    const { notices } = renderScreen(<CardDetails />, { at: '/card-details?id=c-1' });
    const button = await screen.findByTestId('card-transactions-export');
    await waitFor(() => expect(button).toBeEnabled());
    await userEvent.click(button);
    await waitFor(() => expect(button).toBeEnabled());
    expect(notices.successes).toEqual([]);
  });

  it('cannot export an empty list', async () => {
    stubCard([]);
    renderScreen(<CardDetails />, { at: '/card-details?id=c-1' });
    await screen.findByTestId('transactions-empty');
    expect(screen.getByTestId('card-transactions-export')).toBeDisabled();
  });

  it('reads the list again when a CARD_TRANSACTION event names this card', async () => {
    let items = [transaction()];
    const calls = stubCard(() => page(items));
    const { queryClient } = renderScreen(<CardDetails />, { at: '/card-details?id=c-1' });
    await waitFor(() => expect(texts('transaction-type')).toEqual(['消费']));
    items = [declined('INSUFFICIENT_FUNDS', { id: 't-new' }), ...items];
    act(() =>
      applyCardEvents(queryClient, {
        type: 'CARD_TRANSACTION',
        card_id: 'c-1',
        transaction_id: 't-new',
        status: 'FAIL',
        amount: '12.34',
        currency: 'USD',
        merchant_name: 'Meta Ads',
        decline_code: 'INSUFFICIENT_FUNDS',
      }),
    );
    await waitFor(() => expect(texts('transaction-status')).toEqual(['失败', '已完成']));
    expect(transactionQueries(calls)).toHaveLength(2);
    // what was spent against the limits moved too
    await waitFor(() => expect(calls.filter((call) => call.url === `${CARD}/controls`).length).toBeGreaterThanOrEqual(2));
  });

  it('shows the decline and its fix in the phone layout too', async () => {
    setScreenWidth(375);
    stubCard([declined('INSUFFICIENT_FUNDS')]);
    renderScreen(<CardDetails />, { at: '/card-details?id=c-1' });
    const row = await screen.findByTestId('transaction-row');
    expect(within(row).getByTestId('transaction-type')).toHaveTextContent('消费');
    expect(within(row).getByText('广告服务 · 美国')).toHaveAttribute('title', 'MCC 7311 · US');
    expect(within(row).getByTestId('decline-reason')).toHaveTextContent('卡片余额不足');
    expect(within(row).getByTestId('decline-fix-button')).toHaveTextContent('去充值');
  });
});
