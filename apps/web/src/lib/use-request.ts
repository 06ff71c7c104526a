import { useCallback, useRef, useState } from 'react';

/**
 * A one-off call from a screen (a form submit) with its pending flag. Screens whose first load has a
 * size budget (sign-in) use it instead of TanStack Query's useMutation, so that first load does not
 * carry the query library; everywhere else, use useMutation.
 */
export function useRequest<Args extends unknown[], Result>(call: (...args: Args) => Promise<Result>) {
  const [isPending, setPending] = useState(false);
  const running = useRef(false);
  const callRef = useRef(call);
  callRef.current = call;

  const run = useCallback(async (...args: Args): Promise<Result> => {
    if (running.current) throw new Error('the previous call is still running');
    running.current = true;
    setPending(true);
    try {
      return await callRef.current(...args);
    } finally {
      running.current = false;
      setPending(false);
    }
  }, []);

  return { run, isPending };
}
