import type { WalletTransactionItem } from '@portal/contract/wallet';
import { DownloadOutlined, ReloadOutlined } from '@ant-design/icons';
import { useIsFetching, useQueryClient } from '@tanstack/react-query';
import { Button, Empty, Pagination, Result, Skeleton, Tooltip } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { PageFrame } from '../../../components/page-frame.tsx';
import { StaleDataNote } from '../../../components/stale-data-note.tsx';
import { notifySuccess } from '../../../lib/notify.ts';
import { walletText } from '../../../locales/zh-CN/wallet.ts';
import { useWalletStatusStore } from '../../../stores/wallet-status.ts';
import { useExportWalletTransactions } from '../api/export-wallet-transactions.ts';
import { useAccountBalance } from '../../../domain/wallet/api/get-account-balance.ts';
import { checkWalletStatus } from '../../../domain/wallet/api/get-balance-status.ts';
import { useCardAmount } from '../api/get-card-amount.ts';
import { useWalletTransactions } from '../api/get-wallet-transactions.ts';
import { walletKeys } from '../api/wallet-keys.ts';
import { BalanceCards } from '../components/balance-cards.tsx';
import { FrozenBanner } from '../components/frozen-banner.tsx';
import { TransactionDetail } from '../components/transaction-detail.tsx';
import { TransactionFilterBar } from '../components/transaction-filter-bar.tsx';
import { TransactionList } from '../components/transaction-list.tsx';
import { TransactionTable } from '../components/transaction-table.tsx';
import {
  hasFilters,
  PAGE_SIZES,
  readTransactionLocation,
  type TransactionFilters,
  writeTransactionLocation,
} from '../lib/transaction-filters.ts';
import { useNarrowScreen } from '../../../lib/use-narrow-screen.ts';
import styles from './wallet.module.css';

/** The list's filters and page live in the address, so reload, back and a shared link keep them. */
function useTransactionLocation() {
  const [search, setSearch] = useSearchParams();
  const location = readTransactionLocation(search);
  const update = useCallback(
    (change: { filters?: TransactionFilters; page?: number; pageSize?: number }) =>
      setSearch((previous) => writeTransactionLocation(previous, change), { replace: true, preventScrollReset: true }),
    [setSearch],
  );
  return { ...location, update };
}

/**
 * /wallet (product.md §3): the balance of each currency with what is held and what is on cards, why
 * the wallet is frozen when it is, and the transaction list with filters, pages, a detail view and
 * an .xlsx export of what the filters select.
 */
export default function Wallet() {
  const narrow = useNarrowScreen();
  const queryClient = useQueryClient();
  const { filters, page, pageSize, update } = useTransactionLocation();
  const balances = useAccountBalance();
  const cardAmounts = useCardAmount();
  const list = useWalletTransactions({ filters, page, pageSize });
  const exporting = useExportWalletTransactions();
  const isWalletFreeze = useWalletStatusStore((state) => state.isWalletFreeze);
  const fetching = useIsFetching(walletKeys.all()) > 0;
  const [selected, setSelected] = useState<WalletTransactionItem | null>(null);

  const total = list.data?.total ?? 0;
  const lastPage = Math.max(1, Math.ceil(total / pageSize));
  useEffect(() => {
    // a page past the end (a shorter list, an old link): show the last one that has rows
    if (list.data && !list.isPlaceholderData && page > lastPage) update({ page: lastPage });
  }, [list.data, list.isPlaceholderData, page, lastPage, update]);

  const refresh = () => {
    // the HTTP module reports a failed check; the last known status stays meanwhile
    checkWalletStatus().catch(() => {});
    void queryClient.invalidateQueries(walletKeys.all());
  };

  const exportFiltered = () =>
    exporting.mutate(filters, {
      onSuccess: () => notifySuccess(walletText.exportDone(total)),
    });

  const items = list.data?.items ?? [];
  const filtered = hasFilters(filters);
  const closeDetail = useCallback(() => setSelected(null), []);

  return (
    <PageFrame
      title={walletText.title}
      extra={
        <Button icon={<ReloadOutlined spin={fetching} />} onClick={refresh} aria-label={walletText.refresh}>
          {narrow ? null : walletText.refresh}
        </Button>
      }
    >
      <FrozenBanner />
      <StaleDataNote queries={[balances, cardAmounts, list]} />
      <BalanceCards balances={balances.data} cardAmounts={cardAmounts.data} frozen={isWalletFreeze} />

      <section className={styles.transactions} aria-labelledby="wallet-transactions-title">
        <div className={styles.sectionHead}>
          <h2 id="wallet-transactions-title" className={styles.sectionTitle}>
            {walletText.transactions}
          </h2>
          {list.data ? (
            <span className={styles.count} data-testid="transaction-total">
              {walletText.total(total)}
            </span>
          ) : null}
        </div>
        <TransactionFilterBar
          filters={filters}
          onChange={(next) => update({ filters: next })}
          compact={narrow}
          actions={
            <Tooltip title={walletText.exportHint}>
              <Button
                icon={<DownloadOutlined />}
                onClick={exportFiltered}
                loading={exporting.isPending}
                disabled={!list.data || total === 0}
                data-testid="wallet-export"
              >
                {walletText.exportButton}
              </Button>
            </Tooltip>
          }
        />

        <div className={styles.listArea}>
          {list.isPending ? (
            <Skeleton active title={false} paragraph={{ rows: 6 }} />
          ) : list.isError && !list.data ? (
            <Result
              status="warning"
              title={walletText.loadFailed}
              extra={
                <Button type="primary" onClick={() => void list.refetch()}>
                  {walletText.retry}
                </Button>
              }
            />
          ) : items.length === 0 ? (
            <Empty
              className={styles.empty}
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={filtered ? walletText.emptyFiltered : walletText.empty}
              data-testid="transactions-empty"
            >
              {filtered ? <Button onClick={() => update({ filters: {} })}>{walletText.clearFilters}</Button> : null}
            </Empty>
          ) : narrow ? (
            <TransactionList items={items} loading={list.isPlaceholderData} onOpen={setSelected} />
          ) : (
            <TransactionTable items={items} loading={list.isPlaceholderData} onOpen={setSelected} />
          )}
        </div>

        {total > PAGE_SIZES[0] ? (
          <div className={styles.pager}>
            <Pagination
              current={Math.min(page, lastPage)}
              pageSize={pageSize}
              total={total}
              pageSizeOptions={PAGE_SIZES.map(String)}
              showSizeChanger={!narrow}
              showTotal={narrow ? undefined : walletText.total}
              simple={narrow}
              onChange={(next, size) => (size !== pageSize ? update({ pageSize: size }) : update({ page: next }))}
              data-testid="transaction-pager"
            />
          </div>
        ) : null}
      </section>

      <TransactionDetail item={selected} onClose={closeDetail} compact={narrow} />
    </PageFrame>
  );
}
