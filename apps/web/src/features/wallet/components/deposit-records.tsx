import type { DepositItem } from '@portal/contract/funding';
import { Alert, Button, Empty, Image, List, Pagination, Skeleton, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { formatDateTime } from '../../../lib/date-time.ts';
import { depositText as text } from '../../../locales/zh-CN/deposit.ts';
import { usdtText } from '../../../locales/zh-CN/usdt.ts';
import { useDeposits } from '../api/get-deposits.ts';
import { getReceipt } from '../api/upload-receipt.ts';
import styles from './deposit-dialog.module.css';

const STATUS_COLORS = { PENDING: 'processing', CREDITED: 'success', REJECTED: 'error' } as const;
const PAGE_SIZE = 10;

/** A receipt shown from its bytes (the call needs the session's token, which an <img src> cannot send). */
function ReceiptLink({ id }: { id: string }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => () => {
    if (url) URL.revokeObjectURL(url);
  }, [url]);
  const open = async () => setUrl(URL.createObjectURL(await getReceipt(id)));
  return (
    <>
      <Button type="link" size="small" onClick={() => void open()} data-testid="deposit-view-receipt">
        {text.viewReceipt}
      </Button>
      {url ? <Image src={url} alt={text.viewReceipt} className={styles.hidden} preview={{ visible: true, onVisibleChange: (visible) => !visible && setUrl(null) }} /> : null}
    </>
  );
}

/** A USDT deposit: 确认中 (n/20) until credited, then 已到账. */
function UsdtRecord({ item }: { item: DepositItem }) {
  const required = item.confirmations_required ?? 20;
  const label = item.status === 'PENDING' ? usdtText.confirming(Math.min(item.confirmations ?? 0, required), required) : item.status === 'CREDITED' ? usdtText.arrived : usdtText.rejected;
  return (
    <List.Item data-testid="deposit-record">
      <List.Item.Meta
        title={
          <span className={styles.recordTitle}>
            <span className={styles.amount} data-testid="deposit-usdt">
              {item.amount} USDT
            </span>
            <Tag color={STATUS_COLORS[item.status]} data-testid="deposit-status">
              {label}
            </Tag>
          </span>
        }
        description={
          <span className={styles.recordLines}>
            <span>
              {usdtText.kind} · {formatDateTime(item.transferred_at)}
            </span>
            {item.conversion ? (
              <span data-testid="deposit-conversion">
                {usdtText.conversion(item.conversion.rate, item.conversion.value, item.conversion.fee_percent, item.conversion.fee)}
              </span>
            ) : null}
            {item.status === 'CREDITED' && item.credited_amount ? <span>{usdtText.credited(item.credited_amount)}</span> : null}
            {item.status === 'REJECTED' && item.reason ? <Typography.Text type="danger">{item.reason}</Typography.Text> : null}
          </span>
        }
      />
    </List.Item>
  );
}

function Record({ item }: { item: DepositItem }) {
  if (item.kind === 'USDT') return <UsdtRecord item={item} />;
  return (
    <List.Item data-testid="deposit-record" extra={item.receipt_file_id ? <ReceiptLink id={item.receipt_file_id} /> : null}>
      <List.Item.Meta
        title={
          <span className={styles.recordTitle}>
            <span className={styles.amount}>
              {item.amount} {item.currency}
            </span>
            <Tag color={STATUS_COLORS[item.status]} data-testid="deposit-status">
              {text.status[item.status]}
            </Tag>
          </span>
        }
        description={
          <span className={styles.recordLines}>
            <span>
              {item.source === 'STATEMENT' ? text.fromStatement : item.payer_name} · {formatDateTime(item.transferred_at)}
            </span>
            {item.status === 'CREDITED' && item.credited_amount ? <span>{text.credited(item.credited_amount, item.currency)}</span> : null}
            {item.status === 'REJECTED' && item.reason ? <Typography.Text type="danger">{text.rejectedReason(item.reason)}</Typography.Text> : null}
          </span>
        }
      />
    </List.Item>
  );
}

/** 充值记录: the account's notices and credited transfers with their state, newest first. */
export function DepositRecords() {
  const [page, setPage] = useState(1);
  const records = useDeposits(page, PAGE_SIZE);
  if (records.isError && !records.data) {
    return <Alert type="error" showIcon message={text.recordsFailed} action={<Button size="small" onClick={() => void records.refetch()}>{text.retry}</Button>} />;
  }
  if (!records.data) return <Skeleton active paragraph={{ rows: 5 }} />;
  if (records.data.total === 0) return <Empty description={text.recordsEmpty} data-testid="deposit-records-empty" />;
  return (
    <>
      <List dataSource={records.data.items} rowKey="id" renderItem={(item) => <Record item={item} />} data-testid="deposit-records" />
      {records.data.total > PAGE_SIZE ? (
        <Pagination className={styles.pager} current={page} pageSize={PAGE_SIZE} total={records.data.total} onChange={setPage} size="small" showSizeChanger={false} />
      ) : null}
    </>
  );
}
