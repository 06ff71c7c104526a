// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useSingleSubmission } from './use-single-submission.ts';

describe('a confirm button’s submission', () => {
  it('runs once while it is on its way, even for presses that come before the busy button is drawn', async () => {
    const { result } = renderHook(() => useSingleSubmission());
    const { run } = result.current;
    let finish: () => void = () => {};
    let started = 0;
    const task = () => {
      started += 1;
      return new Promise<void>((resolve) => (finish = resolve));
    };
    // both presses in the same moment, from the same (not yet redrawn) render
    let first: Promise<void> = Promise.resolve();
    act(() => {
      first = run(task);
      void run(task);
    });
    expect(started).toBe(1);
    expect(result.current.pending).toBe(true);
    await act(async () => {
      finish();
      await first;
    });
    expect(result.current.pending).toBe(false);

    // the next press, once answered, is a submission of its own
    let second: Promise<void> = Promise.resolve();
    act(() => {
      second = run(task);
    });
    expect(started).toBe(2);
    await act(async () => {
      finish();
      await second;
    });
  });

  it('is free again after a submission that failed', async () => {
    const { result } = renderHook(() => useSingleSubmission());
    let started = 0;
    const failing = async () => {
      started += 1;
      throw new Error('no answer');
    };
    await act(() => result.current.run(failing).catch(() => {}));
    await act(() => result.current.run(failing).catch(() => {}));
    expect(started).toBe(2);
    expect(result.current.pending).toBe(false);
  });
});
