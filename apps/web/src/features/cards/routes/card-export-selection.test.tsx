// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { stubApi } from '../../../testing/api.ts';
import { renderScreen } from '../../../testing/render.tsx';
import { setScreenWidth } from '../../../testing/screen.ts';
import { card, cardPage, openedAvailable, summary, accountInfo } from '../../../domain/cards/testing/fixtures.ts';
import Card from './card.tsx';

function stubCards() {
  return stubApi({
    '/account/info': accountInfo(false),
    '/card': cardPage([card({ id: 'c-1', nickname: 'FB-001' }), card({ id: 'c-2', nickname: 'FB-002' }), card({ id: 'c-3', nickname: 'FB-003' })], 3),
    '/card/summary': summary(),
    '/card/opened-available': openedAvailable(),
  });
}

afterEach(() => setScreenWidth(1280));

describe('我的卡片: choosing cards to export', () => {
  it('carries the list’s filters to /bulk-export when nothing is ticked', async () => {
    stubCards();
    const { location } = renderScreen(<Card />, { at: '/card?status=NORMAL&keyword=FB&page=2' });
    await screen.findAllByTestId('card-row');
    await userEvent.click(screen.getByTestId('bulk-export'));
    await waitFor(() => expect(location.current?.pathname).toBe('/bulk-export'));
    expect(location.current?.search).toBe('?status=NORMAL&keyword=FB');
  });

  it('ticks cards without opening them, and 导出所选 carries their ids', async () => {
    stubCards();
    const { location } = renderScreen(<Card />, { at: '/card' });
    await screen.findAllByTestId('card-row');
    await userEvent.click(screen.getByRole('checkbox', { name: '选择 FB-001' }));
    await userEvent.click(screen.getByRole('checkbox', { name: '选择 FB-003' }));
    expect(location.current?.pathname).toBe('/card');
    await userEvent.click(screen.getByTestId('export-selected'));
    await waitFor(() => expect(location.current?.pathname).toBe('/bulk-export'));
    expect(location.current?.state).toEqual({ exportIds: ['c-1', 'c-3'] });
  });

  it('ticks cards on a phone too', async () => {
    setScreenWidth(375);
    stubCards();
    const { location } = renderScreen(<Card />, { at: '/card' });
    const rows = await screen.findAllByTestId('card-row');
    expect(rows).toHaveLength(3);
    const item = rows[1]?.closest('li') as HTMLElement;
    await userEvent.click(within(item).getByRole('checkbox', { name: '选择 FB-002' }));
    expect(screen.getByTestId('export-selected')).toHaveTextContent('导出所选（1）');
    await userEvent.click(screen.getByTestId('export-selected'));
    await waitFor(() => expect(location.current?.state).toEqual({ exportIds: ['c-2'] }));
  });
});
