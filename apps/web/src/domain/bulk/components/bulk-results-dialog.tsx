import type { BulkActionAnswer } from '@portal/contract/card-bulk';
import { useQueries } from '@tanstack/react-query';
import { Modal, Switch, Table, Tag } from 'antd';
import { useState } from 'react';
import { call } from '../../../lib/api-client.ts';
import * as cardCalls from '../../../lib/generated/cards-calls.ts';
import { markShownInPlace } from '../../../lib/http.ts';
import { cardKeys } from '../../cards/api/card-keys.ts';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths.ts';
import { cardBulkText } from '../../../locales/zh-CN/card-bulk.ts';

const text = cardBulkText.results;
/** Cards named by their nickname and last four: at most this many at once (the failed ones first). */
const NAMED = 50;
const STATUS_TAG = {
  SUCCEEDED: <Tag color="success">{text.succeeded}</Tag>,
  FAILED: <Tag color="error">{text.failed}</Tag>,
  PENDING: <Tag>{text.pending}</Tag>,
};

/** Each card's result of a bulk action, the failed ones first, with why. */
export default function BulkResultsDialog({ bulk, onClose }: { bulk: BulkActionAnswer; onClose: () => void }) {
  const [onlyFailed, setOnlyFailed] = useState(bulk.failed > 0);
  const items = [...bulk.items]
    .filter((item) => !onlyFailed || item.status === 'FAILED')
    .sort((a, b) => Number(b.status === 'FAILED') - Number(a.status === 'FAILED'));
  // the cards as the list names them; one no longer readable (given to another member) keeps its id
  const named = useQueries({
    queries: items.slice(0, NAMED).map((item) => ({
      queryKey: cardKeys.detail(item.card_id),
      queryFn: () =>
        call(cardCalls.detail, { params: { id: item.card_id } }).catch((error: unknown) => {
          markShownInPlace(error);
          throw error;
        }),
      retry: false,
    })),
  });
  const nameOf = new Map(named.flatMap((query) => (query.data ? [[query.data.id, query.data.last4 ? `${query.data.nickname}（****${query.data.last4}）` : query.data.nickname]] : [])));
  return (
    <Modal open title={text.title(bulk.action)} onCancel={onClose} footer={null} width={640} data-testid="bulk-results">
      <p data-testid="bulk-results-summary">{text.summary(bulk.succeeded, bulk.failed, bulk.total)}</p>
      <p>
        <Switch size="small" checked={onlyFailed} onChange={setOnlyFailed} /> {text.onlyFailed}
      </p>
      <Table
        size="small"
        rowKey="card_id"
        dataSource={items}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        columns={[
          {
            title: text.card,
            dataIndex: 'card_id',
            render: (id: string) => (
              <Link to={paths.cardDetails.getHref(id)} onClick={onClose}>
                {nameOf.get(id) ?? id.slice(0, 8)}
              </Link>
            ),
          },
          { title: text.status, dataIndex: 'status', width: 80, render: (status: keyof typeof STATUS_TAG) => STATUS_TAG[status] },
          { title: text.reason, dataIndex: 'reason', render: (reason: string | null) => reason ?? '—' },
        ]}
      />
    </Modal>
  );
}
