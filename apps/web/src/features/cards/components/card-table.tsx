import type { CardItem } from '@portal/contract/cards';
import { type CardSort, type CardSortKey, DEFAULT_CARD_SORT, parseCardSort } from '@portal/contract/card-list';
import { Table, type TableColumnsType, type TableProps } from 'antd';
import type { SortOrder } from 'antd/es/table/interface';
import type { HTMLAttributes } from 'react';
import { detailsColumn } from '../../../domain/lists/components/details-column.tsx';
import { formatDateTime } from '../../../lib/date-time.ts';
import { formatAmount } from '../../../lib/money-format.ts';
import { cardCommonText } from '../../../locales/zh-CN/card-common.ts';
import { bulkExportText } from '../../../locales/zh-CN/bulk-export.ts';
import { teamText } from '../../../locales/zh-CN/team.ts';
import { cardListText } from '../../../locales/zh-CN/card-list.ts';
import { cardSpendingText } from '../../../locales/zh-CN/card-spending.ts';
import { shortMaskedNumber } from '../lib/card-format.ts';
import { percentText } from '../../../domain/cards/lib/spending-format.ts';
import { BrandMark } from './brand-mark.tsx';
import { CardStatusTag } from './card-status-tag.tsx';
import { RiskTag } from './risk-tag.tsx';
import styles from './card-table.module.css';
import { primaryControl } from '../../../lib/primary-control.ts';
import type { ChoosableColumn } from '../lib/card-columns.ts';
import { CardTagsCell } from './card-tags.tsx';
import { AutoRechargeMark } from './auto-recharge-mark.tsx';

interface CardTableProps {
  items: CardItem[];
  loading: boolean;
  onOpen: (card: CardItem) => void;
  /** the cards ticked for an export (kept across pages), when the list offers ticking */
  selection?: { ids: string[]; onChange: (ids: string[]) => void };
  /** the list's sort (the server sorts): a figure's header sorts by it */
  sort: CardSort;
  onSort: (sort: CardSort) => void;
  /** the columns the member chose to see */
  shown: readonly ChoosableColumn[];
  /** whether the member may change the cards' tags (cards.manage) */
  tagsEditable: boolean;
}

/** Each sortable column's sort key. */
const SORT_KEYS: Partial<Record<string, CardSortKey>> = {
  balance: 'balance',
  spent: 'spent_this_month',
  declines: 'decline_rate_30d',
  lastUsed: 'last_used_at',
  created: 'created_at',
};

/** The nickname over the masked number (or 待发卡), beside the network's mark. */
export function CardIdentity({ card }: { card: CardItem }) {
  return (
    <span className={styles.identity}>
      <span className={styles.brand}>
        <BrandMark brand={card.brand} size="small" />
      </span>
      <span className={styles.names}>
        <span className={styles.nickname} data-testid="card-nickname">
          {card.nickname}
        </span>
        <span className={styles.number} data-testid="card-number">
          {shortMaskedNumber(card.last4) ?? cardCommonText.pendingNumber}
        </span>
      </span>
    </span>
  );
}

const SELECTION_WIDTH = 44;
/** the least the card's column (brand mark, nickname, masked number) is drawn in */
const CARD_COLUMN_MIN = 140;

/** The cards on wide screens: one row each, a click opens the card's page. */
export function CardTable({ items, loading, onOpen, selection, sort, onSort, shown, tagsEditable }: CardTableProps) {
  const text = cardListText.columns;
  const current = parseCardSort(sort);
  const sortable = (key: string) => {
    const sortKey = SORT_KEYS[key];
    if (!sortKey) return {};
    const order: SortOrder = current.key === sortKey ? (current.descending ? 'descend' : 'ascend') : null;
    return { sorter: true, sortOrder: order, sortDirections: ['descend', 'ascend'] as SortOrder[], showSorterTooltip: false };
  };
  const all: TableColumnsType<CardItem> = [
    { key: 'card', title: text.card, render: (_: unknown, card) => <CardIdentity card={card} /> },
    {
      key: 'product',
      title: text.product,
      width: 150,
      render: (_: unknown, card) => (
        <span className={styles.product}>
          {card.product_name}
          <span className={styles.secondary}>{cardCommonText.brand[card.brand]}</span>
        </span>
      ),
    },
    { key: 'currency', title: text.currency, dataIndex: 'currency', width: 70 },
    {
      key: 'balance',
      title: text.balance,
      dataIndex: 'balance',
      align: 'right',
      width: 150,
      render: (value: string, card: CardItem) => (
        <>
          <span className={styles.balance} data-testid="card-balance">
            {formatAmount(value)}
          </span>
          <AutoRechargeMark card={card} />
        </>
      ),
    },
    {
      key: 'spent',
      title: cardSpendingText.list.spentThisMonth,
      dataIndex: 'spent_this_month',
      align: 'right',
      width: 120,
      render: (value: string | undefined) => (
        <span className={styles.balance} data-testid="card-spent">
          {value === undefined ? cardCommonText.none : formatAmount(value)}
        </span>
      ),
    },
    {
      key: 'declines',
      title: cardSpendingText.list.declineRate,
      align: 'right',
      width: 130,
      render: (_: unknown, card) => (
        <span className={styles.declines}>
          <span className={styles.rate} data-testid="card-decline-rate">
            {card.decline_rate_30d === undefined ? cardCommonText.none : percentText(card.decline_rate_30d)}
          </span>
          <RiskTag card={card} />
        </span>
      ),
    },
    { key: 'status', title: text.status, dataIndex: 'status', width: 110, render: (value: CardItem['status']) => <CardStatusTag status={value} /> },
    {
      key: 'tags',
      title: text.tags,
      width: 170,
      render: (_: unknown, card) => <CardTagsCell card={card} editable={tagsEditable} />,
    },
    {
      key: 'lastUsed',
      title: text.lastUsedAt,
      dataIndex: 'last_used_at',
      width: 160,
      render: (value: string | null) => <span className={styles.time}>{value ? formatDateTime(value) : cardListText.neverUsed}</span>,
    },
    {
      key: 'created',
      title: text.createdAt,
      dataIndex: 'created_at',
      width: 150,
      render: (value: string) => <span className={styles.time}>{formatDateTime(value)}</span>,
    },
    // 详情 stays in sight when the table scrolls sideways
    { ...detailsColumn<CardItem>({ title: text.action, label: cardListText.details, width: 72, onOpen }), fixed: 'right' },
  ];
  // 持卡成员, once the cards name their holder
  if (items.some((card) => card.holder_label)) {
    all.splice(1, 0, {
      key: 'holder',
      title: teamText.holder.column,
      width: 150,
      render: (_: unknown, card) => <span data-testid="card-holder-label">{card.holder_label ?? cardCommonText.none}</span>,
    });
  }
  const columns = all
    .filter((column) => column.key === 'card' || column.key === 'action' || shown.includes(column.key as ChoosableColumn))
    .map((column) => ({ ...column, ...sortable(String(column.key)) }));
  const onChange: TableProps<CardItem>['onChange'] = (_pagination, _filters, sorter, extra) => {
    if (extra.action !== 'sort' || Array.isArray(sorter)) return;
    const key = SORT_KEYS[String(sorter.columnKey)];
    onSort(key && sorter.order ? ((sorter.order === 'descend' ? `-${key}` : key) as CardSort) : DEFAULT_CARD_SORT);
  };

  // the card's own column keeps room for its nickname and number: the other columns have fixed
  // widths, and once they fill the list (as with 持卡成员) the table scrolls sideways instead
  const scrollWidth = columns.reduce((sum, column) => sum + (typeof column.width === 'number' ? column.width : CARD_COLUMN_MIN), selection ? SELECTION_WIDTH : 0);

  return (
    <Table<CardItem>
      className={styles.table}
      rowKey="id"
      size="middle"
      columns={columns}
      dataSource={items}
      loading={loading}
      pagination={false}
      onChange={onChange}
      tableLayout="fixed"
      scroll={{ x: scrollWidth }}
      rowSelection={
        selection
          ? {
              selectedRowKeys: selection.ids,
              preserveSelectedRowKeys: true,
              onChange: (keys) => selection.onChange(keys.map(String)),
              getCheckboxProps: (card) => ({ 'aria-label': bulkExportText.select(card.nickname) }) as never,
              columnWidth: SELECTION_WIDTH,
            }
          : undefined
      }
      onRow={(card) =>
        ({
          // ticking a card is not opening it
          onClick: (event) => {
            if (!(event.target as HTMLElement).closest('.ant-table-selection-column')) onOpen(card);
          },
          className: styles.row,
          'data-testid': 'card-row',
          ...primaryControl,
        }) as HTMLAttributes<HTMLElement>
      }
    />
  );
}
