import { PageContainer, type ProColumns, ProTable } from '@ant-design/pro-components';
import { type OperatorView, operatorRoleLabel, operatorStatusLabel } from '@portal/contract/console';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Result, Tag } from 'antd';
import dayjs from 'dayjs';
import { useOutletContext } from 'react-router';
import { operatorsQuery } from '../../lib/queries.ts';
import { text } from '../../locales/zh-CN.ts';

const t = text.operators;

const columns: ProColumns<OperatorView>[] = [
  { title: t.email, dataIndex: 'email', copyable: true },
  { title: t.name, dataIndex: 'name' },
  { title: t.role, dataIndex: 'role', render: (_, row) => <Tag color="blue">{operatorRoleLabel[row.role]}</Tag> },
  { title: t.status, dataIndex: 'status', render: (_, row) => <Tag color={row.status === 'ACTIVE' ? 'green' : 'default'}>{operatorStatusLabel[row.status]}</Tag> },
  { title: t.totp, dataIndex: 'totp_enrolled', render: (_, row) => (row.totp_enrolled ? t.enrolled : <Tag color="orange">{t.notEnrolled}</Tag>) },
  { title: t.lastSignIn, dataIndex: 'last_sign_in_at', render: (_, row) => (row.last_sign_in_at ? dayjs(row.last_sign_in_at).format('YYYY-MM-DD HH:mm') : '—') },
  { title: t.createdAt, dataIndex: 'created_at', render: (_, row) => dayjs(row.created_at).format('YYYY-MM-DD HH:mm') },
];

/** The merchant's operators (ADMIN): made, disabled and reset on the command line for now. */
export function OperatorsPage() {
  const me = useOutletContext<{ actions: string[] }>();
  const allowed = me.actions.includes('operators.read');
  const operators = useQuery({ ...operatorsQuery, enabled: allowed });
  if (!allowed) return <Result status="403" title={t.denied} />;
  return (
    <PageContainer title={t.title}>
      <Alert type="info" showIcon title={t.cliHint} style={{ marginBottom: 16 }} />
      <ProTable<OperatorView>
        rowKey="id"
        columns={columns}
        cardBordered
        search={false}
        scroll={{ x: 800 }}
        pagination={false}
        loading={operators.isPending}
        dataSource={operators.data?.items ?? []}
        options={{ density: false, setting: false, reload: () => operators.refetch() }}
        locale={{ emptyText: operators.isError ? operators.error.message : text.common.empty }}
        toolBarRender={() => (operators.isError ? [<Button key="retry" onClick={() => operators.refetch()}>{text.common.retry}</Button>] : [])}
      />
    </PageContainer>
  );
}
