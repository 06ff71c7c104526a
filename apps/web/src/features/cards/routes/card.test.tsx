// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/http.ts';
import { stubApi } from '../../../testing/api.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { setScreenWidth } from '../../../testing/screen.ts';
import { card, cardPage, openedAvailable, summary, accountInfo } from '../../../domain/cards/testing/fixtures.ts';
import Card from './card.tsx';

const LIST = '/card';

function stubCards(list: unknown = cardPage([card()]), more: Record<string, unknown> = {}) {
  return stubApi({
    '/account/info': accountInfo(false),
    [LIST]: list,
    '/card/summary': summary(),
    '/card/opened-available': openedAvailable(),
    ...more,
  });
}

const listCalls = (calls: ReturnType<typeof stubApi>) => calls.filter((call) => call.url === LIST);

/** Picks an option of an antd Select by the select's accessible name and the option's text. */
async function choose(selectName: string, option: string) {
  fireEvent.mouseDown(screen.getByRole('combobox', { name: selectName }));
  const item = await screen.findByTitle(option);
  fireEvent.click(item);
}

describe('我的卡片', () => {
  it('lists the cards with their nickname, masked number, product, balance and status', async () => {
    stubCards(
      cardPage([
        card(),
        card({ id: 'c-2', nickname: '新卡', last4: null, status: 'CARD_STATUS_INIT', balance: '0.00', actions: [] }),
        card({ id: 'c-3', nickname: '冻结的卡', last4: '0005', status: 'FREEZE', frozen_by: 'OPERATOR', actions: ['WITHDRAW'] }),
      ]),
    );
    renderScreen(<Card />, { at: '/card' });
    const rows = await screen.findAllByTestId('card-row');
    expect(rows).toHaveLength(3);
    const [first, second, third] = rows as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(first).getByTestId('card-number')).toHaveTextContent('•••• 4444');
    expect(within(first).getByText('订阅支付卡')).toBeInTheDocument();
    expect(within(first).getByTestId('card-balance')).toHaveTextContent('120.50');
    expect(within(first).getByTestId('card-status')).toHaveTextContent('使用中');
    expect(within(second).getByTestId('card-number')).toHaveTextContent('待发卡');
    expect(within(second).getByTestId('card-status')).toHaveTextContent('申请中');
    expect(within(third).getByTestId('card-status')).toHaveTextContent('已冻结');
    expect(screen.getByTestId('summary-total')).toHaveTextContent('3');
    expect(screen.getByTestId('summary-amount-USD')).toHaveTextContent('240.50USD');
  });

  it('opens a card’s page from its row', async () => {
    stubCards();
    const { location } = renderScreen(<Card />, { at: '/card' });
    await userEvent.click(await screen.findByTestId('card-row'));
    expect(location.current?.pathname).toBe('/card-details');
    expect(location.current?.search).toBe('?id=c-1');
  });

  it('reads its filters from the address and asks the server for them', async () => {
    const calls = stubCards();
    renderScreen(<Card />, { at: '/card?status=FREEZE&product=p-sub&keyword=4444&page=2' });
    await screen.findByTestId('card-row');
    expect(listCalls(calls)[0]?.params).toEqual({ page: 2, page_size: 20, status: 'FREEZE', product_id: 'p-sub', keyword: '4444' });
    expect(screen.getByRole('searchbox', { name: '搜索卡片' })).toHaveValue('4444');
  });

  it('keeps a chosen status and a search in the address, back on the first page', async () => {
    const calls = stubCards();
    const { location } = renderScreen(<Card />, { at: '/card?page=3' });
    await screen.findByTestId('card-row');
    await choose('卡片状态', '已冻结');
    await waitFor(() => expect(location.current?.search).toBe('?status=FREEZE'));
    await userEvent.type(screen.getByRole('searchbox', { name: '搜索卡片' }), ' 4444 {Enter}');
    await waitFor(() => expect(location.current?.search).toBe('?status=FREEZE&keyword=4444'));
    await waitFor(() => expect(listCalls(calls).at(-1)?.params).toEqual({ page: 1, page_size: 20, status: 'FREEZE', keyword: '4444' }));
    await userEvent.click(screen.getByRole('button', { name: '重置' }));
    await waitFor(() => expect(location.current?.search).toBe(''));
  });

  it('filters by product with the products the account can open', async () => {
    stubCards();
    const { location } = renderScreen(<Card />, { at: '/card' });
    await screen.findByTestId('card-row');
    await choose('卡片产品', '人民币消费卡');
    await waitFor(() => expect(location.current?.search).toBe('?product=p-cny'));
  });

  it('invites a first card when there is none, with a 开卡 button to /create-card', async () => {
    stubCards(cardPage([]), { '/card/summary': summary({ total: 0, amounts: [] }) });
    const { location } = renderScreen(<Card />, { at: '/card' });
    const empty = await screen.findByTestId('cards-empty');
    expect(empty).toHaveTextContent('您还没有卡片');
    await userEvent.click(within(empty).getByRole('button', { name: /开卡/ }));
    expect(location.current?.pathname).toBe('/create-card');
  });

  it('says when no card matches the filters, and clears them', async () => {
    stubCards(cardPage([]));
    const { location } = renderScreen(<Card />, { at: '/card?keyword=zzz' });
    const empty = await screen.findByTestId('cards-empty');
    expect(empty).toHaveTextContent('没有符合条件的卡片');
    await userEvent.click(within(empty).getByRole('button', { name: '清除筛选' }));
    await waitFor(() => expect(location.current?.search).toBe(''));
  });

  it('has a 开卡 button in its header', async () => {
    stubCards();
    const { location } = renderScreen(<Card />, { at: '/card' });
    // offered once the member's role is known to allow it
    await userEvent.click(await screen.findByTestId('open-card'));
    expect(location.current?.pathname).toBe('/create-card');
  });

  it('says when the list could not be loaded, and asks again on 重试', async () => {
    let answer: unknown = new ApiError({ kind: 'network', message: '当前网络异常，请检查网络设置后再次尝试操作' });
    const calls = stubCards(() => answer);
    renderScreen(<Card />, { at: '/card' });
    expect(await screen.findByText('卡片列表加载失败')).toBeInTheDocument();
    answer = cardPage([card()]);
    await userEvent.click(screen.getByRole('button', { name: '重试' }));
    expect(await screen.findByTestId('card-row')).toBeInTheDocument();
    expect(listCalls(calls)).toHaveLength(2);
  });

  it('shows a list of cards instead of the table on a phone', async () => {
    setScreenWidth(375);
    stubCards();
    renderScreen(<Card />, { at: '/card' });
    const row = await screen.findByTestId('card-row');
    expect(row.tagName).toBe('BUTTON');
    expect(screen.queryByRole('table')).toBeNull();
  });
});
