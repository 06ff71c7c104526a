// @vitest-environment jsdom
import type { CardItem } from '@portal/contract/cards';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/http.ts';
import { stubApi } from '../../testing/api.ts';
import { cardKeys } from '../../domain/cards/api/card-keys.ts';
import { renderScreen } from '../../testing/render.tsx';
import { card, controls, openedAvailable, walletAvailable, walletBalances, accountInfo } from '../../domain/cards/testing/fixtures.ts';
import CardDetails from './card-details.tsx';

const CARD = '/card/c-1';
const RECHARGE = `${CARD}/recharge`;
const SAVE_FAILED = '当前网络异常，数据已保存，恢复后提交即可';
const offline = (method: 'get' | 'post') =>
  new ApiError({ kind: 'network', message: method === 'post' ? SAVE_FAILED : '当前网络异常，请检查网络设置后再次尝试操作' });

/** The server, with a switch for the network: offline, every call fails as the HTTP module fails it. */
function stubServer(recharge: () => unknown) {
  const state = { online: true, card: card() as CardItem };
  const calls = stubApi({
    '/account/info': accountInfo(false),
    [CARD]: () => (state.online ? state.card : offline('get')),
    [`${CARD}/transactions`]: { items: [], total: 0, page: 1, page_size: 20 },
    [`${CARD}/controls`]: controls(),
    '/card/opened-available': () => (state.online ? openedAvailable() : offline('get')),
    '/balance/account-balance': () => (state.online ? walletBalances() : offline('get')),
    '/balance/account-balance-status': walletAvailable,
    [RECHARGE]: () => (state.online ? recharge() : offline('post')),
  });
  return { state, calls };
}

async function openRecharge(amount: string) {
  fireEvent.click(await screen.findByRole('button', { name: /充值/ }));
  const dialog = await screen.findByRole('dialog');
  fireEvent.change(within(dialog).getByRole('textbox', { name: '充值金额' }), { target: { value: amount } });
  return dialog;
}

const keysSent = (calls: ReturnType<typeof stubApi>) =>
  calls.filter((call) => call.url === RECHARGE).map((call) => (call.headers as Record<string, string>)['idempotency-key']);

describe('卡片详情 when the network fails', () => {
  it('keeps the card and the open top-up with its amount, says so in the dialog, and sends the same key on the next press', async () => {
    const { state, calls } = stubServer(() => ({ card: card({ balance: '170.50' }), fee: '0.80', total: '50.80' }));
    const { notices } = renderScreen(<CardDetails />, { at: '/card-details?id=c-1' });
    const dialog = await openRecharge('50');

    state.online = false;
    fireEvent.click(within(dialog).getByRole('button', { name: '确认充值' }));
    expect(await within(dialog).findByTestId('unanswered')).toHaveTextContent(SAVE_FAILED);
    // the card read again around the failed call fails too: what was shown stays, marked as such
    expect(await screen.findByTestId('stale-data')).toHaveTextContent(/数据可能不是最新/);
    expect(screen.getByTestId('card-balance')).toHaveTextContent('120.50USD');
    expect(screen.queryByText('卡片信息加载失败')).toBeNull();
    expect(screen.getByRole('dialog')).toBe(dialog);
    expect(within(dialog).getByRole('textbox', { name: '充值金额' })).toHaveValue('50');

    state.online = true;
    fireEvent.click(within(dialog).getByRole('button', { name: '确认充值' }));
    await waitFor(() => expect(notices.successes).toEqual(['充值成功：50.00 USD，手续费 0.80 USD']));
    const keys = keysSent(calls);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    await waitFor(() => expect(screen.queryByTestId('stale-data')).toBeNull());
  });
});

describe('卡片详情 when the card changes under an open dialog', () => {
  it('replaces the top-up by what happened once the card is cancelled elsewhere', async () => {
    const { state } = stubServer(() => ({ card: card(), fee: '0.80', total: '50.80' }));
    const { queryClient } = renderScreen(<CardDetails />, { at: '/card-details?id=c-1' });
    const dialog = await openRecharge('50');
    expect(within(dialog).getByRole('button', { name: '确认充值' })).toBeInTheDocument();

    // another tab cancelled it: the event stream has the page read the card again
    state.card = card({ status: 'DELETE', balance: '0.00', actions: [] });
    await act(() => queryClient.invalidateQueries({ queryKey: cardKeys.detail('c-1') }));
    const changed = await screen.findByTestId('card-changed');
    expect(changed).toHaveTextContent('该卡片已注销');
    expect(changed).toHaveTextContent('此卡当前不能充值');
    // (the top-up's own dialog is closed; jsdom runs no closing animation, so its leaving is checked in the browser tests)
    expect(within(changed.closest('.ant-modal') as HTMLElement).queryByRole('button', { name: '确认充值' })).toBeNull();
  });
});
