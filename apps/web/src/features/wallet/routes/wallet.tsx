import type { WalletTransactionItem } from '@portal/contract/wallet';
import { useIsFetching, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { FileTextOutlined, WalletOutlined } from '@ant-design/icons';
import { statementText } from '@portal/contract/statements';
import { PageAction, RefreshAction } from '../../../components/page-action.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { StaleDataNote } from '../../../components/stale-data-note.tsx';
import { ListSection } from '../../../domain/lists/components/list-section.tsx';
import { useListLocation } from '../../../domain/lists/lib/use-list-location.ts';
import { usePageInRange } from '../../../domain/lists/lib/use-page-in-range.ts';
import { ExportButton } from '../../../domain/transactions/components/export-button.tsx';
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
import { StatementDialog } from '../components/statement-dialog.tsx';
import { DepositDialog } from '../components/deposit-dialog.tsx';
import { depositText } from '../../../locales/zh-CN/deposit.ts';
import { TransactionTable } from '../components/transaction-table.tsx';
import { hasFilters, readTransactionLocation, writeTransactionLocation } from '../lib/transaction-filters.ts';
import { useNarrowScreen } from '../../../lib/use-narrow-screen.ts';
import styles from './wallet.module.css';
import { MyBudget } from '../../../domain/team/components/budget-bar.tsx';
import { useCan } from '../../../domain/team/lib/use-can.ts';

/**
 * /wallet (product.md §3): the balance of each currency with what is held and what is on cards, why
 * the wallet is frozen when it is, and the transaction list with filters, pages, a detail view and
 * an .xlsx export of what the filters select.
 */
export default function Wallet() {
  const narrow = useNarrowScreen();
  const queryClient = useQueryClient();
  const { location, update } = useListLocation(readTransactionLocation, writeTransactionLocation);
  const { filters, page, pageSize } = location;
  const balances = useAccountBalance();
  const cardAmounts = useCardAmount();
  // 流水 and its export for the roles that may read the wallet's history
  const mayReadHistory = useCan('wallet.history');
  const list = useWalletTransactions({ filters, page, pageSize }, mayReadHistory);
  const exporting = useExportWalletTransactions();
  const isWalletFreeze = useWalletStatusStore((state) => state.isWalletFreeze);
  const fetching = useIsFetching(walletKeys.all()) > 0;
  const [selected, setSelected] = useState<WalletTransactionItem | null>(null);
  const [statementOpen, setStatementOpen] = useState(false);
  const [depositOpen, setDepositOpen] = useState(false);
  const mayFund = useCan('wallet.fund');

  const total = list.data?.total ?? 0;
  const lastPage = usePageInRange(list, page, pageSize, update);

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
        <>
          {mayReadHistory ? (
            <PageAction icon={<WalletOutlined />} label={depositText.button} onClick={() => setDepositOpen(true)} testId="wallet-deposit" />
          ) : null}
          {mayReadHistory ? (
            <PageAction icon={<FileTextOutlined />} label={statementText.button} onClick={() => setStatementOpen(true)} testId="wallet-statement" />
          ) : null}
          <RefreshAction label={walletText.refresh} fetching={fetching} onClick={refresh} />
        </>
      }
    >
      <FrozenBanner />
      <StaleDataNote queries={mayReadHistory ? [balances, cardAmounts, list] : [balances, cardAmounts]} />
      <BalanceCards balances={balances.data} cardAmounts={cardAmounts.data} frozen={isWalletFreeze} />
      <MyBudget />

      {mayReadHistory ? (
      <ListSection
        titleId="wallet-transactions-title"
        title={walletText.transactions}
        list={list}
        totalText={walletText.total}
        totalTestId="transaction-total"
        filters={
          <TransactionFilterBar
            filters={filters}
            onChange={(next) => update({ filters: next })}
            compact={narrow}
            actions={
              <ExportButton
                hint={walletText.exportHint}
                label={walletText.exportButton}
                onClick={exportFiltered}
                pending={exporting.isPending}
                disabled={!list.data || total === 0}
                testId="wallet-export"
              />
            }
          />
        }
        states={{
          skeletonRows: 6,
          failed: { title: walletText.loadFailed, retryText: walletText.retry },
          empty: {
            shown: items.length === 0,
            filtered,
            text: walletText.empty,
            filteredText: walletText.emptyFiltered,
            resetText: walletText.clearFilters,
            onReset: () => update({ filters: {} }),
            className: styles.empty,
          },
          className: styles.listArea,
        }}
        pager={{ page, lastPage, pageSize, narrow, onChange: update, testId: 'transaction-pager' }}
      >
        {narrow ? (
          <TransactionList items={items} loading={list.isPlaceholderData} onOpen={setSelected} />
        ) : (
          <TransactionTable items={items} loading={list.isPlaceholderData} onOpen={setSelected} />
        )}
      </ListSection>
      ) : null}

      <TransactionDetail item={selected} onClose={closeDetail} compact={narrow} />
      {mayReadHistory ? <DepositDialog open={depositOpen} onClose={() => setDepositOpen(false)} mayFile={mayFund} narrow={narrow} /> : null}
      {mayReadHistory ? <StatementDialog open={statementOpen} onClose={() => setStatementOpen(false)} /> : null}
    </PageFrame>
  );
}
