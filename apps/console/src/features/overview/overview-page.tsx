import { PageContainer, ProCard, StatisticCard } from '@ant-design/pro-components';
import { CONSOLE_JOB_KINDS, type ConsoleOverview, consoleJobKindLabel } from '@portal/contract/console';
import { type CardStatus, cardStatusLabel } from '@portal/contract/enums';
import { useQuery } from '@tanstack/react-query';
import { Button, Empty, Result, Skeleton, Table, Tag } from 'antd';
import { overviewQuery } from '../../lib/queries.ts';
import { fill, text } from '../../locales/zh-CN.ts';
import styles from './overview.module.css';

const t = text.overview;

/** Money held per currency, cards by status, today's spend and declines, and the card jobs running or failed. */
export function OverviewPage() {
  const overview = useQuery(overviewQuery);
  return (
    <PageContainer title={t.title} subTitle={overview.data ? fill(t.day, { day: overview.data.day }) : undefined}>
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
    </PageContainer>
  );
}

function Figures({ overview }: { overview: ConsoleOverview }) {
  const cardsTotal = overview.cards.reduce((sum, row) => sum + row.count, 0);
  return (
    <div className={styles.grid} data-testid="overview">
      <ProCard title={t.held} subTitle={t.heldHint} variant="outlined" headerBordered className={styles.wide}>
        {overview.held.length === 0 ? (
          <Empty description={text.common.empty} image={Empty.PRESENTED_IMAGE_SIMPLE} />
        ) : (
          <ProCard.Group direction="row" wrap>
            {overview.held.map((row) => (
              <StatisticCard
                key={row.currency}
                className={styles.stat}
                statistic={{ title: `${row.currency} ${t.total}`, value: row.total, precision: 2, description: `${t.wallets} ${row.wallets} · ${t.cards} ${row.cards}` }}
              />
            ))}
          </ProCard.Group>
        )}
      </ProCard>
      <ProCard title={t.today} variant="outlined" headerBordered>
        <Table
          size="small"
          pagination={false}
          rowKey="currency"
          dataSource={overview.today}
          locale={{ emptyText: t.none }}
          columns={[
            { title: '币种', dataIndex: 'currency' },
            { title: t.spent, dataIndex: 'spent', align: 'right' },
            { title: t.authorisations, dataIndex: 'authorisations', align: 'right' },
            { title: t.declined, dataIndex: 'declined', align: 'right', render: (value: number) => (value > 0 ? <Tag color="red">{value}</Tag> : value) },
          ]}
        />
      </ProCard>
      <ProCard title={`${t.cardStatus}（${cardsTotal}）`} variant="outlined" headerBordered>
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
      </ProCard>
      <ProCard title={t.jobs} variant="outlined" headerBordered>
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
                  {kind !== 'CARD_BULK' ? (
                    <Tag color={failed > 0 ? 'error' : 'default'}>
                      {t.failed} {failed}
                    </Tag>
                  ) : null}
                </span>
              </li>
            );
          })}
        </ul>
      </ProCard>
    </div>
  );
}
