import type { BatchExportStatus, ExportStatus } from '@portal/contract/card-batches';
import { DownloadOutlined, FileExcelOutlined } from '@ant-design/icons';
import { Button, Empty, Result, Skeleton, Table, type TableColumnsType, Tag, Tooltip } from 'antd';
import type { HTMLAttributes } from 'react';
import { formatDateTime } from '../../../lib/date-time.ts';
import { busy } from '../../../lib/busy.ts';
import { cardCommonText } from '../../../locales/zh-CN/card-common.ts';
import { bulkExportText } from '../../../locales/zh-CN/bulk-export.ts';
import { fileSizeText } from '../lib/file-size.ts';
import styles from './export-list.module.css';
import { primaryControl } from '../../../lib/primary-control.ts';

const text = bulkExportText.recent;

const STATUS_COLOR: Record<ExportStatus, string> = {
  PENDING: 'default',
  RUNNING: 'processing',
  DONE: 'success',
  FAILED: 'error',
  EXPIRED: 'default',
};

export function ExportStatusTag({ status }: { status: ExportStatus }) {
  return (
    <Tag color={STATUS_COLOR[status]} className={styles.tag} data-testid="export-status" data-status={status}>
      {bulkExportText.status[status]}
    </Tag>
  );
}

interface ExportListProps {
  items: BatchExportStatus[] | undefined;
  loading: boolean;
  failed: boolean;
  narrow: boolean;
  /** the export being downloaded, if any */
  downloading: string | null;
  onRetry: () => void;
  onDownload: (item: BatchExportStatus) => void;
}

const none = cardCommonText.none;

/** A written file with full numbers that another session of the account made: listed here, taken only there. */
export const isElsewhere = (item: BatchExportStatus) => item.status === 'DONE' && !item.downloadable;

/** The account's recent exports: state, size, created, expires, and a download while the file is kept. */
export function ExportList({ items, loading, failed, narrow, downloading, onRetry, onDownload }: ExportListProps) {
  if (loading) return <Skeleton active title={false} paragraph={{ rows: 4 }} data-testid="exports-loading" />;
  if (failed && !items) {
    return (
      <Result
        status="warning"
        title={text.loadFailed}
        extra={
          <Button type="primary" onClick={onRetry}>
            {text.retry}
          </Button>
        }
      />
    );
  }
  if (!items || items.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={text.empty} data-testid="exports-empty" />;

  // the server says whether this session may take the file: one with full numbers only where it was made
  const download = (item: BatchExportStatus) => {
    const elsewhere = isElsewhere(item);
    const button = (
      <Button
        size="small"
        icon={<DownloadOutlined />}
        disabled={item.status !== 'DONE' || !item.downloadable}
        loading={busy(downloading === item.export_id)}
        onClick={() => onDownload(item)}
        aria-label={`${text.download} ${item.file_name}${elsewhere ? `（${text.otherSession}）` : ''}`}
        data-testid="export-download"
      >
        {text.download}
      </Button>
    );
    // a disabled button shows no tooltip of its own: the span around it does (on a phone as wide as the
    // row, like the download it stands for)
    return elsewhere ? (
      <Tooltip title={text.otherSession}>
        <span data-testid="export-elsewhere" className={narrow ? styles.wide : undefined}>
          {button}
        </span>
      </Tooltip>
    ) : (
      button
    );
  };

  const fileCell = (item: BatchExportStatus) => (
    <span className={styles.file}>
      <FileExcelOutlined className={styles.fileIcon} aria-hidden />
      <span className={styles.fileText}>
        <span className={styles.fileName} data-testid="export-file-name">
          {item.file_name}
        </span>
        <span className={styles.fileMeta}>
          {text.rows(item.total)}
          {item.include_sensitive ? <Tag color="warning" className={styles.tag}>{text.sensitive}</Tag> : null}
        </span>
      </span>
    </span>
  );

  if (narrow) {
    return (
      <ul className={styles.list} data-testid="export-list">
        {items.map((item) => (
          <li key={item.export_id} className={styles.item} data-testid="export-row" {...primaryControl}>
            <div className={styles.itemHead}>
              {fileCell(item)}
              <ExportStatusTag status={item.status} />
            </div>
            <dl className={styles.facts}>
              <div>
                <dt>{text.size}</dt>
                <dd>{fileSizeText(item.size) ?? none}</dd>
              </div>
              <div>
                <dt>{text.createdAt}</dt>
                <dd>{formatDateTime(item.created_at)}</dd>
              </div>
              <div>
                <dt>{text.expiresAt}</dt>
                <dd>{item.expires_at ? formatDateTime(item.expires_at) : none}</dd>
              </div>
            </dl>
            {download(item)}
            {/* a phone shows no tooltip: the reason the button is disabled is written under it */}
            {isElsewhere(item) ? (
              <p className={styles.elsewhere} data-testid="export-elsewhere-hint">
                {text.otherSession}
              </p>
            ) : null}
          </li>
        ))}
      </ul>
    );
  }

  const columns: TableColumnsType<BatchExportStatus> = [
    { key: 'file', title: text.file, render: (_: unknown, item) => fileCell(item) },
    { key: 'status', title: text.state, width: 100, render: (_: unknown, item) => <ExportStatusTag status={item.status} /> },
    { key: 'size', title: text.size, width: 100, align: 'right', render: (_: unknown, item) => fileSizeText(item.size) ?? none },
    { key: 'created', title: text.createdAt, width: 160, render: (_: unknown, item) => formatDateTime(item.created_at) },
    { key: 'expires', title: text.expiresAt, width: 160, render: (_: unknown, item) => (item.expires_at ? formatDateTime(item.expires_at) : none) },
    { key: 'action', title: text.action, width: 110, align: 'center', render: (_: unknown, item) => download(item) },
  ];
  return (
    <Table<BatchExportStatus>
      rowKey="export_id"
      size="middle"
      columns={columns}
      dataSource={items}
      pagination={false}
      tableLayout="fixed"
      onRow={() => ({ 'data-testid': 'export-row', ...primaryControl }) as HTMLAttributes<HTMLElement>}
      data-testid="export-list"
    />
  );
}
