// @vitest-environment jsdom
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderScreen } from '../testing/render.tsx';
import { StaleDataNote, type StaleQuery } from './stale-data-note.tsx';

const query = (overrides: Partial<StaleQuery> = {}): StaleQuery => ({
  isError: false,
  isFetching: false,
  data: { any: 'thing' },
  dataUpdatedAt: Date.UTC(2026, 2, 1, 2, 30, 5),
  refetch: vi.fn(),
  ...overrides,
});

describe('the line over a screen whose refresh failed', () => {
  it('is not drawn while every read is fresh, nor for a first load that failed (the screen says that itself)', () => {
    renderScreen(<StaleDataNote queries={[query(), query({ isError: true, data: undefined, dataUpdatedAt: 0 })]} />);
    expect(screen.queryByTestId('stale-data')).toBeNull();
  });

  it('says the data may be out of date since the oldest last good read, in China time, and retries only what failed', () => {
    const fresh = query();
    const older = query({ isError: true, dataUpdatedAt: Date.UTC(2026, 2, 1, 2, 30, 5) });
    const newer = query({ isError: true, dataUpdatedAt: Date.UTC(2026, 2, 1, 2, 45, 0) });
    renderScreen(<StaleDataNote queries={[fresh, newer, older]} />);
    expect(screen.getByTestId('stale-data')).toHaveTextContent('网络异常，数据可能不是最新（更新于 2026-03-01 10:30:05）');
    fireEvent.click(screen.getByRole('button', { name: /重\s*试/ }));
    expect(older.refetch).toHaveBeenCalledTimes(1);
    expect(newer.refetch).toHaveBeenCalledTimes(1);
    expect(fresh.refetch).not.toHaveBeenCalled();
  });
});
