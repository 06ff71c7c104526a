import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/** A change of a list kept in the address: its filters, its page, its page size. */
export type ListChange<F> = { filters?: F; page?: number; pageSize?: number };

/**
 * A list's filters and page, kept in the address so that reload, back and a shared link keep them,
 * read and written by the list's own rules; `update` writes a change over the current entry of the
 * history (or, with `push`, as a new one) and leaves the page scrolled where it is.
 */
export function useListLocation<L, F, C extends ListChange<F> = ListChange<F>>(
  read: (search: URLSearchParams) => L,
  write: (previous: URLSearchParams, change: C) => URLSearchParams,
  options: { push?: boolean } = {},
) {
  const [search, setSearch] = useSearchParams();
  // push: each change is a step of the history, so the back button walks back through them
  const replace = !options.push;
  const update = useCallback(
    (change: C) => setSearch((previous) => write(previous, change), { replace, preventScrollReset: true }),
    [setSearch, write, replace],
  );
  return { location: read(search), update };
}
