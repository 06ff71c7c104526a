/**
 * jsdom has no layout and no window.matchMedia. Screens ask for it (useNarrowScreen, antd's
 * breakpoints), so tests get one that answers width queries against a width they choose.
 */
let width = 1280;
const lists = new Set<{ query: string; list: MediaQueryList; listeners: Set<(event: MediaQueryListEvent) => void> }>();

/** Whether `(max-width: 767px)`, `(min-width: 768px)` or both joined by `and` hold at `width`. */
function matches(query: string) {
  const parts = [...query.matchAll(/\((min|max)-width:\s*(\d+(?:\.\d+)?)px\)/g)];
  return parts.length > 0 && parts.every(([, side, px]) => (side === 'min' ? width >= Number(px) : width <= Number(px)));
}

export function stubMatchMedia() {
  window.matchMedia = (query: string) => {
    const listeners = new Set<(event: MediaQueryListEvent) => void>();
    const list = {
      media: query,
      get matches() {
        return matches(query);
      },
      onchange: null,
      addEventListener: (_type: string, listener: (event: MediaQueryListEvent) => void) => listeners.add(listener),
      removeEventListener: (_type: string, listener: (event: MediaQueryListEvent) => void) => listeners.delete(listener),
      addListener: (listener: (event: MediaQueryListEvent) => void) => listeners.add(listener),
      removeListener: (listener: (event: MediaQueryListEvent) => void) => listeners.delete(listener),
      dispatchEvent: () => true,
    } as unknown as MediaQueryList;
    lists.add({ query, list, listeners });
    return list;
  };
}

/** Sets the window's width for media queries and tells the queries whose answer changed. */
export function setScreenWidth(next: number) {
  const before = new Map([...lists].map((entry) => [entry, matches(entry.query)]));
  width = next;
  for (const entry of lists) {
    const now = matches(entry.query);
    if (now === before.get(entry)) continue;
    for (const listener of entry.listeners) listener({ matches: now, media: entry.query } as MediaQueryListEvent);
  }
}
