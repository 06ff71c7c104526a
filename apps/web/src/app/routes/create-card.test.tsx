// @vitest-environment jsdom
import { openingCost } from '@portal/contract/cards';
import { ErrorCode } from '@portal/contract/errors';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/http.ts';
import { stubApi } from '../../testing/api.ts';
import { renderScreen } from '../../testing/render.tsx';
import {
  accountInfo,
  AD_PRODUCT,
  card,
  CNY_PRODUCT,
  openedAvailable,
  SUBSCRIPTION_PRODUCT,
  walletAvailable,
  walletBalances,
  walletFrozen,
} from '../../domain/cards/testing/fixtures.ts';
import CreateCard from './create-card.tsx';

/** Sets a field's value in one change, as a paste would: these tests are about the screen, not the keystrokes. */
const type = (field: HTMLElement, value: string) => fireEvent.change(field, { target: { value } });

const OPEN = '/card';

function stubOpening(answers: Record<string, unknown> = {}) {
  return stubApi({
    '/account/info': accountInfo(false),
    '/card/opened-available': openedAvailable(),
    '/balance/account-balance': walletBalances(),
    '/balance/account-balance-status': walletAvailable,
    ...answers,
  });
}

const amountField = () => screen.getByRole('textbox', { name: '首充金额' });
const nicknameField = () => screen.getByRole('textbox', { name: '卡片昵称' });
const submit = () => screen.getByTestId('open-card-submit');
const figure = (testId: string) => screen.getByTestId(testId).textContent;

function fill(amount: string, nickname = '广告投放') {
  type(amountField(), amount);
  type(nicknameField(), nickname);
}

describe('开卡: the cost before confirming', () => {
  it('adds 开卡费, 首充金额 and 充值手续费 as openingCost does, and shows the wallet after', async () => {
    stubOpening();
    renderScreen(<CreateCard />, { at: '/create-card?product=p-ad' });
    expect(await screen.findByRole('radio', { name: '广告投放卡' })).toBeChecked();
    expect(figure('cost-open-fee')).toBe('5.00 USD');
    expect(figure('cost-total')).toBe('—');
    type(amountField(), '100');
    const cost = openingCost(AD_PRODUCT, '100');
    expect(cost).toEqual({ open_fee: '5.00', amount: '100.00', topup_fee: '1.50', total: '106.50' });
    await waitFor(() => expect(figure('cost-total')).toBe(`${cost.total} USD`));
    expect(figure('cost-amount')).toBe('100.00 USD');
    expect(figure('cost-topup-fee')).toBe('1.50 USD');
    expect(figure('wallet-available')).toBe('1,000.00 USD');
    expect(figure('wallet-after')).toBe('893.50 USD');
  });

  it('uses the product’s minimum fee and its fixed part', async () => {
    stubOpening();
    renderScreen(<CreateCard />, { at: '/create-card?product=p-ad' });
    type(await screen.findByRole('textbox', { name: '首充金额' }), '10');
    // 10 × 1.5 % = 0.15, raised to the minimum 0.50
    await waitFor(() => expect(figure('cost-topup-fee')).toBe('0.50 USD'));
    expect(figure('cost-total')).toBe(`${openingCost(AD_PRODUCT, '10').total} USD`);
    await userEvent.click(screen.getByRole('radio', { name: '订阅支付卡' }));
    // 10 × 1 % + 0.30
    await waitFor(() => expect(figure('cost-topup-fee')).toBe('0.40 USD'));
    expect(figure('cost-total')).toBe('12.40 USD');
    expect(screen.getByTestId('product-p-sub')).toHaveTextContent('1% + 0.30 USD');
    expect(screen.getByTestId('product-p-ad')).toHaveTextContent('1.5%（最低 0.50，最高 50.00）');
  });

  it('refuses a first load below the product’s minimum, in the contract’s words', async () => {
    stubOpening();
    renderScreen(<CreateCard />, { at: '/create-card?product=p-cny' });
    type(await screen.findByRole('textbox', { name: '首充金额' }), '20');
    expect(await screen.findByText('首充金额不能低于50.00 CNY')).toBeInTheDocument();
    expect(figure('cost-total')).toBe('—');
  });
});

describe('开卡: what blocks an opening is said before confirming', () => {
  it('a frozen wallet', async () => {
    stubOpening({ '/balance/account-balance-status': walletFrozen });
    renderScreen(<CreateCard />, { at: '/create-card?product=p-sub' });
    const notice = await screen.findByTestId('blocker-wallet-frozen');
    expect(notice).toHaveTextContent('钱包已冻结，暂不能开卡');
    expect(notice).toHaveTextContent('账户核查中');
    expect(submit()).toBeDisabled();
  });

  it('too little money for the whole cost', async () => {
    stubOpening({ '/balance/account-balance': walletBalances('20.00') });
    renderScreen(<CreateCard />, { at: '/create-card?product=p-sub' });
    type(await screen.findByRole('textbox', { name: '首充金额' }), '18');
    const notice = await screen.findByTestId('blocker-insufficient');
    // 2.00 + 18.00 + 0.48 = 20.48 > 20.00
    expect(notice).toHaveTextContent('本次开卡需 20.48 USD，钱包可用 20.00 USD');
    expect(figure('wallet-after')).toBe('-0.48 USD');
    expect(submit()).toBeDisabled();
    type(amountField(), '17');
    await waitFor(() => expect(screen.queryByTestId('blocker-insufficient')).toBeNull());
    expect(submit()).toBeEnabled();
  });

  it('no quota left for the product', async () => {
    stubOpening({ '/card/opened-available': openedAvailable([AD_PRODUCT, { ...SUBSCRIPTION_PRODUCT, remaining: 0 }]) });
    renderScreen(<CreateCard />, { at: '/create-card?product=p-sub' });
    expect(await screen.findByTestId('blocker-quota')).toHaveTextContent('该卡片产品的开卡数量已达上限');
    expect(screen.getByTestId('product-p-sub')).toHaveTextContent('已达开卡上限');
    expect(submit()).toBeDisabled();
  });

  it('a product that is off', async () => {
    stubOpening({ '/card/opened-available': openedAvailable([{ ...CNY_PRODUCT, status: 'OFF' }]) });
    renderScreen(<CreateCard />, { at: '/create-card?product=p-cny' });
    expect(await screen.findByTestId('blocker-product-off')).toHaveTextContent('该卡片产品暂停开卡');
    expect(submit()).toBeDisabled();
  });
});

describe('开卡: the verification comes first', () => {
  it('sends an account without its verification to it, to come back to the chosen product', async () => {
    stubOpening({ '/card/opened-available': openedAvailable(undefined, { basic: false, secondary: false }) });
    // the screen alone at its address, as the router draws it
    const { location } = renderScreen(
      <Routes>
        <Route path="/create-card" element={<CreateCard />} />
        <Route path="*" element={null} />
      </Routes>,
      { at: '/create-card?product=p-sub' },
    );
    await waitFor(() => expect(location.current?.pathname).toBe('/create-card/verification'));
    expect(new URLSearchParams(location.current?.search).get('from')).toBe('/create-card?product=p-sub');
  });

  it('sends a product that needs the secondary data to it when chosen, to come back with that product', async () => {
    stubOpening({ '/card/opened-available': openedAvailable(undefined, { basic: true, secondary: false }) });
    const { location } = renderScreen(<CreateCard />, { at: '/create-card' });
    expect(await screen.findByTestId('product-p-ad')).toHaveTextContent('需补充资料');
    await userEvent.click(screen.getByRole('radio', { name: '订阅支付卡' }));
    expect(location.current?.search).toBe('?product=p-sub');
    await userEvent.click(screen.getByRole('radio', { name: '广告投放卡' }));
    expect(location.current?.pathname).toBe('/create-card/secondary-verification-data');
    expect(new URLSearchParams(location.current?.search).get('from')).toBe('/create-card?product=p-ad');
  });

  it('says so, with a way there, when such a product is in the address', async () => {
    stubOpening({ '/card/opened-available': openedAvailable(undefined, { basic: true, secondary: false }) });
    const { location } = renderScreen(<CreateCard />, { at: '/create-card?product=p-ad' });
    const notice = await screen.findByTestId('blocker-secondary');
    expect(submit()).toBeDisabled();
    await userEvent.click(within(notice).getByRole('button', { name: '去补充资料' }));
    expect(location.current?.pathname).toBe('/create-card/secondary-verification-data');
  });
});

describe('开卡: a member whose role may not give the verification', () => {
  const asMember = { '/account/info': { ...accountInfo(false), role: 'MEMBER' }, '/team/budget': { monthly_budget: null, used: '0.00', left: null, currency: 'USD' } };

  it('is told whom to ask when the account has none, and stays on 开卡', async () => {
    stubOpening({ ...asMember, '/card/opened-available': openedAvailable(undefined, { basic: false, secondary: false }) });
    const { location } = renderScreen(<CreateCard />, { at: '/create-card?product=p-sub' });
    expect(await screen.findByTestId('create-card-unverified')).toHaveTextContent('提交开卡资料需要所有者或管理员');
    expect(location.current?.pathname).toBe('/create-card');
  });

  it('may choose a product that needs the secondary data, and is told whom to ask instead of a way to the form', async () => {
    stubOpening({ ...asMember, '/card/opened-available': openedAvailable(undefined, { basic: true, secondary: false }) });
    const { location } = renderScreen(<CreateCard />, { at: '/create-card' });
    await userEvent.click(await screen.findByRole('radio', { name: '广告投放卡' }));
    expect(location.current?.pathname).toBe('/create-card');
    const notice = await screen.findByTestId('blocker-secondary');
    expect(notice).toHaveTextContent('请联系所有者或管理员');
    expect(within(notice).queryByRole('button')).toBeNull();
    expect(submit()).toBeDisabled();
  });
});

describe('开卡: confirming', () => {
  it('reviews the cost, sends it with an Idempotency-Key, and opens the new card’s page', async () => {
    const calls = stubOpening({ [OPEN]: card({ id: 'c-new', status: 'CARD_STATUS_INIT', last4: null, actions: [] }) });
    const { location, notices } = renderScreen(<CreateCard />, { at: '/create-card?product=p-sub' });
    await screen.findByRole('radio', { name: '订阅支付卡' });
    fill('50', ' 订阅 ');
    await userEvent.click(submit());
    const dialog = await screen.findByRole('dialog', { name: '确认开卡' });
    expect(within(dialog).getByTestId('cost-total')).toHaveTextContent('52.80 USD');
    expect(within(dialog).getByText('订阅')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: '确认并支付' }));
    await waitFor(() => expect(location.current?.pathname).toBe('/card-details'));
    expect(location.current?.search).toBe('?id=c-new');
    const posts = calls.filter((call) => call.method === 'post');
    expect(posts).toHaveLength(1);
    expect(posts[0]?.body).toEqual({ product_id: 'p-sub', amount: '50.00', nickname: '订阅' });
    expect(posts[0]?.headers).toEqual({ 'idempotency-key': expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(notices.successes).toEqual(['开卡申请已提交，发卡机构处理中']);
  });

  it('sends the same key again when the network failed, so a retry cannot open two cards', async () => {
    let answer: unknown = new ApiError({ kind: 'network', message: '当前网络异常，数据已保存，恢复后提交即可' });
    const calls = stubOpening({ [OPEN]: () => answer });
    const { location } = renderScreen(<CreateCard />, { at: '/create-card?product=p-sub' });
    await screen.findByRole('radio', { name: '订阅支付卡' });
    fill('50');
    await userEvent.click(submit());
    const dialog = await screen.findByRole('dialog', { name: '确认开卡' });
    await userEvent.click(within(dialog).getByRole('button', { name: '确认并支付' }));
    expect(await within(dialog).findByRole('status')).toHaveTextContent('不会重复扣款');
    answer = card({ id: 'c-new', status: 'CARD_STATUS_INIT', last4: null, actions: [] });
    await userEvent.click(within(dialog).getByRole('button', { name: '确认并支付' }));
    await waitFor(() => expect(location.current?.pathname).toBe('/card-details'));
    const keys = calls.filter((call) => call.method === 'post').map((call) => (call.headers as Record<string, string> | undefined)?.['idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
  });

  it('asks for the trade password in the review once one is set: a wrong one and the lock stay on its field with the review open', async () => {
    const answers: unknown[] = [
      new ApiError({ kind: 'api', code: ErrorCode.TRX_PASSWORD_WRONG, status: 400, message: '交易密码错误，还可尝试1次' }),
      new ApiError({ kind: 'api', code: ErrorCode.TRX_PASSWORD_LOCKED, status: 429, message: '交易密码错误次数过多，已锁定至10:16（北京时间），请15分钟后再试' }),
    ];
    const calls = stubOpening({ [OPEN]: () => answers.shift(), '/account/info': accountInfo(true) });
    const { location } = renderScreen(<CreateCard />, { at: '/create-card?product=p-sub' });
    await screen.findByRole('radio', { name: '订阅支付卡' });
    fill('50');
    await userEvent.click(submit());
    const dialog = await screen.findByRole('dialog', { name: '确认开卡' });
    type(await within(dialog).findByLabelText('交易密码'), 'Wrong123');
    await userEvent.click(within(dialog).getByRole('button', { name: '确认并支付' }));
    expect(await within(dialog).findByTestId('trade-password-refusal')).toHaveTextContent('交易密码错误，还可尝试1次');
    await userEvent.click(within(dialog).getByRole('button', { name: '确认并支付' }));
    await waitFor(() => expect(within(dialog).getByTestId('trade-password-refusal')).toHaveTextContent('交易密码错误次数过多，已锁定至10:16（北京时间），请15分钟后再试'));
    expect(screen.getByRole('dialog', { name: '确认开卡' })).toBe(dialog);
    expect(location.current?.pathname).toBe('/create-card');
    expect(calls.filter((call) => call.method === 'post').map((call) => call.body)).toEqual([
      { product_id: 'p-sub', amount: '50.00', nickname: '广告投放', trx_password: 'Wrong123' },
      { product_id: 'p-sub', amount: '50.00', nickname: '广告投放', trx_password: 'Wrong123' },
    ]);
  });

  it('offers to set a trade password when none is set, and opens the card without one', async () => {
    const calls = stubOpening({ [OPEN]: card({ id: 'c-new', status: 'CARD_STATUS_INIT', last4: null, actions: [] }), '/account/info': accountInfo(false) });
    const { location } = renderScreen(<CreateCard />, { at: '/create-card?product=p-sub' });
    await screen.findByRole('radio', { name: '订阅支付卡' });
    fill('50');
    await userEvent.click(submit());
    const dialog = await screen.findByRole('dialog', { name: '确认开卡' });
    expect(await within(dialog).findByRole('link', { name: '去设置' })).toHaveAttribute('href', '/settings#trade-password');
    await userEvent.click(within(dialog).getByRole('button', { name: '确认并支付' }));
    await waitFor(() => expect(location.current?.pathname).toBe('/card-details'));
    expect(calls.filter((call) => call.method === 'post').map((call) => call.body)).toEqual([{ product_id: 'p-sub', amount: '50.00', nickname: '广告投放' }]);
  });

  it('puts a first load the server refuses on its field', async () => {
    stubOpening({
      [OPEN]: new ApiError({ kind: 'api', code: 4007, status: 400, message: '首充金额不能低于5.00 USD', data: { min: '5.00', currency: 'USD' } }),
    });
    const { location } = renderScreen(<CreateCard />, { at: '/create-card?product=p-sub' });
    await screen.findByRole('radio', { name: '订阅支付卡' });
    fill('50');
    await userEvent.click(submit());
    await userEvent.click(within(await screen.findByRole('dialog', { name: '确认开卡' })).getByRole('button', { name: '确认并支付' }));
    expect(await screen.findByText('首充金额不能低于5.00 USD')).toBeInTheDocument();
    expect(location.current?.pathname).toBe('/create-card');
  });
});
