// @vitest-environment jsdom
import { controlsMessages } from '@portal/contract/card-spending';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/http.ts';
import { stubApi } from '../../../testing/api.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { card, controls, accountInfo } from '../../../domain/cards/testing/fixtures.ts';
import { CardControls } from './card-controls.tsx';

const CONTROLS = '/card/c-1/controls';

/** Sets a field's value in one change, as a paste would. */
const type = (field: HTMLElement, value: string) => fireEvent.change(field, { target: { value } });

/** The same address answers the GET (no body) and the PUT (its answer a function of the body, or a refusal). */
function renderControls(answer: unknown = controls(), put: unknown = (body: unknown) => ({ ...controls(), ...(body as object) })) {
  const puts: unknown[] = [];
  stubApi({
    '/account/info': accountInfo(false),
    [CONTROLS]: (body: unknown) => {
      if (body === undefined) return answer;
      puts.push(body);
      return typeof put === 'function' ? put(body) : put;
    },
  });
  const view = renderScreen(<CardControls card={card()} focus={null} />);
  return { ...view, puts };
}

const field = (name: string) => screen.getByTestId(`control-${name}`);
const save = () => screen.getByTestId('controls-save');

describe('卡片限制', () => {
  it('shows the limits (empty: 不限), the blocked categories and the allowed countries (by 中文 name only) as saved', async () => {
    renderControls(controls({ single_limit: '100.00', daily_limit: null, monthly_limit: '5000.00', blocked_categories: ['GAMBLING', 'CRYPTO'], allowed_countries: ['US', 'GB', 'MT'] }));
    await screen.findByTestId('card-controls-form');
    expect(field('single_limit')).toHaveValue('100.00');
    expect(field('daily_limit')).toHaveValue('');
    expect(field('daily_limit')).toHaveAttribute('placeholder', '不限');
    expect(field('monthly_limit')).toHaveValue('5000.00');
    expect(screen.getByRole('checkbox', { name: '赌博' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: '加密货币' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: '金融服务' })).not.toBeChecked();
    const countries = screen.getByTestId('control-countries');
    expect(within(countries).getByText('美国')).toBeInTheDocument();
    expect(within(countries).getByText('英国')).toBeInTheDocument();
    expect(within(countries).getByText('马耳他')).toBeInTheDocument();
    expect(countries.textContent).not.toMatch(/\b(US|GB|MT)\b/);
    // offered once the member's role is known to allow it (cards.manage)
    expect(await screen.findByTestId('controls-save')).toBeDisabled();
  });

  it('says 全部国家和地区 when no country is chosen', async () => {
    renderControls();
    await screen.findByTestId('card-controls-form');
    expect(within(screen.getByTestId('control-countries')).getByText('全部国家和地区')).toBeInTheDocument();
  });

  it('offers every country by its 中文 name, found by its name or its code', async () => {
    renderControls();
    await screen.findByTestId('card-controls-form');
    const search = within(screen.getByTestId('control-countries')).getByRole('combobox');
    fireEvent.mouseDown(search);
    type(search, '马耳');
    await waitFor(() => expect(document.querySelector('.ant-select-item-option[title="MT"]')).toHaveTextContent(/^马耳他$/));
    type(search, 'mt');
    await waitFor(() => expect(document.querySelectorAll('.ant-select-item-option')).toHaveLength(1));
    expect(document.querySelector('.ant-select-item-option')).toHaveTextContent(/^马耳他$/);
  });

  it('checks a limit as it is typed, with the contract’s message', async () => {
    renderControls();
    await screen.findByTestId('card-controls-form');
    type(field('single_limit'), '12.345');
    expect(await screen.findByText(controlsMessages.limit)).toBeInTheDocument();
    type(field('single_limit'), '0');
    expect(await screen.findByText(controlsMessages.limit)).toBeInTheDocument();
    type(field('single_limit'), '12.34');
    await waitFor(() => expect(screen.queryByText(controlsMessages.limit)).toBeNull());
  });

  it('keeps the limits in order: 单笔 ≤ 单日 ≤ 单月', async () => {
    const { puts } = renderControls();
    await screen.findByTestId('card-controls-form');
    type(field('daily_limit'), '100');
    type(field('single_limit'), '150');
    expect(await screen.findByText(controlsMessages.singleOverDaily)).toBeInTheDocument();
    type(field('single_limit'), '50');
    await waitFor(() => expect(screen.queryByText(controlsMessages.singleOverDaily)).toBeNull());
    type(field('monthly_limit'), '80');
    expect(await screen.findByText(controlsMessages.dailyOverMonthly)).toBeInTheDocument();
    await userEvent.click(save());
    expect(puts).toEqual([]);
  });

  it('saves the whole set: empty limits as null, categories and countries as chosen', async () => {
    const { puts, notices } = renderControls(controls({ daily_limit: '300.00', allowed_countries: ['US'] }));
    await screen.findByTestId('card-controls-form');
    type(field('single_limit'), ' 50.5 ');
    type(field('daily_limit'), '');
    type(field('monthly_limit'), '2000');
    await userEvent.click(screen.getByRole('checkbox', { name: '赌博' }));
    await userEvent.click(screen.getByRole('checkbox', { name: '加密货币' }));
    await waitFor(() => expect(save()).toBeEnabled());
    await userEvent.click(save());
    await waitFor(() => expect(notices.successes).toEqual(['卡片限制已保存']));
    expect(puts).toEqual([
      { single_limit: '50.5', daily_limit: null, monthly_limit: '2000', blocked_categories: ['GAMBLING', 'CRYPTO'], allowed_countries: ['US'] },
    ]);
  });

  it('puts the server’s refusal on its field, without a toast', async () => {
    const refusal = new ApiError({
      kind: 'api',
      code: 1001,
      status: 400,
      message: '参数错误',
      data: { fields: [{ field: 'monthly_limit', message: '单月限额不能超过卡片产品上限' }] },
    });
    const { notices } = renderControls(controls(), refusal);
    await screen.findByTestId('card-controls-form');
    type(field('monthly_limit'), '999999');
    await waitFor(() => expect(save()).toBeEnabled());
    await userEvent.click(save());
    expect(await screen.findByText('单月限额不能超过卡片产品上限')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(notices.errors).toEqual([]);
    expect(notices.successes).toEqual([]);
  });

  it('draws what was spent today and this month against the daily and monthly limits', async () => {
    renderControls(controls({ daily_limit: '200.00', monthly_limit: null, spent_today: '150.00', spent_this_month: '1234.50' }));
    const today = await screen.findByTestId('spent-today');
    expect(today).toHaveTextContent('今日已消费150.00 / 200.00 USD');
    expect(within(today).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '75');
    const month = screen.getByTestId('spent-this-month');
    expect(month).toHaveTextContent('本月已消费1,234.50 USD · 未设限额');
  });

  it('says when the controls could not be loaded, and asks again on 重试', async () => {
    let fail = true;
    stubApi({ '/account/info': accountInfo(false), [CONTROLS]: () => (fail ? new Error('offline') : controls()) });
    renderScreen(<CardControls card={card()} focus={null} />);
    const error = await screen.findByTestId('controls-error');
    expect(error).toHaveTextContent('卡片限制加载失败');
    fail = false;
    await userEvent.click(within(error).getByRole('button', { name: '重试' }));
    expect(await screen.findByTestId('card-controls-form')).toBeInTheDocument();
  });
});
