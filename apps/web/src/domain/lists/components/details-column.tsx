import { Button, type TableColumnType } from 'antd';
import styles from './details-column.module.css';

/**
 * The last column of a list whose rows open a detail (the wallet's transactions, the cards): a link
 * that opens the row's detail, as a click on the row does.
 */
export function detailsColumn<T>({ title, label, width, onOpen }: { title: string; label: string; width: number; onOpen: (item: T) => void }): TableColumnType<T> {
  return {
    key: 'action',
    title,
    width,
    align: 'center',
    render: (_: unknown, item) => (
      <Button
        type="link"
        size="small"
        className={styles.detailLink}
        onClick={(event) => {
          // the row opens it too: once is enough
          event.stopPropagation();
          onOpen(item);
        }}
      >
        {label}
      </Button>
    ),
  };
}
