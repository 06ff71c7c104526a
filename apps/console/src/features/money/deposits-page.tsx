import { UploadOutlined } from '@ant-design/icons';
import { PageContainer, ProCard, ProForm, type ProColumns, ProFormSelect, ProFormText, ProTable, type ActionType } from '@ant-design/pro-components';
import type { ConsoleDepositItem, StatementImportAnswer, UnmatchedLineItem } from '@portal/contract/console-money';
import { DEPOSIT_STATUS_LABELS } from '@portal/contract/funding';
import { App, Alert, Button, Image, Modal, Result, Space, Table, Tabs, Tag, Typography, Upload } from 'antd';
import dayjs from 'dayjs';
import { useRef, useState } from 'react';
import { useOutletContext } from 'react-router';
import { CodeForm } from '../../components/code-form.tsx';
import { callConsole, consoleFileUrl } from '../../lib/http.ts';
import { moneyText } from '../../locales/money.zh-CN.ts';
import { CodeField, fill, newKey } from './code-field.tsx';

const t = moneyText.deposits;
const statusColor = { PENDING: 'orange', CREDITED: 'green', REJECTED: 'default' } as const;
const when = (value: string | null) => (value ? dayjs(value).format('YYYY-MM-DD HH:mm') : '—');

/** Deposits (FINANCE and ADMIN decide, every role reads): the customers' notices, the bank statement's import, and the lines it did not match. */
export function DepositsPage() {
  const me = useOutletContext<{ actions: string[] }>();
  if (!me.actions.includes('deposits.read')) return <Result status="403" title={moneyText.denied} />;
  const decides = me.actions.includes('deposits.decide');
  const credits = me.actions.includes('money.propose');
  return (
    <PageContainer title={t.title}>
      <Tabs
        destroyOnHidden
        items={[
          { key: 'notices', label: t.tabs.notices, children: <Notices decides={decides} /> },
          ...(decides ? [{ key: 'import', label: t.tabs.import, children: <StatementImport /> }] : []),
          { key: 'lines', label: t.tabs.lines, children: <Lines credits={credits} /> },
        ]}
      />
    </PageContainer>
  );
}

function Notices({ decides }: { decides: boolean }) {
  const { message } = App.useApp();
  const table = useRef<ActionType>(null);
  const [receipt, setReceipt] = useState<string | null>(null);
  const showReceipt = async (id: string) => {
    try {
      setReceipt(await consoleFileUrl('depositReceipt', { id }));
    } catch (error) {
      message.error((error as Error).message);
    }
  };
  const closeReceipt = () => {
    if (receipt) URL.revokeObjectURL(receipt);
    setReceipt(null);
  };
  const columns: ProColumns<ConsoleDepositItem>[] = [
    { title: t.createdAt, dataIndex: 'created_at', search: false, width: 150, render: (_, row) => when(row.created_at) },
    {
      title: t.status,
      dataIndex: 'status',
      valueType: 'select',
      width: 90,
      valueEnum: Object.fromEntries(Object.entries(DEPOSIT_STATUS_LABELS).map(([key, label]) => [key, { text: label }])),
      render: (_, row) => <Tag color={statusColor[row.status]}>{DEPOSIT_STATUS_LABELS[row.status]}</Tag>,
    },
    { title: t.reference, dataIndex: 'account_reference', search: false, width: 120, copyable: true, render: (_, row) => row.account_reference ?? '—' },
    { title: t.account, dataIndex: 'account_id', search: false, ellipsis: true, copyable: true, width: 140 },
    {
      title: t.amount,
      dataIndex: 'amount',
      search: false,
      align: 'right',
      width: 130,
      render: (_, row) => (
        <span className="money">
          {row.amount} {row.currency}
          {row.credited_amount && row.credited_amount !== row.amount ? <Typography.Text type="secondary">（{t.credited} {row.credited_amount}）</Typography.Text> : null}
        </span>
      ),
    },
    { title: t.payer, dataIndex: 'payer_name', search: false, ellipsis: true, width: 110 },
    { title: t.transferredAt, dataIndex: 'transferred_at', search: false, width: 150, render: (_, row) => when(row.transferred_at) },
    { title: t.source, dataIndex: 'source', search: false, width: 90, render: (_, row) => t.sources[row.source] },
    { title: t.reason, dataIndex: 'reason', search: false, ellipsis: true, render: (_, row) => row.reason || '—' },
    {
      title: t.actions,
      valueType: 'option',
      fixed: 'right',
      width: 210,
      render: (_, row) => [
        row.receipt_file_id ? (
          <Button key="receipt" type="link" size="small" onClick={() => showReceipt(row.receipt_file_id as string)}>
            {t.viewReceipt}
          </Button>
        ) : null,
        decides && row.status === 'PENDING' ? <ConfirmNotice key="confirm" deposit={row} onDone={() => table.current?.reload()} /> : null,
        decides && row.status === 'PENDING' ? <RejectNotice key="reject" deposit={row} onDone={() => table.current?.reload()} /> : null,
      ],
    },
  ];
  return (
    <>
      <ProTable<ConsoleDepositItem, { status?: ConsoleDepositItem['status'] }>
        rowKey="id"
        actionRef={table}
        columns={columns}
        cardBordered
        scroll={{ x: 1200 }}
        search={{ labelWidth: 'auto', defaultCollapsed: false }}
        form={{ initialValues: { status: 'PENDING' } }}
        pagination={{ defaultPageSize: 20, showSizeChanger: true, pageSizeOptions: [20, 50, 100] }}
        options={{ density: false, setting: false, reload: true }}
        request={async (params) => {
          const page = await callConsole('deposits', { query: { status: params.status || undefined, page: params.current ?? 1, page_size: params.pageSize ?? 20 } });
          return { data: page.items, total: page.total, success: true };
        }}
        onRequestError={(error) => message.error(error.message)}
      />
      <Modal open={receipt !== null} title={t.receiptTitle} footer={null} onCancel={closeReceipt} width={640}>
        {receipt ? <Image src={receipt} alt={t.receiptTitle} style={{ maxWidth: '100%' }} preview={false} /> : null}
      </Modal>
    </>
  );
}

function ConfirmNotice({ deposit, onDone }: { deposit: ConsoleDepositItem; onDone: () => void }) {
  const { message } = App.useApp();
  return (
    <CodeForm<{ totp: string; amount?: string }>
      title={t.confirmTitle}
      width={440}
      trigger={
        <Button type="link" size="small">
          {t.confirm}
        </Button>
      }
      onSubmit={async (values) => {
        await callConsole('confirmDeposit', { params: { id: deposit.id }, body: { totp: values.totp, ...(values.amount ? { amount: values.amount } : {}) } });
        message.success(t.confirmed);
        onDone();
      }}
    >
      <Alert type="info" showIcon title={`${deposit.amount} ${deposit.currency} · ${deposit.payer_name} · ${deposit.account_reference ?? deposit.account_id}`} description={t.confirmHint} style={{ marginBottom: 16 }} />
      <ProFormText name="amount" label={t.creditedAmount} extra={t.creditedAmountHint} fieldProps={{ placeholder: deposit.amount, inputMode: 'decimal' }} />
      <CodeField />
    </CodeForm>
  );
}

function RejectNotice({ deposit, onDone }: { deposit: ConsoleDepositItem; onDone: () => void }) {
  const { message } = App.useApp();
  return (
    <CodeForm<{ reason: string }>
      title={t.rejectTitle}
      width={440}
      trigger={
        <Button type="link" size="small" danger>
          {t.reject}
        </Button>
      }
      onSubmit={async (values) => {
        await callConsole('rejectDeposit', { params: { id: deposit.id }, body: { reason: values.reason } });
        message.success(t.rejected);
        onDone();
      }}
    >
      <ProFormText name="reason" label={t.rejectReason} rules={[{ required: true, message: '请填写原因' }]} fieldProps={{ maxLength: 200 }} />
    </CodeForm>
  );
}

const s = moneyText.statement;

function StatementImport() {
  const { message } = App.useApp();
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [answer, setAnswer] = useState<StatementImportAnswer | null>(null);
  const lineColumns = [
    { title: s.line, dataIndex: 'line', width: 60 },
    { title: s.bankTxnId, dataIndex: 'bank_txn_id' },
    { title: s.date, dataIndex: 'date', width: 110 },
    { title: t.amount, dataIndex: 'amount', align: 'right' as const, width: 110 },
    { title: t.payer, dataIndex: 'payer', ellipsis: true },
    { title: s.memo, dataIndex: 'memo', ellipsis: true },
  ];
  return (
    <ProCard variant="outlined">
      <Alert type="info" showIcon title={s.hint} style={{ marginBottom: 16 }} />
      <ProForm<{ currency: 'USD' | 'CNY'; totp: string }>
        layout="vertical"
        initialValues={{ currency: 'USD' }}
        submitter={{ searchConfig: { submitText: s.submit }, resetButtonProps: false }}
        onFinish={async (values) => {
          if (!file) {
            message.error(s.noFile);
            return false;
          }
          try {
            const result = await callConsole('importStatement', { body: { currency: values.currency, csv: file.text, totp: values.totp } });
            setAnswer(result);
            message.success(fill(s.summary, { credited: result.credited.length, already: result.already.length, unmatched: result.unmatched.length, bad: result.bad.length }));
          } catch (error) {
            message.error((error as Error).message);
            return false;
          }
          return true;
        }}
      >
        <ProForm.Item label={s.file} required>
          <Upload
            accept=".csv,text/csv"
            maxCount={1}
            showUploadList={false}
            beforeUpload={async (chosen) => {
              setFile({ name: chosen.name, text: await chosen.text() });
              setAnswer(null);
              return false;
            }}
          >
            <Space>
              <Button icon={<UploadOutlined />}>{s.choose}</Button>
              {file ? <Typography.Text data-testid="statement-file">{file.name}</Typography.Text> : null}
            </Space>
          </Upload>
        </ProForm.Item>
        <ProFormSelect name="currency" label={s.currency} width="sm" options={['USD', 'CNY'].map((value) => ({ value, label: value }))} rules={[{ required: true }]} />
        <div style={{ maxWidth: 328 }}>
          <CodeField />
        </div>
      </ProForm>
      {answer ? (
        <div data-testid="import-result" style={{ marginTop: 24 }}>
          <Typography.Title level={5}>{fill(s.summary, { credited: answer.credited.length, already: answer.already.length, unmatched: answer.unmatched.length, bad: answer.bad.length })}</Typography.Title>
          <Tabs
            items={[
              { key: 'credited', label: `${s.credited} ${answer.credited.length}`, children: <Table size="small" rowKey="bank_txn_id" pagination={false} scroll={{ x: 720 }} dataSource={answer.credited} columns={[...lineColumns, { title: t.reference, dataIndex: 'reference', width: 120 }]} /> },
              { key: 'already', label: `${s.already} ${answer.already.length}`, children: <Table size="small" rowKey="bank_txn_id" pagination={false} scroll={{ x: 720 }} dataSource={answer.already} columns={lineColumns} /> },
              { key: 'unmatched', label: `${s.unmatched} ${answer.unmatched.length}`, children: <Table size="small" rowKey="bank_txn_id" pagination={false} scroll={{ x: 720 }} dataSource={answer.unmatched} columns={[...lineColumns, { title: s.why, dataIndex: 'why' }]} /> },
              { key: 'bad', label: `${s.bad} ${answer.bad.length}`, children: <Table size="small" rowKey="line" pagination={false} dataSource={answer.bad} columns={[{ title: s.line, dataIndex: 'line', width: 60 }, { title: s.bankTxnId, dataIndex: 'bank_txn_id' }, { title: s.problem, dataIndex: 'problem' }]} /> },
            ]}
          />
        </div>
      ) : null}
    </ProCard>
  );
}

const l = moneyText.lines;

function Lines({ credits }: { credits: boolean }) {
  const { message } = App.useApp();
  const table = useRef<ActionType>(null);
  const columns: ProColumns<UnmatchedLineItem>[] = [
    { title: l.importedAt, dataIndex: 'imported_at', width: 150, render: (_, row) => when(row.imported_at) },
    { title: s.bankTxnId, dataIndex: 'bank_txn_id', copyable: true },
    { title: s.date, dataIndex: 'date', width: 110 },
    { title: t.amount, dataIndex: 'amount', align: 'right', width: 130, render: (_, row) => `${row.amount} ${row.currency}` },
    { title: t.payer, dataIndex: 'payer', ellipsis: true },
    { title: s.memo, dataIndex: 'memo', ellipsis: true },
    {
      title: t.actions,
      valueType: 'option',
      fixed: 'right',
      width: 120,
      render: (_, row) =>
        row.pending_request_id ? <Tag color="orange" key="pending">{l.pending}</Tag> : credits ? <CreditLine key="credit" line={row} onDone={() => table.current?.reload()} /> : null,
    },
  ];
  return (
    <ProTable<UnmatchedLineItem>
      rowKey="bank_txn_id"
      actionRef={table}
      columns={columns}
      cardBordered
      search={false}
      scroll={{ x: 960 }}
      options={{ density: false, setting: false, reload: true }}
      pagination={{ defaultPageSize: 20 }}
      request={async () => {
        const list = await callConsole('unmatchedLines');
        return { data: list.items, total: list.items.length, success: true };
      }}
      onRequestError={(error) => message.error(error.message)}
    />
  );
}

function CreditLine({ line, onDone }: { line: UnmatchedLineItem; onDone: () => void }) {
  const { message } = App.useApp();
  const key = useRef(newKey());
  return (
    <CodeForm<{ reference: string; totp: string }>
      title={l.creditTitle}
      width={440}
      trigger={
        <Button type="link" size="small">
          {l.credit}
        </Button>
      }
      afterClose={() => {
        key.current = newKey();
      }}
      onSubmit={async (values) => {
        const answer = await callConsole('creditLine', { params: { bank_txn_id: line.bank_txn_id }, headers: { 'idempotency-key': key.current }, body: values });
        message.success(answer.status === 'APPLIED' ? l.applied : l.waiting);
        onDone();
      }}
    >
      <Alert type="info" showIcon title={`${line.bank_txn_id} · ${line.amount} ${line.currency} · ${line.payer}`} description={line.memo} style={{ marginBottom: 16 }} />
      <ProFormText name="reference" label={l.reference} rules={[{ required: true, message: '请输入客户的充值参考号' }]} fieldProps={{ placeholder: l.referencePlaceholder, maxLength: 10 }} />
      <CodeField />
    </CodeForm>
  );
}
