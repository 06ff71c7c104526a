import type { ReactNode, Ref } from 'react';
import styles from './progress-card.module.css';

/**
 * One card of the layout's progress widget (a batch opening, a bulk action): its icon, what it is and its
 * state read out as it changes, the card's own buttons, then what it shows of its progress.
 */
export function ProgressCard({
  label,
  testId,
  status,
  icon,
  title,
  state,
  actions,
  cardRef,
  children,
}: {
  label: string;
  testId: string;
  status: string;
  icon: ReactNode;
  title: ReactNode;
  state: ReactNode;
  actions?: ReactNode;
  cardRef?: Ref<HTMLElement>;
  children: ReactNode;
}) {
  return (
    <section ref={cardRef} className={styles.card} aria-label={label} data-testid={testId} data-status={status}>
      <header className={styles.head}>
        <span className={styles.icon} aria-hidden>
          {icon}
        </span>
        <span className={styles.title}>
          {title}
          <span className={styles.state} role="status" aria-live="polite">
            {state}
          </span>
        </span>
        {actions}
      </header>
      {children}
    </section>
  );
}
