import { CheckCircleFilled, SafetyCertificateOutlined } from '@ant-design/icons';
import { Button, Result, Skeleton } from 'antd';
import { type ReactNode, useId } from 'react';
import { cardsText } from '../../../locales/zh-CN/cards.ts';
import styles from './verification-step.module.css';

/** What the account has already given, as the step shows it instead of its form. */
export interface GivenSummary {
  title: string;
  note: string;
  rows: { label: string; value: string }[];
}

interface VerificationStepProps {
  /** the verification answer: still loading, failed (with a way to ask again), or here */
  status: 'pending' | 'error' | 'success';
  onRetry: () => void;
  /** the step's data when given, else null and the form is shown */
  given: GivenSummary | null;
  onContinue: () => void;
  intro: string;
  why: string;
  /** the form asking for the data */
  children: ReactNode;
}

/**
 * One step of the verification before a card (product.md §4): what is asked and why, then the form,
 * or, when the account gave it already, what it gave and a way on.
 */
export function VerificationStep({ status, onRetry, given, onContinue, intro, why, children }: VerificationStepProps) {
  if (status === 'pending') {
    return (
      <div className={styles.column} role="status" aria-label={cardsText.loading} aria-busy="true" data-testid="verification-loading">
        <Skeleton active title={{ width: '60%' }} paragraph={{ rows: 5 }} />
      </div>
    );
  }
  if (status === 'error') {
    return (
      <Result
        status="warning"
        title={cardsText.loadFailed}
        subTitle={cardsText.loadFailedHint}
        extra={
          <Button type="primary" onClick={onRetry}>
            {cardsText.retry}
          </Button>
        }
        data-testid="verification-load-failed"
      />
    );
  }
  return (
    <div className={styles.column}>
      {given ? (
        <GivenData given={given} onContinue={onContinue} />
      ) : (
        <>
          <div className={styles.intro}>
            <SafetyCertificateOutlined className={styles.introIcon} aria-hidden />
            <div>
              <p className={styles.introLead}>{intro}</p>
              <p className={styles.introWhy}>{why}</p>
            </div>
          </div>
          {children}
        </>
      )}
    </div>
  );
}

function GivenData({ given, onContinue }: { given: GivenSummary; onContinue: () => void }) {
  const titleId = useId();
  return (
    <section className={styles.given} aria-labelledby={titleId} data-testid="verification-given">
      <h2 id={titleId} className={styles.givenTitle}>
        <CheckCircleFilled className={styles.givenIcon} aria-hidden />
        {given.title}
      </h2>
      <p className={styles.givenNote}>{given.note}</p>
      <dl className={styles.facts}>
        {given.rows.map((row) => (
          <div key={row.label} className={styles.fact}>
            <dt>{row.label}</dt>
            <dd>{row.value}</dd>
          </div>
        ))}
      </dl>
      <Button className={styles.action} type="primary" size="large" onClick={onContinue}>
        {cardsText.continue}
      </Button>
    </section>
  );
}
