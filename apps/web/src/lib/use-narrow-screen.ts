import { useSyncExternalStore } from 'react';

/** Below antd's `md` breakpoint: phones and small tablets (lists instead of tables, one-month pickers, one-line notices). */
const NARROW = '(max-width: 767px)';

const query = () => window.matchMedia(NARROW);

function subscribe(onChange: () => void) {
  const list = query();
  list.addEventListener('change', onChange);
  return () => list.removeEventListener('change', onChange);
}

/** Whether the screen is narrow, known on the first render (no wide frame flashes on a phone). */
export function useNarrowScreen(): boolean {
  return useSyncExternalStore(subscribe, () => query().matches, () => false);
}
