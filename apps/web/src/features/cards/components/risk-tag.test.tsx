// @vitest-environment jsdom
import { riskText } from '@portal/contract/card-spending';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../testing/api.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { setScreenWidth } from '../../../testing/screen.ts';
import Card from '../routes/card.tsx';
import { card, cardPage, openedAvailable, summary } from '../../../domain/cards/testing/fixtures.ts';

const REASON = riskText(6, 20);

function stubCards() {
  return stubApi({
    '/card': cardPage([
      card({ spent_this_month: '1234.5', decline_rate_30d: 0.3, risk: 'HIGH', risk_reason: REASON }),
      card({ id: 'c-2', nickname: '备用卡', last4: '0005', spent_this_month: '0.00', decline_rate_30d: 0.045, risk: 'NORMAL', risk_reason: null }),
      // a card never spent on
      card({ id: 'c-3', nickname: '旧卡', last4: '0006' }),
    ]),
    '/card/summary': summary(),
    '/card/opened-available': openedAvailable(),
  });
}

describe('我的卡片：消费与风险', () => {
  it('shows each card’s 本月消费 and 近30天拒绝率, and 风险偏高 only on a card at risk', async () => {
    stubCards();
    renderScreen(<Card />, { at: '/card' });
    const rows = await screen.findAllByTestId('card-row');
    expect(screen.getByRole('columnheader', { name: '本月消费' })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: '近30天拒绝率' })).toBeInTheDocument();
    expect(rows.map((row) => within(row).getByTestId('card-spent').textContent)).toEqual(['1,234.50', '0.00', '0.00']);
    expect(rows.map((row) => within(row).getByTestId('card-decline-rate').textContent)).toEqual(['30%', '4.5%', '0%']);
    expect(within(rows[0] as HTMLElement).getByTestId('card-risk')).toHaveTextContent('风险偏高');
    expect(screen.getAllByTestId('card-risk')).toHaveLength(1);
  });

  it('tells the reason on the tag, without opening the card', async () => {
    stubCards();
    const { location } = renderScreen(<Card />, { at: '/card' });
    const tag = await screen.findByTestId('card-risk');
    fireEvent.mouseEnter(tag);
    await userEvent.click(tag);
    expect(await screen.findByText(REASON)).toBeInTheDocument();
    expect(location.current?.pathname).toBe('/card');
  });

  it('shows the figures and the risk with its reason in the phone layout', async () => {
    setScreenWidth(375);
    stubCards();
    const { location } = renderScreen(<Card />, { at: '/card' });
    const rows = await screen.findAllByTestId('card-row');
    expect(within(rows[0] as HTMLElement).getByTestId('card-spent')).toHaveTextContent('1,234.50');
    expect(within(rows[0] as HTMLElement).getByTestId('card-decline-rate')).toHaveTextContent('30%');
    const tag = screen.getByTestId('card-risk');
    // the tag is beside the card's button, not in it: a tap tells the reason and stays on the list
    expect(rows[0]?.contains(tag)).toBe(false);
    expect(screen.getByText(REASON)).toBeInTheDocument();
    await userEvent.click(tag);
    await waitFor(() => expect(screen.getAllByText(REASON).length).toBeGreaterThanOrEqual(2));
    expect(location.current?.pathname).toBe('/card');
  });
});
