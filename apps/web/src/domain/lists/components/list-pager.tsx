import { Pagination } from 'antd';
import { PAGE_SIZES } from '../lib/page-location.ts';

/**
 * The pager under a list kept in the address (the wallet's, the cards', a card's transactions): shown
 * once there is more than the smallest page; a new page size starts again at the first page. Narrow
 * screens get the simple pager without the size changer and the total.
 */
export function ListPager({
  page,
  lastPage,
  pageSize,
  total,
  narrow,
  totalText,
  onChange,
  className,
  testId,
}: {
  page: number;
  lastPage: number;
  pageSize: number;
  total: number;
  narrow: boolean;
  totalText: (total: number) => string;
  onChange: (change: { page: number } | { pageSize: number }) => void;
  className: string | undefined;
  testId?: string;
}) {
  if (total <= PAGE_SIZES[0]) return null;
  return (
    <div className={className}>
      <Pagination
        current={Math.min(page, lastPage)}
        pageSize={pageSize}
        total={total}
        pageSizeOptions={PAGE_SIZES.map(String)}
        showSizeChanger={!narrow}
        showTotal={narrow ? undefined : totalText}
        simple={narrow}
        onChange={(next, size) => (size !== pageSize ? onChange({ pageSize: size }) : onChange({ page: next }))}
        {...(testId ? { 'data-testid': testId } : {})}
      />
    </div>
  );
}
