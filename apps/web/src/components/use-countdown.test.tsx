// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useCountdown } from './use-countdown.ts';

describe('useCountdown', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const tick = (ms: number) => act(() => vi.advanceTimersByTime(ms));

  it('stands at zero until started, then counts down once a second to zero and stops its timer', () => {
    const { result } = renderHook(() => useCountdown());
    expect(result.current.secondsLeft).toBe(0);
    expect(vi.getTimerCount()).toBe(0);

    act(() => result.current.start(3));
    expect(result.current.secondsLeft).toBe(3);
    tick(1000);
    expect(result.current.secondsLeft).toBe(2);
    tick(1000);
    expect(result.current.secondsLeft).toBe(1);
    tick(1000);
    expect(result.current.secondsLeft).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('is already running when it starts with seconds left (a code sent by the previous screen)', () => {
    const { result } = renderHook(() => useCountdown(60));
    expect(result.current.secondsLeft).toBe(60);
    tick(59_000);
    expect(result.current.secondsLeft).toBe(1);
    tick(1000);
    expect(result.current.secondsLeft).toBe(0);
  });

  it('starts over from the new number when started again', () => {
    const { result } = renderHook(() => useCountdown());
    act(() => result.current.start(60));
    tick(50_000);
    expect(result.current.secondsLeft).toBe(10);
    act(() => result.current.start(30));
    expect(result.current.secondsLeft).toBe(30);
    tick(10_000);
    expect(result.current.secondsLeft).toBe(20);
  });

  it('counts from the clock, so a late timer does not stretch the wait', () => {
    const { result } = renderHook(() => useCountdown());
    act(() => result.current.start(10));
    // the tab slept: the clock moved on 6.5 s while no timer ran
    act(() => vi.setSystemTime(Date.now() + 6_500));
    tick(1000);
    expect(result.current.secondsLeft).toBe(3);
  });

  it('leaves no timer behind when the screen goes away', () => {
    const { result, unmount } = renderHook(() => useCountdown());
    act(() => result.current.start(60));
    expect(vi.getTimerCount()).toBe(1);
    unmount();
    expect(vi.getTimerCount()).toBe(0);
  });
});
