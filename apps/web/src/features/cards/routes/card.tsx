import { EXPORT_IDS_MAX } from '@portal/contract/card-batches';
import type { CardItem } from '@portal/contract/cards';
import { BarChartOutlined, CreditCardOutlined, ExportOutlined, PlusOutlined, SettingOutlined, SyncOutlined } from '@ant-design/icons';
import { useIsFetching, useQueryClient } from '@tanstack/react-query';
import { Button, Checkbox, Empty, Popover, Result, Skeleton } from 'antd';
import { lazy, Suspense, useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { PageAction, RefreshAction } from '../../../components/page-action.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { StaleDataNote } from '../../../components/stale-data-note.tsx';
import { paths } from '../../../lib/paths.ts';
import { useNarrowScreen } from '../../../lib/use-narrow-screen.ts';
import { bulkExportText } from '../../../locales/zh-CN/bulk-export.ts';
import { cardListText } from '../../../locales/zh-CN/card-list.ts';
import { cardAnswers } from '../../../domain/cards/api/card-keys.ts';
import { useCardSummary } from '../api/get-card-summary.ts';
import { useCards } from '../../../domain/cards/api/get-cards.ts';
import { useOpenedAvailable } from '../../../domain/cards/api/get-opened-available.ts';
import { CardFilterBar } from '../../../domain/cards/components/card-filter-bar.tsx';
import { CardList } from '../components/card-list.tsx';
import { CardSummaryStrip } from '../components/card-summary-strip.tsx';
import { CardTable } from '../components/card-table.tsx';
import { hasCardFilters, readCardLocation, writeCardLocation } from '../../../domain/cards/lib/card-filters.ts';
import type { ExportSelectionState } from '../../../domain/cards/lib/export-selection.ts';
import { ListSection } from '../../../domain/lists/components/list-section.tsx';
import { useListLocation } from '../../../domain/lists/lib/use-list-location.ts';
import { usePageInRange } from '../../../domain/lists/lib/use-page-in-range.ts';
import styles from './card.module.css';
import { balanceRuleText } from '../../../locales/zh-CN/balance-rules.ts';
import { BulkBar, useBulkActions } from '../../../domain/bulk/components/bulk-bar.tsx';
import { useTeamMembers } from '../../../domain/team/api/get-team-members.ts';
import { useCardTags } from '../../../domain/cards/api/get-card-tags.ts';
import { CHOOSABLE_COLUMNS, type ChoosableColumn, readChosenColumns, saveChosenColumns } from '../lib/card-columns.ts';
import { useCardSelection } from '../lib/use-card-selection.ts';
import { MyBudget } from '../../../domain/team/components/budget-bar.tsx';
import { useCans } from '../../../domain/team/lib/use-can.ts';
import { ROLE_LABELS } from '@portal/contract/team';
import { teamText } from '../../../locales/zh-CN/team.ts';
import { cardSpendingText } from '../../../locales/zh-CN/card-spending.ts';

const TagAutoRechargeDialog = lazy(() => import('../components/tag-auto-recharge-dialog.tsx'));

const columnLabels: Record<ChoosableColumn, string> = {
  holder: teamText.holder.column,
  tags: cardListText.columns.tags,
  product: cardListText.columns.product,
  currency: cardListText.columns.currency,
  balance: cardListText.columns.balance,
  spent: cardSpendingText.list.spentThisMonth,
  declines: cardSpendingText.list.declineRate,
  status: cardListText.columns.status,
  lastUsed: cardListText.columns.lastUsedAt,
  created: cardListText.columns.createdAt,
};

/**
 * /card, 我的卡片: the summary (cards per status, what they hold per currency), then the cards with
 * filters (several statuses, product, tag, holder) and a search (nickname, last four, BIN, tag), sorted
 * by the server by any figure's column, all kept in the address; the cards chosen are ticked ones or all
 * that match; the columns are the member's choice, kept in this browser. A card opens its page. Below
 * 768 px the table becomes a list of cards, sorted from the filter bar.
 */
export default function Card() {
  const narrow = useNarrowScreen();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // every filter, sort and page a step of the history: back returns to the list as it was
  const { location, update } = useListLocation(readCardLocation, writeCardLocation, { push: true });
  const { filters, sort, page, pageSize } = location;
  const list = useCards({ filters, sort, page, pageSize });
  const tags = useCardTags();
  const [tagRulesOpen, setTagRulesOpen] = useState(false);
  const summary = useCardSummary();
  const available = useOpenedAvailable();
  const fetching = useIsFetching(cardAnswers.all()) > 0;
  // 开卡 (cards.open) and the exports (cards.export) for the roles that may; the holder filter for those who see the team
  const may = useCans(['cards.open', 'cards.export', 'team.read', 'cards.manage', 'cards.fund', 'cards.assign']);
  const bulkActions = useBulkActions();
  // cards are ticked for an export or a bulk action, by the roles that may take one
  const ticking = may['cards.export'] || may['cards.manage'] || may['cards.fund'] || may['cards.assign'];
  const members = useTeamMembers();
  const holders = may['team.read'] ? members.data?.map((member) => ({ id: member.id, label: `${member.phone_masked}（${ROLE_LABELS[member.role]}）` })) : undefined;

  const total = list.data?.total ?? 0;
  const lastPage = usePageInRange(list, page, pageSize, update);

  // the cards chosen: ticked ones (kept across pages and filters), or all that match the filter
  const chosen = useCardSelection(filters, total);
  const items = list.data?.items ?? [];
  const selection = { ids: chosen.allMatching ? items.map((card) => card.id) : chosen.ticked, onChange: chosen.tick };
  // the bulk bar names the selection when the role may act on it; the line under it only when it may not
  const barShown = chosen.count > 0 && bulkActions.length > 0;
  const selectAll =
    !chosen.allMatching && total > chosen.count ? (
      <Button type="link" size="small" onClick={chosen.selectAllMatching} data-testid="select-all-matching">
        {cardListText.selection.selectAll(total)}
      </Button>
    ) : null;
  const [shown, setShown] = useState<ChoosableColumn[]>(readChosenColumns);
  const chooseColumns = (columns: ChoosableColumn[]) => {
    setShown(columns);
    saveChosenColumns(columns);
  };
  const exportTicked = () => {
    if (chosen.selection && 'filter' in chosen.selection) return exportFiltered();
    const state: ExportSelectionState = { exportIds: chosen.ticked.slice(0, EXPORT_IDS_MAX) };
    navigate(paths.bulkExport.getHref(), { state });
  };
  // the list's filters go along: the export page chooses the same cards
  const exportFiltered = () => {
    const query = writeCardLocation(new URLSearchParams(), { filters }).toString();
    navigate(query ? `${paths.bulkExport.getHref()}?${query}` : paths.bulkExport.getHref());
  };

  const openCard = () => navigate(paths.createCard.getHref());
  const openDetails = useCallback((card: CardItem) => navigate(paths.cardDetails.getHref(card.id)), [navigate]);
  const refresh = () => void queryClient.invalidateQueries(cardAnswers.all());

  const filtered = hasCardFilters(filters);
  const products = available.data?.products.map((product) => ({ id: product.id, name: product.name })) ?? [];

  return (
    <PageFrame
      title={cardListText.title}
      extra={
        <>
          <RefreshAction label={cardListText.refresh} fetching={fetching} onClick={refresh} />
          <PageAction icon={<SyncOutlined />} label={balanceRuleText.tagRules.open} onClick={() => setTagRulesOpen(true)} testId="open-tag-rules" />
          <PageAction icon={<BarChartOutlined />} label={cardListText.analysis} onClick={() => navigate(paths.spendingAnalysis.getHref())} testId="open-analysis" />
          {!may['cards.export'] ? null : chosen.count > 0 ? (
            <Button icon={<ExportOutlined />} onClick={exportTicked} data-testid="export-selected">
              {bulkExportText.exportSelected(chosen.count)}
            </Button>
          ) : (
            <PageAction icon={<ExportOutlined />} label={bulkExportText.bulkExport} onClick={exportFiltered} testId="bulk-export" />
          )}
          {may['cards.open'] ? (
            <Button type="primary" icon={<PlusOutlined />} onClick={openCard} data-testid="open-card">
              {cardListText.openCard}
            </Button>
          ) : null}
        </>
      }
    >
      {tagRulesOpen ? (
        <Suspense fallback={null}>
          <TagAutoRechargeDialog onClose={() => setTagRulesOpen(false)} />
        </Suspense>
      ) : null}
      <StaleDataNote queries={[list, summary]} />
      <MyBudget />
      <CardSummaryStrip summary={summary.data} failed={summary.isError} />

      <ListSection
        titleId="card-list-title"
        title={cardListText.listTitle}
        list={list}
        totalText={cardListText.total}
        totalTestId="card-total"
        filters={
          // with no card at all there is nothing to filter: the invitation to a first card stands alone
          filtered || total > 0 || list.isPending ? (
            <CardFilterBar
              filters={filters}
              products={products}
              holders={holders}
              tags={tags.data?.items}
              sort={narrow ? { value: sort, onChange: (next) => update({ sort: next }) } : undefined}
              onChange={(next) => update({ filters: next })}
            />
          ) : null
        }
        pager={{ page, lastPage, pageSize, narrow, onChange: update, testId: 'card-pager' }}
      >
        <BulkBar target={chosen.selection ? { ...chosen.selection, count: chosen.count } : null} onClear={chosen.clear} beside={selectAll} />
        <div className={styles.listArea}>
          {total > 0 && (!narrow || (may['cards.export'] && chosen.count > 0 && !barShown)) ? (
            <div className={styles.listTools}>
              {may['cards.export'] && chosen.count > 0 && !barShown ? (
                <span className={styles.selectionNote} data-testid="selection-note">
                  {chosen.allMatching ? cardListText.selection.allSelected(total) : cardListText.selection.ticked(chosen.count)}
                  {selectAll}
                  <Button type="link" size="small" onClick={chosen.clear} data-testid="selection-clear">
                    {cardListText.selection.clear}
                  </Button>
                </span>
              ) : (
                <span />
              )}
              {narrow ? null : (
              <Popover
                trigger="click"
                placement="bottomRight"
                title={cardListText.chooseColumnsHint}
                content={
                  <Checkbox.Group
                    className={styles.columnChoices}
                    value={shown}
                    onChange={(values) => chooseColumns(values as ChoosableColumn[])}
                    options={CHOOSABLE_COLUMNS.map((column) => ({ value: column, label: columnLabels[column] }))}
                    data-testid="column-choices"
                  />
                }
              >
                <Button size="small" icon={<SettingOutlined />} data-testid="choose-columns">
                  {cardListText.chooseColumns}
                </Button>
              </Popover>
              )}
            </div>
          ) : null}
          {list.isPending ? (
            <Skeleton active title={false} paragraph={{ rows: 6 }} data-testid="cards-loading" />
          ) : list.isError && !list.data ? (
            <Result
              status="warning"
              title={cardListText.loadFailed}
              subTitle={cardListText.loadFailedHint}
              extra={
                <Button type="primary" onClick={() => void list.refetch()}>
                  {cardListText.retry}
                </Button>
              }
            />
          ) : items.length === 0 ? (
            filtered ? (
              <Empty className={styles.empty} image={Empty.PRESENTED_IMAGE_SIMPLE} description={cardListText.emptyFiltered} data-testid="cards-empty">
                <Button onClick={() => update({ filters: {} })}>{cardListText.clearFilters}</Button>
              </Empty>
            ) : (
              <div className={styles.firstCard} data-testid="cards-empty">
                <span className={styles.firstCardIcon} aria-hidden="true">
                  <CreditCardOutlined />
                </span>
                <h3 className={styles.firstCardTitle}>{cardListText.empty}</h3>
                {may['cards.open'] ? (
                  <>
                    <p className={styles.firstCardHint}>{cardListText.emptyHint}</p>
                    <Button type="primary" size="large" icon={<PlusOutlined />} onClick={openCard}>
                      {cardListText.openCard}
                    </Button>
                  </>
                ) : null}
              </div>
            )
          ) : narrow ? (
            <CardList items={items} loading={list.isPlaceholderData} onOpen={openDetails} selection={ticking ? selection : undefined} />
          ) : (
            <CardTable
              items={items}
              loading={list.isPlaceholderData}
              onOpen={openDetails}
              selection={ticking ? selection : undefined}
              sort={sort}
              onSort={(next) => update({ sort: next })}
              shown={shown}
              tagsEditable={may['cards.manage']}
            />
          )}
        </div>
      </ListSection>
    </PageFrame>
  );
}
