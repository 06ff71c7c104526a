import { DEFAULT_CARD_SORT } from '@portal/contract/card-list';
import type { AcrossTransactionItem, SpendingGroup, SpendingSummary } from '@portal/contract/card-spending-across';
import { declineRateOf } from '@portal/contract/card-spending-across';
import { CURRENCIES, cardTransactionStatusLabel, cardTransactionTypeLabel } from '@portal/contract/enums';
import { ROLE_LABELS } from '@portal/contract/team';
import { Button, DatePicker, Empty, Result, Select, Skeleton, Table, type TableColumnsType, Tabs } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import 'dayjs/locale/zh-cn';
import type { HTMLAttributes } from 'react';
import { PageFrame } from '../../../components/page-frame.tsx';
import { useCardTags } from '../../../domain/cards/api/get-card-tags.ts';
import { useCards } from '../../../domain/cards/api/get-cards.ts';
import { categoryText } from '../../../domain/cards/lib/spending-format.ts';
import { ListSection } from '../../../domain/lists/components/list-section.tsx';
import { useListLocation } from '../../../domain/lists/lib/use-list-location.ts';
import { usePageInRange } from '../../../domain/lists/lib/use-page-in-range.ts';
import { useTeamMembers } from '../../../domain/team/api/get-team-members.ts';
import { useCans } from '../../../domain/team/lib/use-can.ts';
import { ExportButton } from '../../../domain/transactions/components/export-button.tsx';
import { formatDateTime } from '../../../lib/date-time.ts';
import { formatAmount } from '../../../lib/money-format.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useNarrowScreen } from '../../../lib/use-narrow-screen.ts';
import { cardListText } from '../../../locales/zh-CN/card-list.ts';
import { spendingAnalysisText as text } from '../../../locales/zh-CN/spending-analysis.ts';
import { useExportAcrossTransactions } from '../api/export-across-transactions.ts';
import { useAcrossTransactions } from '../api/get-across-transactions.ts';
import { useSpendingSummary } from '../api/get-spending-summary.ts';
import { SpendChart } from '../components/spend-chart.tsx';
import { type AnalysisFilters, GROUP_TABS, type GroupTab, hasAnalysisFilters, readAnalysisLocation, writeAnalysisLocation } from '../lib/analysis-location.ts';
import styles from './spending-analysis.module.css';

dayjs.locale('zh-cn');

const DAY_FORMAT = 'YYYY-MM-DD';
const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;

/** The filters of the screen, each applied at once and kept in the address. */
function AnalysisFilterBar({ filters, onChange, narrow }: { filters: AnalysisFilters; onChange: (next: AnalysisFilters) => void; narrow: boolean }) {
  const may = useCans(['team.read']);
  const members = useTeamMembers();
  const cards = useCards({ filters: {}, sort: DEFAULT_CARD_SORT, page: 1, pageSize: 100 });
  const tags = useCardTags();
  const change = (patch: Partial<AnalysisFilters>) => {
    const next: AnalysisFilters = { ...filters, ...patch };
    for (const name of Object.keys(next) as (keyof AnalysisFilters)[]) if (!next[name]) delete next[name];
    onChange(next);
  };
  const range: [Dayjs, Dayjs] | null = filters.from && filters.to ? [dayjs(filters.from), dayjs(filters.to)] : null;
  const today = dayjs().startOf('day');
  return (
    <fieldset className={styles.filters} aria-label={text.filters.label} data-testid="analysis-filters">
      {narrow ? (
        <div className={styles.days}>
          <DatePicker
            aria-label={text.filters.rangePlaceholder[0]}
            placeholder={text.filters.rangePlaceholder[0]}
            value={filters.from ? dayjs(filters.from) : null}
            onChange={(value) => change({ from: value ? value.format(DAY_FORMAT) : undefined })}
            inputReadOnly
          />
          <DatePicker
            aria-label={text.filters.rangePlaceholder[1]}
            placeholder={text.filters.rangePlaceholder[1]}
            value={filters.to ? dayjs(filters.to) : null}
            onChange={(value) => change({ to: value ? value.format(DAY_FORMAT) : undefined })}
            inputReadOnly
          />
        </div>
      ) : (
        <DatePicker.RangePicker
          aria-label={text.filters.range}
          className={styles.range}
          placeholder={text.filters.rangePlaceholder}
          value={range}
          presets={[
            { label: '本月', value: [today.startOf('month'), today.endOf('month').startOf('day')] },
            { label: '上月', value: [today.subtract(1, 'month').startOf('month'), today.subtract(1, 'month').endOf('month').startOf('day')] },
            { label: '近30天', value: [today.subtract(29, 'day'), today] },
          ]}
          onChange={(values) =>
            change({ from: values?.[0]?.format(DAY_FORMAT), to: values?.[1]?.format(DAY_FORMAT) })
          }
          data-testid="analysis-range"
        />
      )}
      <Select
        aria-label={text.filters.currency}
        className={styles.currency}
        value={filters.currency ?? CURRENCIES[0]}
        options={CURRENCIES.map((currency) => ({ value: currency, label: currency }))}
        onChange={(currency) => change({ currency })}
        data-testid="analysis-currency"
      />
      <Select
        aria-label={text.filters.card}
        className={styles.card}
        allowClear
        showSearch={{ optionFilterProp: 'label' }}
        placeholder={text.filters.cardPlaceholder}
        value={filters.card ?? null}
        loading={cards.isPending}
        options={(cards.data?.items ?? []).map((card) => ({ value: card.id, label: card.last4 ? `${card.nickname}（尾号 ${card.last4}）` : card.nickname }))}
        onChange={(card: string | undefined) => change({ card: card ?? undefined })}
        data-testid="analysis-card"
      />
      <Select
        aria-label={text.filters.tag}
        className={styles.tag}
        allowClear
        showSearch={{ optionFilterProp: 'value' }}
        placeholder={text.filters.tagPlaceholder}
        value={filters.tag ?? null}
        loading={tags.isPending}
        options={(tags.data?.items ?? []).map((item) => ({ value: item.tag, label: cardListText.filters.tagOption(item.tag, item.count) }))}
        onChange={(tag: string | undefined) => change({ tag: tag ?? undefined })}
        data-testid="analysis-tag"
      />
      {may['team.read'] ? (
        <Select
          aria-label={text.filters.member}
          className={styles.member}
          allowClear
          placeholder={text.filters.memberPlaceholder}
          value={filters.holder ?? null}
          loading={members.isPending}
          options={(members.data ?? []).map((member) => ({ value: member.id, label: `${member.phone_masked}（${ROLE_LABELS[member.role]}）` }))}
          onChange={(holder: string | undefined) => change({ holder: holder ?? undefined })}
          data-testid="analysis-member"
        />
      ) : null}
      {hasAnalysisFilters(filters) ? (
        <Button type="link" onClick={() => onChange({})}>
          {text.filters.reset}
        </Button>
      ) : null}
    </fieldset>
  );
}

/** The four figures of the range: spend, authorisations asked, declined, the decline rate. */
function Totals({ summary }: { summary: SpendingSummary }) {
  const { total, currency } = summary;
  const figures = [
    { key: 'amount', label: text.totals.amount, value: `${formatAmount(total.amount)} ${currency}` },
    { key: 'count', label: text.totals.count, value: String(total.count) },
    { key: 'declined', label: text.totals.declined, value: String(total.declined) },
    { key: 'rate', label: text.totals.rate, value: percent(total.decline_rate) },
  ];
  return (
    <dl className={styles.totals} data-testid="analysis-totals">
      {figures.map((figure) => (
        <div key={figure.key} className={styles.total} data-testid={`total-${figure.key}`}>
          <dt>{figure.label}</dt>
          <dd>{figure.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The five groups that spent most, as bars of their share. */
function TopList({ title, groups, currency, testId }: { title: string; groups: SpendingGroup[] | undefined; currency: string; testId: string }) {
  const top = (groups ?? []).filter((group) => Number(group.amount) > 0).slice(0, 5);
  const largest = Math.max(...top.map((group) => Number(group.amount)), 0);
  return (
    <section className={styles.panel} aria-label={title} data-testid={testId}>
      <h2 className={styles.panelTitle}>{title}</h2>
      {!groups ? (
        <Skeleton active title={false} paragraph={{ rows: 4 }} />
      ) : top.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={text.top.empty} />
      ) : (
        <ol className={styles.top}>
          {top.map((group) => (
            <li key={group.key} className={styles.topItem}>
              <span className={styles.topName} title={group.label}>
                {group.label}
              </span>
              <span className={styles.topAmount}>
                {formatAmount(group.amount)} {currency}
              </span>
              <span className={styles.topBar} aria-hidden="true">
                <span style={{ width: `${largest > 0 ? (Number(group.amount) / largest) * 100 : 0}%` }} />
              </span>
              <span className={styles.topCount}>{text.top.count(group.count)}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

const groupColumns = (currency: string): TableColumnsType<SpendingGroup> => [
  { key: 'name', title: text.groups.columns.name, dataIndex: 'label', ellipsis: { showTitle: true } },
  {
    key: 'amount',
    title: text.groups.columns.amount,
    dataIndex: 'amount',
    align: 'right',
    width: 160,
    render: (value: string) => `${formatAmount(value)} ${currency}`,
  },
  { key: 'count', title: text.groups.columns.count, dataIndex: 'count', align: 'right', width: 100 },
  { key: 'declined', title: text.groups.columns.declined, dataIndex: 'declined', align: 'right', width: 100 },
  {
    key: 'rate',
    title: text.groups.columns.rate,
    align: 'right',
    width: 100,
    render: (_: unknown, group) => percent(declineRateOf(group.declined, group.count)),
  },
];

const rowColumns: TableColumnsType<AcrossTransactionItem> = [
  {
    key: 'time',
    title: text.rows.columns.time,
    dataIndex: 'created_at',
    width: 168,
    render: (value: string) => formatDateTime(value, { seconds: true }),
  },
  {
    key: 'card',
    title: text.rows.columns.card,
    ellipsis: { showTitle: true },
    render: (_: unknown, item) => (item.card_last4 ? `${item.card_nickname}（尾号 ${item.card_last4}）` : item.card_nickname),
  },
  { key: 'type', title: text.rows.columns.type, dataIndex: 'type', width: 72, render: (value: AcrossTransactionItem['type']) => cardTransactionTypeLabel[value] },
  { key: 'merchant', title: text.rows.columns.merchant, dataIndex: 'merchant_name', ellipsis: { showTitle: true }, render: (value: string | null) => value || '—' },
  { key: 'category', title: text.rows.columns.category, dataIndex: 'mcc', width: 120, ellipsis: { showTitle: true }, render: (value: string | null) => categoryText(value) ?? '—' },
  {
    key: 'amount',
    title: text.rows.columns.amount,
    dataIndex: 'amount',
    align: 'right',
    width: 140,
    render: (value: string, item) => `${formatAmount(value)} ${item.currency}`,
  },
  {
    key: 'status',
    title: text.rows.columns.status,
    dataIndex: 'status',
    width: 80,
    render: (value: AcrossTransactionItem['status'], item) => (
      <span className={item.decline_code ? styles.declined : undefined} title={item.decline_reason ?? undefined}>
        {cardTransactionStatusLabel[value]}
      </span>
    ),
  },
];

/**
 * /card/analysis, 消费分析: what every card the member may see spent in a range (this China-time
 * month unless chosen) — the totals, spend by day as a chart, the top merchants and categories, the
 * groups by card, tag and member — and the rows below with their export; every filter in the address.
 */
export default function SpendingAnalysis() {
  const narrow = useNarrowScreen();
  const { location, update } = useListLocation(readAnalysisLocation, writeAnalysisLocation);
  const { filters, tab, page, pageSize } = location;
  const may = useCans(['cards.export', 'team.read']);
  const byDay = useSpendingSummary(filters, 'day');
  const merchants = useSpendingSummary(filters, 'merchant');
  const categories = useSpendingSummary(filters, 'category');
  const groups = useSpendingSummary(filters, tab);
  const rows = useAcrossTransactions({ filters, page, pageSize });
  const exporting = useExportAcrossTransactions();
  const lastPage = usePageInRange(rows, page, pageSize, update);
  const summary = byDay.data;
  const currency = summary?.currency ?? filters.currency ?? CURRENCIES[0];
  const tabs = GROUP_TABS.filter((name) => name !== 'holder' || may['team.read']);
  const items = rows.data?.items ?? [];
  const total = rows.data?.total ?? 0;
  const filtered = hasAnalysisFilters(filters);

  return (
    <PageFrame title={text.title}>
      <p className={styles.subtitle}>{text.subtitle}</p>
      <AnalysisFilterBar filters={filters} onChange={(next) => update({ filters: next })} narrow={narrow} />

      {byDay.isError && !summary ? (
        <Result
          status="warning"
          title={text.loadFailed}
          extra={
            <Button type="primary" onClick={() => void byDay.refetch()}>
              {text.retry}
            </Button>
          }
          data-testid="analysis-error"
        />
      ) : !summary ? (
        <div data-testid="analysis-loading">
          <Skeleton active title={false} paragraph={{ rows: 2 }} />
          <div className={styles.chartSkeleton} aria-hidden="true" />
        </div>
      ) : (
        <div aria-busy={byDay.isPlaceholderData}>
          <Totals summary={summary} />
          <section className={styles.panel} aria-label={text.chart.title}>
            <h2 className={styles.panelTitle}>
              {text.chart.title}
              <span className={styles.panelNote}>
                {summary.from} – {summary.to}
              </span>
            </h2>
            {summary.total.count === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={text.chart.empty} data-testid="chart-empty" />
            ) : (
              <SpendChart from={summary.from} to={summary.to} currency={currency} groups={summary.groups} />
            )}
          </section>
        </div>
      )}

      <div className={styles.tops}>
        <TopList title={text.top.merchants} groups={merchants.data?.groups} currency={currency} testId="top-merchants" />
        <TopList title={text.top.categories} groups={categories.data?.groups} currency={currency} testId="top-categories" />
      </div>

      <section className={styles.panel} aria-label={text.groups.tabs[tab]}>
        <Tabs
          activeKey={tab}
          onChange={(key) => update({ tab: key as GroupTab })}
          items={tabs.map((name) => ({ key: name, label: text.groups.tabs[name] }))}
          data-testid="analysis-tabs"
        />
        {tab === 'tag' ? (
          <p className={styles.groupNote} data-testid="analysis-tag-note">
            {text.groups.tagNote}
          </p>
        ) : null}
        <Table<SpendingGroup>
          rowKey="key"
          size="middle"
          columns={groupColumns(currency)}
          dataSource={groups.data?.groups ?? []}
          loading={groups.isPending || groups.isPlaceholderData}
          pagination={(groups.data?.groups.length ?? 0) > 10 ? { pageSize: 10, size: 'small', showSizeChanger: false } : false}
          tableLayout="fixed"
          scroll={narrow ? { x: 560 } : undefined}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={text.groups.empty} /> }}
          data-testid="analysis-groups"
        />
      </section>

      <ListSection
        titleId="analysis-rows-title"
        title={text.rows.title}
        list={rows}
        totalText={text.rows.total}
        totalTestId="analysis-rows-total"
        filters={
          may['cards.export'] ? (
            <div className={styles.rowActions}>
              <ExportButton
                hint={text.rows.exportHint}
                label={text.rows.exportButton}
                onClick={() => exporting.mutate(filters, { onSuccess: () => notifySuccess(text.rows.exportDone(total)) })}
                pending={exporting.isPending}
                disabled={!rows.data || total === 0}
                testId="analysis-export"
              />
            </div>
          ) : null
        }
        states={{
          skeletonRows: 4,
          failed: { title: text.rows.loadFailed, retryText: text.retry, testId: 'analysis-rows-error' },
          empty: {
            shown: items.length === 0,
            filtered,
            text: text.rows.empty,
            filteredText: text.rows.emptyFiltered,
            resetText: text.rows.reset,
            onReset: () => update({ filters: {} }),
            className: styles.rowsEmpty,
          },
          className: undefined,
        }}
        pager={{ page, lastPage, pageSize, narrow, onChange: update }}
        className={styles.rows}
      >
        <Table<AcrossTransactionItem>
          rowKey="id"
          size="middle"
          columns={rowColumns}
          dataSource={items}
          loading={rows.isPlaceholderData}
          pagination={false}
          tableLayout="fixed"
          scroll={narrow ? { x: 860 } : undefined}
          onRow={() => ({ 'data-testid': 'analysis-row' }) as HTMLAttributes<HTMLElement>}
        />
      </ListSection>
    </PageFrame>
  );
}
