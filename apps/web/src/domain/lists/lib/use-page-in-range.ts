import { useEffect } from 'react';

/**
 * The last page of a list kept in the address, and a page past it (a shorter list, an old link)
 * replaced by that last page once the list has answered.
 */
export function usePageInRange(
  list: { data?: { total: number } | undefined; isPlaceholderData: boolean },
  page: number,
  pageSize: number,
  update: (change: { page: number }) => void,
) {
  const total = list.data?.total ?? 0;
  const lastPage = Math.max(1, Math.ceil(total / pageSize));
  useEffect(() => {
    if (list.data && !list.isPlaceholderData && page > lastPage) update({ page: lastPage });
  }, [list.data, list.isPlaceholderData, page, lastPage, update]);
  return lastPage;
}
