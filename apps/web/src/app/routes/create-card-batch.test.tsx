// @vitest-environment jsdom
import type { BatchStatusAnswer } from '@portal/contract/card-batches';
import { openingCost } from '@portal/contract/cards';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/http.ts';
import { stubApi } from '../../testing/api.ts';
import { renderScreen } from '../../testing/render.tsx';
import { openedAvailable, SUBSCRIPTION_PRODUCT, walletAvailable, walletBalances, accountInfo } from '../../domain/cards/testing/fixtures.ts';
import CreateCard from './create-card.tsx';

const type = (field: HTMLElement, value: string) => fireEvent.change(field, { target: { value } });

const BATCH = '/batch-create-card';
const STATUS = '/card/batch-create-card-status';

const noBatch: BatchStatusAnswer = {
  exist: false,
  success_count: 0,
  fail_count: 0,
  total_count: 0,
  batch_id: null,
  status: null,
  product_id: null,
  nickname_prefix: null,
  message_id: null,
  created_at: null,
  finished_at: null,
};

function stubOpening(answers: Record<string, unknown> = {}, usd = '1000.00') {
  return stubApi({
    '/account/info': accountInfo(false),
    '/card/opened-available': openedAvailable(),
    '/balance/account-balance': walletBalances(usd),
    '/balance/account-balance-status': walletAvailable,
    [STATUS]: noBatch,
    ...answers,
  });
}

const quantityField = () => screen.getByRole('spinbutton', { name: '开卡数量' });
const submit = () => screen.getByTestId('open-card-submit');
const figure = (testId: string) => screen.getByTestId(testId).textContent;

async function fillBatch(quantity: string, amount = '50', prefix = 'FB') {
  await screen.findByRole('radio', { name: '订阅支付卡' });
  type(quantityField(), quantity);
  type(screen.getByRole('textbox', { name: '首充金额' }), amount);
  type(await screen.findByRole('textbox', { name: '卡片昵称前缀' }), prefix);
}

describe('开卡: several cards at once', () => {
  it('starts at one card, named as today', async () => {
    stubOpening();
    renderScreen(<CreateCard />, { at: '/create-card?product=p-sub' });
    await screen.findByRole('radio', { name: '订阅支付卡' });
    expect(quantityField()).toHaveValue('1');
    expect(screen.getByRole('textbox', { name: '卡片昵称' })).toBeInTheDocument();
    expect(screen.queryByTestId('cost-per-card')).toBeNull();
  });

  it('shows each card’s cost × 数量 = 合计 from openingCost, the wallet after, and the names the prefix gives', async () => {
    stubOpening();
    renderScreen(<CreateCard />, { at: '/create-card?product=p-sub' });
    await fillBatch('5');
    const each = openingCost(SUBSCRIPTION_PRODUCT, '50');
    await waitFor(() => expect(figure('cost-per-card')).toBe(`${each.total} USD`));
    expect(figure('cost-quantity')).toBe('× 5 张');
    expect(figure('cost-total')).toBe('264.00 USD');
    expect(figure('wallet-after')).toBe('736.00 USD');
    expect(screen.getByText(/卡片将命名为 FB-001、FB-002 … FB-005/)).toBeInTheDocument();
    expect(submit()).toHaveTextContent('确认开卡（5 张）');
  });

  it('sends the batch call with an Idempotency-Key, then offers to stay or go to the cards', async () => {
    const calls = stubOpening({ [BATCH]: { batch_id: 'b-1' } });
    const { location } = renderScreen(<CreateCard />, { at: '/create-card?product=p-sub' });
    await fillBatch('5', '50', ' FB ');
    await userEvent.click(submit());
    const dialog = await screen.findByRole('dialog', { name: '确认批量开卡' });
    expect(within(dialog).getByTestId('review-quantity')).toHaveTextContent('5 张');
    expect(within(dialog).getByText('FB-001 … FB-005')).toBeInTheDocument();
    expect(within(dialog).getByTestId('cost-total')).toHaveTextContent('264.00 USD');
    await userEvent.click(within(dialog).getByRole('button', { name: '确认并支付' }));
    expect(await screen.findByText('批量开卡已提交')).toBeInTheDocument();
    const posts = calls.filter((call) => call.method === 'post');
    expect(posts).toHaveLength(1);
    expect(posts[0]?.url).toBe(BATCH);
    expect(posts[0]?.body).toEqual({ product_id: 'p-sub', quantity: 5, amount: '50.00', nickname_prefix: 'FB' });
    expect(posts[0]?.headers).toEqual({ 'idempotency-key': expect.stringMatching(/^[0-9a-f-]{36}$/) });
    await userEvent.click(screen.getByTestId('batch-to-cards'));
    await waitFor(() => expect(location.current?.pathname).toBe('/card'));
  });

  it('says before submit that the quota, the batch maximum or the money is short', async () => {
    stubOpening({}, '200.00');
    renderScreen(<CreateCard />, { at: '/create-card?product=p-sub' });
    await fillBatch('11');
    // 订阅支付卡 has 10 cards left for this account
    expect(await screen.findByTestId('blocker-quota-short')).toHaveTextContent('还可再开 10 张');
    expect(submit()).toBeDisabled();
    type(quantityField(), '4');
    await waitFor(() => expect(screen.queryByTestId('blocker-quota-short')).toBeNull());
    // 4 × 52.80 = 211.20 > 200.00
    expect(await screen.findByTestId('blocker-insufficient')).toHaveTextContent('本次开卡共需 211.20 USD');
    expect(submit()).toBeDisabled();
    type(quantityField(), '3');
    await waitFor(() => expect(submit()).toBeEnabled());
  });

  it('says a batch is already running, with its progress', async () => {
    stubOpening({ [STATUS]: { ...noBatch, exist: true, status: 'RUNNING', batch_id: 'b-0', success_count: 3, fail_count: 1, total_count: 20 } });
    renderScreen(<CreateCard />, { at: '/create-card?product=p-sub' });
    await fillBatch('2');
    expect(await screen.findByTestId('blocker-batch-running')).toHaveTextContent('已处理 4 / 20 张');
    expect(submit()).toBeDisabled();
    // one card is opened on its own, beside the batch
    type(quantityField(), '1');
    await waitFor(() => expect(screen.queryByTestId('blocker-batch-running')).toBeNull());
  });

  it('puts the server’s refusal of the count on its field, in its words', async () => {
    stubOpening({ [BATCH]: new ApiError({ kind: 'api', code: 4302, status: 400, message: '该卡片产品单批最多开20张' }) });
    renderScreen(<CreateCard />, { at: '/create-card?product=p-sub' });
    await fillBatch('5');
    await userEvent.click(submit());
    const dialog = await screen.findByRole('dialog', { name: '确认批量开卡' });
    await userEvent.click(within(dialog).getByRole('button', { name: '确认并支付' }));
    expect(await screen.findByText('该卡片产品单批最多开20张')).toBeInTheDocument();
  });
});
