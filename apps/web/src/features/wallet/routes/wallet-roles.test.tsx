// @vitest-environment jsdom
import type { Role } from '@portal/contract/team';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { accountInfo, walletAvailable, walletBalances } from '../../../domain/cards/testing/fixtures.ts';
import { stubApi } from '../../../testing/api.ts';
import { renderScreen } from '../../../testing/render.tsx';
import Wallet from './wallet.tsx';

function stubWallet(role: Role) {
  return stubApi({
    '/account/info': { ...accountInfo(false), role },
    '/team/budget': { monthly_budget: '100.00', used: '100.00', left: '0.00', currency: 'USD' },
    '/balance/account-balance': walletBalances(),
    '/balance/account-balance-status': walletAvailable,
    '/balance/card-amount': [{ currency: 'USD', amount: '0.00' }],
    '/balance/transactions': { items: [], total: 0, page: 1, page_size: 20 },
  });
}

describe('/wallet by role', () => {
  it('shows a 成员 the balances and their budget, without the 流水 or its export', async () => {
    const calls = stubWallet('MEMBER');
    renderScreen(<Wallet />, { at: '/wallet' });
    expect(await screen.findByTestId('member-budget')).toHaveTextContent('本月预算 100.00 USD，已用 100.00，剩余 0.00');
    expect(screen.queryByTestId('wallet-export')).toBeNull();
    expect(screen.queryByRole('heading', { name: '交易记录' })).toBeNull();
    expect(calls.some((call) => call.url === '/balance/transactions')).toBe(false);
  });

  it('shows an 观察员 the 流水 with its export, and no budget', async () => {
    const calls = stubWallet('VIEWER');
    renderScreen(<Wallet />, { at: '/wallet' });
    expect(await screen.findByTestId('wallet-export')).toBeInTheDocument();
    expect(screen.queryByTestId('member-budget')).toBeNull();
    expect(calls.some((call) => call.url === '/team/budget')).toBe(false);
  });
});
