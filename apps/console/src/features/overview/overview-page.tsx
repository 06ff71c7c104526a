import type { ConsoleOverview } from '@portal/contract/console';
import { CONSOLE_JOB_KINDS, consoleJobKindLabel } from '@portal/contract/console-labels';
import { type CardStatus, cardStatusLabel } from '@portal/contract/enums';
import { useQuery } from '@tanstack/react-query';
import { Button, Empty, Result, Skeleton, Statistic, Tag } from 'antd';
import type { ReactNode } from 'react';
import { overviewQuery } from '../../lib/queries.ts';
import { fill, text } from '../../locales/zh-CN.ts';
import styles from './overview.module.css';

const t = text.overview;

/**
 * Money held per currency, cards by status, today's spend and declines, and the card jobs running or failed.
 * The console's first screen: bordered sections, antd's Statistic and lists only (no ProComponents page, no table),
 * so that its first load stays small.
 */
export function OverviewPage() {
  const overview = useQuery(overviewQuery);
  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <h1 className={styles.title}>{t.title}</h1>
        {overview.data ? <span className={styles.secondary}>{fill(t.day, { day: overview.data.day })}</span> : null}
      </header>
      {overview.isPending ? <Skeleton active paragraph={{ rows: 8 }} /> : null}
      {overview.isError ? (
        <Result
          status="warning"
          title={overview.error.message}
          extra={
            <Button type="primary" onClick={() => overview.refetch()}>
              {text.common.retry}
            </Button>
          }
        />
      ) : null}
      {overview.data ? <Figures overview={overview.data} /> : null}
    </div>
  );
}

function Figures({ overview }: { overview: ConsoleOverview }) {
  const cardsTotal = overview.cards.reduce((sum, row) => sum + row.count, 0);
  return (
    <div className={styles.grid} data-testid="overview">
      <Panel title={t.held} extra={t.heldHint} wide>
        {overview.held.length === 0 ? (
          <Empty description={text.common.empty} image={Empty.PRESENTED_IMAGE_SIMPLE} />
        ) : (
          <div className={styles.stats}>
            {overview.held.map((row) => (
              <div key={row.currency} className={styles.stat}>
                <Statistic title={`${row.currency} ${t.total}`} value={row.total} precision={2} />
                <span className={styles.secondary}>{`${t.wallets} ${row.wallets} · ${t.cards} ${row.cards}`}</span>
              </div>
            ))}
          </div>
        )}
      </Panel>
      <Panel title={t.today}>
        {overview.today.length === 0 ? (
          <Empty description={t.none} image={Empty.PRESENTED_IMAGE_SIMPLE} />
        ) : (
          <table className={styles.table}>
            <thead>
              <tr>
                <th>币种</th>
                <th>{t.spent}</th>
                <th>{t.authorisations}</th>
                <th>{t.declined}</th>
              </tr>
            </thead>
            <tbody>
              {overview.today.map((row) => (
                <tr key={row.currency}>
                  <td>{row.currency}</td>
                  <td>{row.spent}</td>
                  <td>{row.authorisations}</td>
                  <td>{row.declined > 0 ? <Tag color="red">{row.declined}</Tag> : row.declined}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Panel>
      <Panel title={`${t.cardStatus}（${cardsTotal}）`}>
        {overview.cards.length === 0 ? (
          <Empty description={text.common.empty} image={Empty.PRESENTED_IMAGE_SIMPLE} />
        ) : (
          <ul className={styles.list}>
            {overview.cards.map((row) => (
              <li key={row.status}>
                <span>{cardStatusLabel[row.status as CardStatus] ?? row.status}</span>
                <strong>{row.count}</strong>
              </li>
            ))}
          </ul>
        )}
      </Panel>
      <Panel title={t.jobs}>
        <ul className={styles.list}>
          {CONSOLE_JOB_KINDS.map((kind) => {
            const running = overview.jobs.running.find((row) => row.kind === kind)?.count ?? 0;
            const failed = overview.jobs.failed.find((row) => row.kind === kind)?.count ?? 0;
            return (
              <li key={kind}>
                <span>{consoleJobKindLabel[kind]}</span>
                <span>
                  <Tag color={running > 0 ? 'processing' : 'default'}>
                    {t.running} {running}
                  </Tag>
                  <Tag color={failed > 0 ? 'error' : 'default'}>
                    {t.failed} {failed}
                  </Tag>
                </span>
              </li>
            );
          })}
        </ul>
      </Panel>
    </div>
  );
}

/** A titled box of the overview (a bordered section: antd's Card would bring its tabs into the first load). */
function Panel({ title, extra, wide, children }: { title: string; extra?: string; wide?: boolean; children: ReactNode }) {
  return (
    <section className={wide ? `${styles.panel} ${styles.wide}` : styles.panel} aria-label={title}>
      <header className={styles.panelHeader}>
        <h2>{title}</h2>
        {extra ? <span className={styles.secondary}>{extra}</span> : null}
      </header>
      <div className={styles.panelBody}>{children}</div>
    </section>
  );
}
