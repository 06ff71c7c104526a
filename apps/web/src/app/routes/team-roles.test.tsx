// @vitest-environment jsdom
import type { Role } from '@portal/contract/team';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { accountInfo, card, cardPage, controls, openedAvailable, summary, walletAvailable, walletBalances } from '../../domain/cards/testing/fixtures.ts';
import Card from '../../features/cards/routes/card.tsx';
import { stubApi } from '../../testing/api.ts';
import { renderScreen } from '../../testing/render.tsx';
import CardDetails from './card-details.tsx';
import CreateCard from './create-card.tsx';

const CARD = '/card/c-1';
const member = (role: Role) => ({ ...accountInfo(false), role, member_id: `m-${role}` });
const budget = { monthly_budget: '500.00', used: '120.00', left: '380.00', currency: 'USD' };
const TEAM = [
  {
    id: 'm-OWNER',
    phone_masked: '138****8000',
    email: 'boss@mail.example',
    role: 'OWNER',
    status: 'ACTIVE',
    monthly_budget: null,
    budget_used: '0.00',
    budget_currency: 'USD',
    cards_held: 1,
    joined_at: '2026-01-01T00:00:00.000Z',
    is_me: true,
  },
];

function stubAs(role: Role) {
  return stubApi({
    '/account/info': member(role),
    '/team/budget': budget,
    '/team/members': { items: TEAM },
    '/card': cardPage([card({ holder_member_id: 'm-OWNER', holder_label: '138****8000（所有者）' })]),
    '/card/summary': summary(),
    '/card/opened-available': openedAvailable(),
    [CARD]: card(),
    [`${CARD}/transactions`]: { items: [], total: 0, page: 1, page_size: 20 },
    [`${CARD}/controls`]: controls(),
    '/balance/account-balance': walletBalances(),
    '/balance/account-balance-status': walletAvailable,
  });
}

const detailButtons = () => screen.queryAllByRole('button').map((button) => button.textContent?.replace(/\s/g, '') ?? '');

describe('what a role may do is offered, what it may not is hidden', () => {
  it('gives an 所有者 every card button, the holder column and the holder filter', async () => {
    stubAs('OWNER');
    renderScreen(<Card />, { at: '/card' });
    expect(await screen.findByTestId('open-card')).toBeInTheDocument();
    expect(screen.getByTestId('bulk-export')).toBeInTheDocument();
    expect(await screen.findByTestId('card-holder-label')).toHaveTextContent('138****8000（所有者）');
    expect(await screen.findByRole('combobox', { name: '持卡成员' })).toBeInTheDocument();
    // no budget line: an 所有者 is not held to one
    expect(screen.queryByTestId('member-budget')).toBeNull();
  });

  it('gives an 观察员 no money button on a card, no 查看卡号, no 开卡', async () => {
    const calls = stubAs('VIEWER');
    renderScreen(<CardDetails />, { at: '/card-details?id=c-1' });
    expect(await screen.findByTestId('card-face-number')).toBeInTheDocument();
    await waitFor(() => expect(calls.some((call) => call.url === '/account/info')).toBe(true));
    // the role is known once the exports (cards.export) are offered
    expect(await screen.findByTestId('card-transactions-export')).toBeInTheDocument();
    expect(screen.queryByTestId('card-actions')).toBeNull();
    for (const name of ['充值', '提现', '冻结', '解冻', '注销', '查看卡号', '更换持卡人']) expect(detailButtons()).not.toContain(name);
    expect(screen.queryByTestId('controls-save')).toBeNull();
  });

  it('shows an 观察员 the cards without 开卡', async () => {
    stubAs('VIEWER');
    renderScreen(<Card />, { at: '/card' });
    expect(await screen.findByTestId('bulk-export')).toBeInTheDocument();
    expect(screen.queryByTestId('open-card')).toBeNull();
  });

  it('gives a 财务 the money buttons but not 冻结, 注销 or 查看卡号', async () => {
    stubAs('FINANCE');
    renderScreen(<CardDetails />, { at: '/card-details?id=c-1' });
    const actions = await screen.findByTestId('card-actions');
    expect(within(actions).getAllByRole('button').map((button) => button.textContent?.replace(/\s/g, ''))).toEqual(['充值', '提现']);
    expect(detailButtons()).not.toContain('查看卡号');
  });

  it('shows a 成员 their budget above the cards and offers 开卡, without the holder filter', async () => {
    const calls = stubAs('MEMBER');
    renderScreen(<Card />, { at: '/card' });
    expect(await screen.findByTestId('member-budget')).toHaveTextContent('本月预算 500.00 USD，已用 120.00，剩余 380.00');
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '24');
    expect(await screen.findByTestId('open-card')).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: '持卡成员' })).toBeNull();
    expect(calls.some((call) => call.url === '/team/members')).toBe(false);
  });

  it('tells a role that may not open cards so on /create-card', async () => {
    stubAs('VIEWER');
    renderScreen(<CreateCard />, { at: '/create-card' });
    expect(await screen.findByTestId('create-card-denied')).toHaveTextContent('权限不足：开卡需要所有者、管理员或成员角色');
  });
});
