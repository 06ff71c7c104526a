import type { Breakpoint } from 'antd';
import { Grid } from 'antd';
import type { ReactNode } from 'react';
import styles from './stacked.module.css';

/** Columns a phone leaves out (antd's `responsive`): what the row is stays, its details are on a wider screen. */
export const WIDE_ONLY: Breakpoint[] = ['sm'];

/** Whether the screen is a phone's (narrower than antd's `sm`), where the lists keep only what each row is. */
export function useNarrow() {
  return Grid.useBreakpoint().sm === false;
}

/**
 * A cell's main text with a second line under it, drawn on a phone only: there the column the second line
 * belongs to is left out (the time under a movement's type, the status under a card's name).
 */
export function Stacked({ main, under, end = false }: { main: ReactNode; under: ReactNode; end?: boolean }) {
  const narrow = useNarrow();
  if (!narrow || under === null) return <>{main}</>;
  return (
    <div className={end ? `${styles.stacked} ${styles.end}` : styles.stacked}>
      <span>{main}</span>
      <span className={styles.under}>{under}</span>
    </div>
  );
}
