import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/** A change of a list kept in the address: its filters, its page, its page size. */
export type ListChange<F> = { filters?: F; page?: number; pageSize?: number };

/**
 * A list's filters and page, kept in the address so that reload, back and a shared link keep them,
 * read and written by the list's own rules; `update` writes a change over the current entry of the
 * history and leaves the page scrolled where it is.
 */
export function useListLocation<L, F, C extends ListChange<F> = ListChange<F>>(
  read: (search: URLSearchParams) => L,
  write: (previous: URLSearchParams, change: C) => URLSearchParams,
) {
  const [search, setSearch] = useSearchParams();
  const update = useCallback(
    (change: C) => setSearch((previous) => write(previous, change), { replace: true, preventScrollReset: true }),
    [setSearch, write],
  );
  return { location: read(search), update };
}
