import { ArrowLeftOutlined } from '@ant-design/icons';
import type { ReactNode } from 'react';
import { commonText } from '../locales/zh-CN/common.ts';
import styles from './page-frame.module.css';
import { primaryControl } from '../lib/primary-control.ts';

interface PageFrameProps {
  title: ReactNode;
  /** a back arrow before the title */
  onBack?: () => void;
  /** actions at the right of the title row */
  extra?: ReactNode;
  children: ReactNode;
}

/** The frame of a signed-in screen: its title row and the content below. */
export function PageFrame({ title, onBack, extra, children }: PageFrameProps) {
  return (
    <section className={styles.frame}>
      <header className={styles.header} {...primaryControl}>
        <div className={styles.heading}>
          {onBack ? (
            <button type="button" className={styles.back} onClick={onBack} aria-label={commonText.back} title={commonText.back}>
              <ArrowLeftOutlined />
            </button>
          ) : null}
          <h1 className={styles.title}>{title}</h1>
        </div>
        {extra ? <div className={styles.extra}>{extra}</div> : null}
      </header>
      <div className={styles.body}>{children}</div>
    </section>
  );
}
