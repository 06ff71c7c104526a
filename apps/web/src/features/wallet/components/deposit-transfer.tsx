import { CURRENCIES, type Currency } from '@portal/contract/enums';
import { depositAmountRule, payerNameRule, RECEIPT_MAX_BYTES, RECEIPT_TYPES, type DepositReceipt } from '@portal/contract/funding';
import { Alert, Button, DatePicker, Descriptions, Form, Input, Segmented, Skeleton, Steps, Typography, Upload } from 'antd';
import type { UploadFile } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { applyFieldErrors } from '../../../lib/form-errors.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { depositText as text } from '../../../locales/zh-CN/deposit.ts';
import { walletText } from '../../../locales/zh-CN/wallet.ts';
import { useFileDeposit } from '../api/file-deposit.ts';
import { useDepositInstructions } from '../api/get-deposit-instructions.ts';
import { useUploadReceipt } from '../api/upload-receipt.ts';
import styles from './deposit-dialog.module.css';

interface NoticeForm {
  amount: string;
  payer_name: string;
  transferred_at: Dayjs;
}

const ruleOf = (rule: (value: string) => string | null) => ({
  validator: (_: unknown, value: string | undefined) => {
    const message = rule(value ?? '');
    return message ? Promise.reject(new Error(message)) : Promise.resolve();
  },
});

/** Where to transfer (the receiving account and the reference, with copy buttons), the steps, and the notice form. */
export function DepositTransfer({ mayFile, onFiled }: { mayFile: boolean; onFiled: () => void }) {
  const [currency, setCurrency] = useState<Currency>(CURRENCIES[0]);
  const instructions = useDepositInstructions(currency);
  const [form] = Form.useForm<NoticeForm>();
  const filing = useFileDeposit();
  const uploading = useUploadReceipt();
  const [receipt, setReceipt] = useState<DepositReceipt | null>(null);
  const [files, setFiles] = useState<UploadFile[]>([]);
  const [receiptError, setReceiptError] = useState<string | null>(null);

  const copyable = (value: string, testId: string) => (
    <Typography.Text copyable={{ text: value }} className={styles.value} data-testid={testId}>
      {value}
    </Typography.Text>
  );

  const submit = (values: NoticeForm) =>
    filing.mutate(
      { currency, amount: values.amount.trim(), payer_name: values.payer_name.trim(), transferred_at: values.transferred_at.toISOString(), receipt_file_id: receipt?.id ?? null },
      {
        onSuccess: () => {
          notifySuccess(text.submitted);
          form.resetFields();
          setReceipt(null);
          setFiles([]);
          onFiled();
        },
        onError: (error) => applyFieldErrors(form, error),
      },
    );

  const beforeUpload = (file: File) => {
    setReceiptError(null);
    if (!(RECEIPT_TYPES as readonly string[]).includes(file.type)) {
      setReceiptError(text.receiptWrongType);
      return Upload.LIST_IGNORE;
    }
    if (file.size > RECEIPT_MAX_BYTES) {
      setReceiptError(text.receiptTooLarge);
      return Upload.LIST_IGNORE;
    }
    return true;
  };

  const data = instructions.data;
  return (
    <div className={styles.transfer}>
      <Segmented
        value={currency}
        onChange={(value) => setCurrency(value as Currency)}
        options={CURRENCIES.map((value) => ({ value, label: `${walletText.currencyName[value]}（${value}）` }))}
        data-testid="deposit-currency"
      />
      {instructions.isError ? (
        <Alert type="error" showIcon className={styles.block} message={text.loadFailed} action={<Button size="small" onClick={() => void instructions.refetch()}>{text.retry}</Button>} />
      ) : !data ? (
        <Skeleton active paragraph={{ rows: 4 }} className={styles.block} />
      ) : (
        <>
          <section className={styles.block} aria-labelledby="deposit-reference-title">
            <h3 id="deposit-reference-title" className={styles.heading}>{text.reference}</h3>
            <div className={styles.reference}>{copyable(data.reference, 'deposit-reference')}</div>
            <Typography.Text type="secondary" className={styles.hint}>{text.referenceHint}</Typography.Text>
          </section>
          <section className={styles.block} aria-labelledby="deposit-bank-title">
            <h3 id="deposit-bank-title" className={styles.heading}>{text.bankTitle}</h3>
            {data.bank ? (
              <Descriptions column={1} size="small" bordered data-testid="deposit-bank">
                <Descriptions.Item label={text.bankName}>{data.bank.name}</Descriptions.Item>
                <Descriptions.Item label={text.accountName}>{copyable(data.bank.account_name, 'deposit-account-name')}</Descriptions.Item>
                <Descriptions.Item label={text.accountNumber}>{copyable(data.bank.account_number, 'deposit-account-number')}</Descriptions.Item>
                {data.bank.branch ? <Descriptions.Item label={text.branch}>{data.bank.branch}</Descriptions.Item> : null}
                {data.bank.swift ? <Descriptions.Item label={text.swift}>{copyable(data.bank.swift, 'deposit-swift')}</Descriptions.Item> : null}
              </Descriptions>
            ) : (
              <Alert type="info" showIcon message={text.noBank} data-testid="deposit-no-bank" />
            )}
          </section>
          <section className={styles.block} aria-labelledby="deposit-steps-title">
            <h3 id="deposit-steps-title" className={styles.heading}>{text.stepsTitle}</h3>
            <Steps direction="vertical" size="small" current={-1} items={text.steps.map((title) => ({ title }))} />
          </section>
        </>
      )}
      <section className={styles.block} aria-labelledby="deposit-notice-title">
        <h3 id="deposit-notice-title" className={styles.heading}>{text.noticeTitle}</h3>
        {mayFile ? (
          <Form form={form} layout="vertical" requiredMark={false} onFinish={submit} initialValues={{ transferred_at: dayjs() }} data-testid="deposit-form">
            <Form.Item name="amount" label={`${text.amount}（${currency}）`} rules={[ruleOf(depositAmountRule)]}>
              <Input inputMode="decimal" placeholder="0.00" data-testid="deposit-amount" />
            </Form.Item>
            <Form.Item name="payer_name" label={text.payer} rules={[ruleOf(payerNameRule)]}>
              <Input placeholder={text.payerPlaceholder} maxLength={100} data-testid="deposit-payer" />
            </Form.Item>
            <Form.Item name="transferred_at" label={text.transferredAt} rules={[{ required: true, message: '请选择转账时间' }]}>
              <DatePicker showTime className={styles.full} disabledDate={(value) => value.isAfter(dayjs(), 'day')} format="YYYY-MM-DD HH:mm" data-testid="deposit-time" />
            </Form.Item>
            <Form.Item label={text.receipt} extra={receiptError ? <span className={styles.error}>{receiptError}</span> : text.receiptHint}>
              <Upload
                accept={RECEIPT_TYPES.join(',')}
                listType="picture"
                maxCount={1}
                fileList={files}
                beforeUpload={beforeUpload}
                onChange={({ fileList }) => setFiles(fileList)}
                onRemove={() => setReceipt(null)}
                customRequest={({ file, onSuccess, onError }) => {
                  uploading.mutate(file as File, {
                    onSuccess: (stored) => {
                      setReceipt(stored);
                      onSuccess?.(stored);
                    },
                    onError: (error) => onError?.(error as Error),
                  });
                }}
              >
                <Button data-testid="deposit-receipt">{text.receiptChoose}</Button>
              </Upload>
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={filing.isPending} disabled={uploading.isPending} block data-testid="deposit-submit">
              {text.submit}
            </Button>
          </Form>
        ) : (
          <Alert type="warning" showIcon message={text.cannotFile} />
        )}
      </section>
    </div>
  );
}
