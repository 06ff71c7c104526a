import { Button, Empty, Result, Skeleton } from 'antd';
import type { ReactNode } from 'react';

/**
 * What a list shows in place of its rows: a skeleton while it first loads, a retry when it failed
 * with nothing to show, and, when it is empty, why (nothing yet, or nothing the filters select, with a
 * way to clear them). Rows already shown stay when a refresh fails.
 */
export function ListBody({
  list,
  empty,
  skeletonRows,
  failed,
  className,
  children,
}: {
  list: { isPending: boolean; isError: boolean; data?: unknown; refetch: () => unknown };
  empty: { shown: boolean; filtered: boolean; text: string; filteredText: string; resetText: string; onReset: () => void; className: string | undefined };
  skeletonRows: number;
  failed: { title: string; retryText: string; testId?: string };
  className: string | undefined;
  /** the rows */
  children: ReactNode;
}) {
  let body: ReactNode;
  if (list.isPending) body = <Skeleton active title={false} paragraph={{ rows: skeletonRows }} />;
  else if (list.isError && !list.data) {
    body = (
      <Result
        status="warning"
        title={failed.title}
        extra={
          <Button type="primary" onClick={() => void list.refetch()}>
            {failed.retryText}
          </Button>
        }
        {...(failed.testId ? { 'data-testid': failed.testId } : {})}
      />
    );
  } else if (empty.shown) {
    body = (
      <Empty
        className={empty.className}
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={empty.filtered ? empty.filteredText : empty.text}
        data-testid="transactions-empty"
      >
        {empty.filtered ? <Button onClick={empty.onReset}>{empty.resetText}</Button> : null}
      </Empty>
    );
  } else body = children;
  return <div className={className}>{body}</div>;
}
