import { PlusOutlined } from '@ant-design/icons';
import { PageContainer, type ProColumns, ProFormSelect, ProFormText, ProTable } from '@ant-design/pro-components';
import { OPERATOR_ROLES, type OperatorPasswordAnswer, type OperatorView, operatorRoleLabel, operatorStatusLabel } from '@portal/contract/console';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Modal, Result, Space, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useOutletContext } from 'react-router';
import { CodeForm } from '../../components/code-form.tsx';
import { TotpField } from '../../components/totp-field.tsx';
import { callConsole } from '../../lib/http.ts';
import { consoleKeys, operatorsQuery } from '../../lib/queries.ts';
import type { ConsoleMe } from '@portal/contract/console';
import { text } from '../../locales/zh-CN.ts';

const t = text.operators;
const fill = (template: string, email: string) => template.replace('{email}', email);

type CreateValues = { email: string; name?: string; role: OperatorView['role']; totp: string };
type CodeValues = { totp: string };

/** The merchant's operators (ADMIN): added, disabled and reset here with the ADMIN's own code, or on the command line. */
export function OperatorsPage() {
  const me = useOutletContext<ConsoleMe>();
  const allowed = me.actions.includes('operators.read');
  const mayWrite = me.actions.includes('operators.write');
  const operators = useQuery({ ...operatorsQuery, enabled: allowed });
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  const [issued, setIssued] = useState<OperatorPasswordAnswer | null>(null);
  if (!allowed) return <Result status="403" title={t.denied} />;

  const changed = () => queryClient.invalidateQueries({ queryKey: consoleKeys.operators });
  const self = (row: OperatorView) => row.id === me.operator.id;
  const columns: ProColumns<OperatorView>[] = [
    { title: t.email, dataIndex: 'email', copyable: true, render: (_, row) => `${row.email}${self(row) ? t.you : ''}` },
    { title: t.name, dataIndex: 'name' },
    { title: t.role, dataIndex: 'role', render: (_, row) => <Tag color="blue">{operatorRoleLabel[row.role]}</Tag> },
    { title: t.status, dataIndex: 'status', render: (_, row) => <Tag color={row.status === 'ACTIVE' ? 'green' : 'default'}>{operatorStatusLabel[row.status]}</Tag> },
    { title: t.totp, dataIndex: 'totp_enrolled', render: (_, row) => (row.totp_enrolled ? t.enrolled : <Tag color="orange">{t.notEnrolled}</Tag>) },
    { title: t.lastSignIn, dataIndex: 'last_sign_in_at', render: (_, row) => (row.last_sign_in_at ? dayjs(row.last_sign_in_at).format('YYYY-MM-DD HH:mm') : '—') },
    { title: t.createdAt, dataIndex: 'created_at', render: (_, row) => dayjs(row.created_at).format('YYYY-MM-DD HH:mm') },
    {
      title: t.actions,
      key: 'actions',
      hideInTable: !mayWrite,
      render: (_, row) =>
        self(row) ? (
          '—'
        ) : (
          <Space size={0} wrap>
            {row.status === 'ACTIVE' ? (
              <CodeForm<CodeValues>
                title={fill(t.disableTitle, row.email)}
                testId="operator-disable"
                trigger={
                  <Button type="link" danger size="small" data-testid={`disable-${row.email}`}>
                    {t.disable}
                  </Button>
                }
                onSubmit={async ({ totp }) => {
                  await callConsole('disableOperator', { params: { id: row.id }, body: { totp } });
                  message.success(fill(t.disabled, row.email));
                  await changed();
                }}
              >
                <Alert type="warning" showIcon title={t.disableHint} style={{ marginBottom: 16 }} />
                <TotpField />
              </CodeForm>
            ) : null}
            <CodeForm<CodeValues>
              title={fill(t.resetTitle, row.email)}
              testId="operator-reset"
              trigger={
                <Button type="link" size="small" data-testid={`reset-${row.email}`}>
                  {t.reset}
                </Button>
              }
              onSubmit={async ({ totp }) => {
                setIssued(await callConsole('resetOperator', { params: { id: row.id }, body: { totp } }));
                await changed();
              }}
            >
              <Alert type="warning" showIcon title={t.resetHint} style={{ marginBottom: 16 }} />
              <TotpField />
            </CodeForm>
          </Space>
        ),
    },
  ];

  return (
    <PageContainer title={t.title}>
      <Alert type="info" showIcon title={t.hint} style={{ marginBottom: 16 }} />
      <ProTable<OperatorView>
        rowKey="id"
        columns={columns}
        cardBordered
        search={false}
        scroll={{ x: 900 }}
        pagination={false}
        loading={operators.isPending}
        dataSource={operators.data?.items ?? []}
        options={{ density: false, setting: false, reload: () => operators.refetch() }}
        locale={{ emptyText: operators.isError ? operators.error.message : text.common.empty }}
        toolBarRender={() => [
          ...(operators.isError ? [<Button key="retry" onClick={() => operators.refetch()}>{text.common.retry}</Button>] : []),
          ...(mayWrite
            ? [
                <CodeForm<CreateValues>
                  key="add"
                  title={t.addTitle}
                  testId="operator-add"
                  trigger={
                    <Button type="primary" icon={<PlusOutlined />}>
                      {t.add}
                    </Button>
                  }
                  onSubmit={async (values) => {
                    setIssued(await callConsole('createOperator', { body: { ...values, name: values.name || undefined } }));
                    await changed();
                  }}
                >
                  <ProFormText name="email" label={t.email} rules={[{ required: true, type: 'email', message: '请输入正确的邮箱' }]} fieldProps={{ autoComplete: 'off' }} />
                  <ProFormText name="name" label={t.name} placeholder={t.namePlaceholder} rules={[{ max: 50, message: '姓名最多50个字符' }]} />
                  <ProFormSelect
                    name="role"
                    label={t.role}
                    placeholder={t.rolePlaceholder}
                    rules={[{ required: true, message: '请选择角色' }]}
                    options={OPERATOR_ROLES.map((role) => ({ value: role, label: operatorRoleLabel[role] }))}
                  />
                  <TotpField />
                </CodeForm>,
              ]
            : []),
        ]}
      />
      <Modal
        open={issued !== null}
        title={issued ? fill(t.passwordTitle, issued.operator.email) : ''}
        closable={false}
        maskClosable={false}
        footer={
          <Button type="primary" onClick={() => setIssued(null)}>
            {t.close}
          </Button>
        }
      >
        <Alert type="warning" showIcon title={t.passwordOnce} style={{ marginBottom: 16 }} />
        <Typography.Text type="secondary">{t.passwordLabel}</Typography.Text>
        <Typography.Paragraph copyable code data-testid="issued-password" style={{ fontSize: 16 }}>
          {issued?.password}
        </Typography.Paragraph>
      </Modal>
    </PageContainer>
  );
}
