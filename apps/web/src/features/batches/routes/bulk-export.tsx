import { DEFAULT_CARD_SORT } from '@portal/contract/card-list';
import {
  type BatchExportRequest,
  DEFAULT_EXPORT_COLUMNS,
  EXPORT_COLUMN_NAMES,
  EXPORT_COLUMNS,
  type ExportColumn,
  exportsSensitive,
} from '@portal/contract/card-batches';
import type { SendType } from '@portal/contract/enums';
import { DownloadOutlined, ExportOutlined } from '@ant-design/icons';
import { Alert, Button, Checkbox, Progress, Segmented, Skeleton, Switch, Tag } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { PageFrame } from '../../../components/page-frame.tsx';
import { busy } from '../../../lib/busy.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { paths } from '../../../lib/paths.ts';
import { useNarrowScreen } from '../../../lib/use-narrow-screen.ts';
import { bulkExportText } from '../../../locales/zh-CN/bulk-export.ts';
import { useCreateBatchExport } from '../api/create-batch-export.ts';
import { useDownloadBatchExport } from '../api/download-batch-export.ts';
import { isExportActive, useBatchExportStatus } from '../api/get-batch-export-status.ts';
import { useBatchExports } from '../api/get-batch-exports.ts';
import { useCards } from '../../../domain/cards/api/get-cards.ts';
import { useCan } from '../../../domain/team/lib/use-can.ts';
import { useOpenedAvailable } from '../../../domain/cards/api/get-opened-available.ts';
import { CardFilterBar } from '../../../domain/cards/components/card-filter-bar.tsx';
import { ExportCodeDialog } from '../components/export-code-dialog.tsx';
import { ExportList, ExportStatusTag, isElsewhere } from '../components/export-list.tsx';
import { type TradePasswordPart, useTradePasswordConfirmation } from '../../../domain/trade-password/components/trade-password-confirm.tsx';
import { type CardFilters, cardFilterOf, readCardLocation, writeCardLocation } from '../../../domain/cards/lib/card-filters.ts';
import { isExportSelectionState } from '../../../domain/cards/lib/export-selection.ts';
import { fileSizeText } from '../lib/file-size.ts';
import styles from './bulk-export.module.css';

const text = bulkExportText;
/** The export being followed, kept in the address so a reload keeps following it. */
const EXPORT_PARAM = 'export';

type Source = 'filters' | 'ids';

/**
 * /bulk-export, 批量导出: the cards by the card list's filters (status, product, keyword, in the
 * address) or as ticked on /card; the columns with their 中文 headers; 包含完整卡号 after a fresh access
 * code. The export's progress follows (EXPORT_PROGRESS events and polling), then 下载; below, the
 * account's recent exports.
 */
export default function BulkExport() {
  const navigate = useNavigate();
  const location = useLocation();
  const narrow = useNarrowScreen();
  const [search, setSearch] = useSearchParams();
  const { filters } = readCardLocation(search);
  const currentId = search.get(EXPORT_PARAM);

  // the cards ticked on /card arrive once, in navigation state; a reload keeps them for this tab
  const [ids] = useState<string[] | null>(() => (isExportSelectionState(location.state) ? location.state.exportIds : null));
  const [source, setSource] = useState<Source>(ids ? 'ids' : 'filters');
  const [columns, setColumns] = useState<ExportColumn[]>(DEFAULT_EXPORT_COLUMNS);
  const [sensitive, setSensitive] = useState(false);
  // full numbers only for the roles that may reveal a card (the server refuses the others)
  const mayReveal = useCan('cards.reveal');
  const [askingCode, setAskingCode] = useState(false);

  const available = useOpenedAvailable();
  const products = available.data?.products.map((product) => ({ id: product.id, name: product.name })) ?? [];
  const matching = useCards({ filters, sort: DEFAULT_CARD_SORT, page: 1, pageSize: 10 });
  const matchingTotal = matching.data?.total;
  const creating = useCreateBatchExport();
  // full numbers leave with the file: the trade password, once one is set
  const trade = useTradePasswordConfirmation({ needed: exportsSensitive({ include_sensitive: sensitive, columns }) });
  const current = useBatchExportStatus(currentId);
  const recent = useBatchExports();
  const downloading = useDownloadBatchExport();
  const [downloadingId, setDownloadingId] = useState<string | null>(null);

  const setFilters = (next: CardFilters) =>
    setSearch((previous) => writeCardLocation(previous, { filters: next }), { replace: true, preventScrollReset: true });
  const follow = useCallback(
    (id: string | null) =>
      setSearch(
        (previous) => {
          const next = new URLSearchParams(previous);
          if (id) next.set(EXPORT_PARAM, id);
          else next.delete(EXPORT_PARAM);
          return next;
        },
        { replace: true, preventScrollReset: true, state: location.state },
      ),
    [setSearch, location.state],
  );

  const nothingChosen = source === 'filters' ? matchingTotal === 0 : !ids;
  const noColumns = columns.length === 0;

  const bodyOf = (code?: { captcha: string; send_type: SendType } & TradePasswordPart): BatchExportRequest => ({
    filters: source === 'filters' ? cardFilterOf(filters) : {},
    ...(source === 'ids' && ids ? { ids } : {}),
    columns: EXPORT_COLUMN_NAMES.filter((name) => columns.includes(name)),
    ...(sensitive ? { include_sensitive: true } : {}),
    ...(code ? { captcha: code.captcha, send_type: code.send_type } : {}),
    ...(code?.trx_password ? { trx_password: code.trx_password } : {}),
  });

  const start = async (code?: { captcha: string; send_type: SendType } & TradePasswordPart) => {
    const answer = await creating.mutateAsync(bodyOf(code));
    setAskingCode(false);
    follow(answer.export_id);
  };

  const submit = () => {
    if (nothingChosen || noColumns || creating.isPending) return;
    if (sensitive) {
      setAskingCode(true);
      return;
    }
    start().catch(() => {}); // the HTTP module said why
  };

  const download = async (id: string) => {
    setDownloadingId(id);
    try {
      const name = await downloading.mutateAsync(id);
      notifySuccess(text.downloaded(name));
    } catch {
      // the HTTP module said why (expired, not ready, offline)
    } finally {
      setDownloadingId(null);
    }
  };

  // an export that ended moves the list below
  const currentStatus = current.data?.status;
  useEffect(() => {
    if (currentStatus && !isExportActive({ status: currentStatus })) void recent.refetch();
  }, [currentStatus, recent.refetch]);

  const toggleColumn = (name: ExportColumn, on: boolean) =>
    setColumns((previous) => (on ? EXPORT_COLUMN_NAMES.filter((column) => column === name || previous.includes(column)) : previous.filter((column) => column !== name)));

  return (
    <PageFrame title={text.title} onBack={() => navigate(paths.card.getHref())}>
      <p className={styles.intro}>{text.intro}</p>
      <div className={styles.layout}>
        <div className={styles.main}>
          <section className={styles.section} aria-labelledby="export-source">
            <h2 id="export-source" className={styles.sectionTitle}>
              {text.sourceTitle}
            </h2>
            {ids ? (
              <Segmented<Source>
                className={styles.source}
                value={source}
                onChange={setSource}
                options={[
                  { value: 'ids', label: text.source.ids(ids.length) },
                  { value: 'filters', label: text.source.filters },
                ]}
              />
            ) : null}
            {source === 'ids' && ids ? (
              <p className={styles.hint} data-testid="export-ids">
                {text.idsHint(ids.length)}
              </p>
            ) : (
              <>
                <CardFilterBar filters={filters} products={products} onChange={setFilters} />
                <p className={styles.hint} role="status" data-testid="export-matching">
                  {matching.isPending ? text.matchingLoading : matchingTotal === 0 ? text.noneMatching : text.matching(matchingTotal ?? 0)}
                </p>
              </>
            )}
          </section>

          <section className={styles.section} aria-labelledby="export-columns">
            <div className={styles.sectionHead}>
              <h2 id="export-columns" className={styles.sectionTitle}>
                {text.columnsTitle}
              </h2>
              <span className={styles.headActions}>
                <Button type="link" size="small" onClick={() => setColumns(EXPORT_COLUMN_NAMES)}>
                  {text.allColumns}
                </Button>
                <Button type="link" size="small" onClick={() => setColumns(DEFAULT_EXPORT_COLUMNS)}>
                  {text.defaultColumns}
                </Button>
              </span>
            </div>
            <div className={styles.columns} data-testid="export-columns">
              {EXPORT_COLUMN_NAMES.map((name) => (
                <Checkbox key={name} checked={columns.includes(name)} onChange={(event) => toggleColumn(name, event.target.checked)} className={styles.column}>
                  {EXPORT_COLUMNS[name].header}
                  {EXPORT_COLUMNS[name].sensitive && !sensitive ? <Tag className={styles.masked}>{text.masked}</Tag> : null}
                </Checkbox>
              ))}
            </div>
            {noColumns ? (
              <p className={styles.error} role="alert">
                {text.columnsRequired}
              </p>
            ) : null}
            {mayReveal ? (
            <div className={styles.sensitive}>
              <Switch
                id="export-sensitive"
                checked={sensitive}
                onChange={setSensitive}
                aria-labelledby="export-sensitive-title"
                aria-describedby="export-sensitive-hint"
                data-testid="export-sensitive"
              />
              <span>
                <label id="export-sensitive-title" htmlFor="export-sensitive" className={styles.sensitiveTitle}>
                  {text.sensitive}
                </label>
                <span id="export-sensitive-hint" className={styles.hint}>
                  {text.sensitiveHint}
                </span>
              </span>
            </div>
            ) : null}
            <Button
              type="primary"
              size="large"
              icon={<ExportOutlined />}
              className={styles.submit}
              disabled={nothingChosen || noColumns}
              loading={busy(creating.isPending && !askingCode)}
              onClick={submit}
              data-testid="export-submit"
            >
              {text.submit}
            </Button>
          </section>
        </div>

        {currentId ? (
          <aside className={styles.current} aria-labelledby="export-current" data-testid="export-current">
            <h2 id="export-current" className={styles.sectionTitle}>
              {text.current.title}
            </h2>
            {current.isPending ? (
              <Skeleton active title={false} paragraph={{ rows: 3 }} />
            ) : current.data ? (
              <>
                <div className={styles.currentHead}>
                  <span className={styles.fileName}>{current.data.file_name}</span>
                  <ExportStatusTag status={current.data.status} />
                </div>
                <Progress
                  percent={current.data.total === 0 ? (isExportActive(current.data) ? 0 : 100) : Math.floor((current.data.done * 100) / current.data.total)}
                  status={current.data.status === 'FAILED' ? 'exception' : isExportActive(current.data) ? 'active' : 'success'}
                />
                <p className={styles.hint} data-testid="export-rows">
                  {text.current.rows(current.data.done, current.data.total)}
                  {current.data.size !== null ? ` · ${fileSizeText(current.data.size)}` : ''}
                </p>
                {current.data.status === 'FAILED' ? <Alert type="error" showIcon title={text.current.failed} description={current.data.error ?? undefined} /> : null}
                {isElsewhere(current.data) ? <Alert type="info" showIcon title={text.recent.otherSession} data-testid="export-current-elsewhere" /> : null}
                {current.data.status === 'DONE' && current.data.downloadable ? (
                  <Button
                    type="primary"
                    block
                    icon={<DownloadOutlined />}
                    loading={busy(downloadingId === current.data.export_id)}
                    onClick={() => void download(current.data?.export_id as string)}
                    data-testid="export-current-download"
                  >
                    {text.current.download}
                  </Button>
                ) : null}
              </>
            ) : (
              <Alert type="warning" showIcon title={text.recent.loadFailed} />
            )}
          </aside>
        ) : null}
      </div>

      <section className={styles.section} aria-labelledby="export-recent">
        <h2 id="export-recent" className={styles.sectionTitle}>
          {text.recent.title}
        </h2>
        <ExportList
          items={recent.data?.items}
          loading={recent.isPending}
          failed={recent.isError}
          narrow={narrow}
          downloading={downloadingId}
          onRetry={() => void recent.refetch()}
          onDownload={(item) => void download(item.export_id)}
        />
      </section>

      <ExportCodeDialog open={askingCode} pending={creating.isPending} trade={trade} onSubmit={(code) => start(code)} onCancel={() => setAskingCode(false)} />
    </PageFrame>
  );
}
