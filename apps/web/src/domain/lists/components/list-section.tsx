import type { ReactNode } from 'react';
import { ListBody } from './list-body.tsx';
import { ListPager } from './list-pager.tsx';
import styles from './list-section.module.css';

type ListBodyProps = Parameters<typeof ListBody>[0];

/**
 * A list's section of a page (the wallet's transactions, a card's, the cards): its title with the
 * count once the list has answered, the filter bar, the rows, and the pager under them. Given its
 * `states`, the rows stand in a {@link ListBody} (skeleton, retry, empty); without, the rows bring
 * their own.
 */
export function ListSection({
  titleId,
  title,
  list,
  totalText,
  totalTestId,
  filters,
  states,
  pager,
  className,
  children,
}: {
  /** the heading's id, which names the section */
  titleId: string;
  title: string;
  list: ListBodyProps['list'] & { data?: { total: number } };
  totalText: (total: number) => string;
  totalTestId: string;
  filters: ReactNode;
  states?: Omit<ListBodyProps, 'list' | 'children'>;
  pager: { page: number; lastPage: number; pageSize: number; narrow: boolean; onChange: (change: { page: number } | { pageSize: number }) => void; testId?: string };
  /** the section's own look beside the shared one (a rule above it, its spacing) */
  className?: string;
  /** the rows */
  children: ReactNode;
}) {
  const total = list.data?.total ?? 0;
  return (
    <section className={className ? `${styles.section} ${className}` : styles.section} aria-labelledby={titleId}>
      <div className={styles.head}>
        <h2 id={titleId} className={styles.title}>
          {title}
        </h2>
        {list.data ? (
          <span className={styles.count} data-testid={totalTestId}>
            {totalText(total)}
          </span>
        ) : null}
      </div>
      {filters}

      {states ? (
        <ListBody list={list} {...states}>
          {children}
        </ListBody>
      ) : (
        children
      )}

      <ListPager {...pager} total={total} totalText={totalText} className={styles.pager} />
    </section>
  );
}
