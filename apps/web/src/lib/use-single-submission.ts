import { useCallback, useRef, useState } from 'react';

/**
 * A confirm button's submission, one at a time: while it runs (the checks of the form, then the
 * call) a second press does nothing, even one that comes before React has drawn the busy button (a
 * double click). `pending` is for the button's `loading`.
 */
export function useSingleSubmission() {
  const running = useRef(false);
  const [pending, setPending] = useState(false);

  const run = useCallback(async (task: () => Promise<void>) => {
    if (running.current) return;
    running.current = true;
    setPending(true);
    try {
      await task();
    } finally {
      running.current = false;
      setPending(false);
    }
  }, []);

  return { run, pending };
}
