/** What the portal's lists keep in the address besides their filters: the page and its size. */
export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 20;
const LAST_PAGE = 100_000;

/** The value of `text` among `values`, or nothing: what the API would refuse is never sent. */
export const oneOf = <T extends string>(values: readonly T[], text: string | null): T | undefined => values.find((value) => value === text);

export function readPage(search: URLSearchParams): { page: number; pageSize: number } {
  const page = Number(search.get('page'));
  const size = Number(search.get('size'));
  return {
    page: Number.isInteger(page) && page >= 1 && page <= LAST_PAGE ? page : 1,
    pageSize: PAGE_SIZES.find((candidate) => candidate === size) ?? DEFAULT_PAGE_SIZE,
  };
}

/** Writes a page change; a new page size starts again at the first page. Default values leave the address. */
export function writePage(next: URLSearchParams, change: { page?: number; pageSize?: number }) {
  if (change.pageSize !== undefined) {
    if (change.pageSize === DEFAULT_PAGE_SIZE) next.delete('size');
    else next.set('size', String(change.pageSize));
    next.delete('page');
  }
  if (change.page !== undefined) {
    if (change.page > 1) next.set('page', String(change.page));
    else next.delete('page');
  }
}
