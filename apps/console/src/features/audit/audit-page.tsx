import { DownloadOutlined } from '@ant-design/icons';
import { PageContainer, type ProColumns } from '@ant-design/pro-components';
import { PagedTable } from '../../components/paged-table.tsx';
import { AUDIT_ACTIONS, type AuditItem, auditActionLabel, auditChannelLabel } from '@portal/contract/console';
import { App, Button, Typography } from 'antd';
import dayjs from 'dayjs';
import { useRef, useState } from 'react';
import { callConsole, downloadConsole } from '../../lib/http.ts';
import { text } from '../../locales/zh-CN.ts';

const t = text.audit;

type Filters = { operator_id?: string; action?: string; date?: [string, string] };

const changeText = (value: Record<string, unknown> | null) => (value ? JSON.stringify(value) : '—');

const columns: ProColumns<AuditItem>[] = [
  { title: t.at, dataIndex: 'at', valueType: 'dateTime', width: 170, search: false, render: (_, row) => dayjs(row.at).format('YYYY-MM-DD HH:mm:ss') },
  { title: t.date, dataIndex: 'date', valueType: 'dateRange', hideInTable: true },
  { title: t.channel, dataIndex: 'channel', width: 80, search: false, render: (_, row) => auditChannelLabel[row.channel] },
  {
    title: t.actor,
    dataIndex: 'operator_id',
    ellipsis: true,
    valueType: 'select',
    fieldProps: { showSearch: true, optionFilterProp: 'label', placeholder: t.actorPlaceholder },
    request: async () => (await callConsole('auditOperators')).items.map((item) => ({ value: item.id, label: `${item.name}（${item.email}）` })),
    render: (_, row) => row.actor,
  },
  {
    title: t.action,
    dataIndex: 'action',
    valueType: 'select',
    valueEnum: Object.fromEntries(AUDIT_ACTIONS.map((action) => [action, { text: auditActionLabel[action] }])),
  },
  { title: t.target, dataIndex: 'target', ellipsis: true, search: false, render: (_, row) => row.target ?? '—' },
  {
    title: t.change,
    dataIndex: 'after',
    search: false,
    render: (_, row) => (
      <Typography.Text type="secondary" className="audit-change" ellipsis={{ tooltip: `${t.before}：${changeText(row.before)}\n${t.after}：${changeText(row.after)}` }}>
        {row.before ? `${changeText(row.before)} → ` : ''}
        {changeText(row.after)}
      </Typography.Text>
    ),
  },
  { title: t.ip, dataIndex: 'ip', width: 130, search: false },
];

/** Query of the table's filters as the audit call takes them. */
const queryOf = (filters: Filters) => ({
  operator_id: filters.operator_id || undefined,
  action: (filters.action as AuditItem['action'] | undefined) || undefined,
  from: filters.date?.[0] ? dayjs(filters.date[0]).format('YYYY-MM-DD') : undefined,
  to: filters.date?.[1] ? dayjs(filters.date[1]).format('YYYY-MM-DD') : undefined,
});

/** The audit log of every operator action, filtered and paged by ProTable, exportable with the same filters. */
export function AuditPage() {
  const { message } = App.useApp();
  const filters = useRef<Filters>({});
  const [exporting, setExporting] = useState(false);
  const exportCsv = async () => {
    setExporting(true);
    try {
      await downloadConsole('exportAudit', queryOf(filters.current));
      message.success(t.exported);
    } catch (error) {
      message.error(error instanceof Error ? error.message : text.common.unexpected);
    } finally {
      setExporting(false);
    }
  };
  return (
    <PageContainer title={t.title}>
      <PagedTable<AuditItem, Filters>
        columns={columns}
        scroll={{ x: 960 }}
        request={async (params) => {
          const { current, pageSize, ...rest } = params as Filters & { current?: number; pageSize?: number };
          filters.current = rest;
          const page = await callConsole('audit', { query: { ...queryOf(rest), page: current ?? 1, page_size: pageSize ?? 20 } });
          return { data: page.items, total: page.total, success: true };
        }}
        toolBarRender={() => [
          <Button key="export" icon={<DownloadOutlined />} loading={exporting} onClick={exportCsv}>
            {t.export}
          </Button>,
        ]}
      />
    </PageContainer>
  );
}
