import type { ReactNode } from 'react';
import styles from './settings-section.module.css';

interface SettingsSectionProps {
  /** the anchor the section list links to */
  id: string;
  title: string;
  description?: ReactNode;
  /** the section's action (修改, 更换, …), at the right of its title */
  extra?: ReactNode;
  children?: ReactNode;
}

/** One section of /settings: its title and what it is for, its action, and its content below. */
export function SettingsSection({ id, title, description, extra, children }: SettingsSectionProps) {
  const titleId = `${id}-title`;
  return (
    <section id={id} className={styles.section} aria-labelledby={titleId} data-testid={`settings-${id}`}>
      <div className={styles.head}>
        <div className={styles.heading}>
          <h2 id={titleId} className={styles.title}>
            {title}
          </h2>
          {description ? <p className={styles.description}>{description}</p> : null}
        </div>
        {extra ? <div className={styles.extra}>{extra}</div> : null}
      </div>
      {children ? <div className={styles.body}>{children}</div> : null}
    </section>
  );
}
