import { CURRENCIES, type Currency } from '@portal/contract/enums';
import { chinaMonthOf, STATEMENT_FIRST_MONTH, STATEMENT_FORMATS, type StatementFormat, statementFormatLabel, statementText } from '@portal/contract/statements';
import { Alert, DatePicker, Form, Modal, Radio, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import 'dayjs/locale/zh-cn';
import { useState } from 'react';
import { notifySuccess } from '../../../lib/notify.ts';
import { walletText } from '../../../locales/zh-CN/wallet.ts';
import { useDownloadStatement } from '../api/download-statement.ts';
import styles from './statement-dialog.module.css';

dayjs.locale('zh-cn');

/** The month before the current one (China time): the statement most often asked for. */
function lastMonth() {
  const current = chinaMonthOf(new Date());
  return dayjs(`${current}-01`).subtract(1, 'month');
}

/**
 * 对账单: a month (China time; none after the current one), a currency and PDF or Excel, then the file.
 * The current month's statement runs to the moment it is made.
 */
export function StatementDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [month, setMonth] = useState<Dayjs>(lastMonth);
  const [currency, setCurrency] = useState<Currency>(CURRENCIES[0]);
  const [format, setFormat] = useState<StatementFormat>('pdf');
  const downloading = useDownloadStatement();
  const currentMonth = chinaMonthOf(new Date());
  const outside = (value: Dayjs) => {
    const text = value.format('YYYY-MM');
    return text > currentMonth || text < STATEMENT_FIRST_MONTH;
  };
  const submit = () =>
    downloading.mutate(
      { month: month.format('YYYY-MM'), currency, format },
      {
        onSuccess: (name) => {
          notifySuccess(walletText.statementSaved(name));
          onClose();
        },
      },
    );
  return (
    <Modal
      open={open}
      title={statementText.dialogTitle}
      okText={statementText.download}
      cancelText={walletText.cancel}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={downloading.isPending}
      destroyOnHidden
      width={440}
      okButtonProps={{ 'data-testid': 'statement-download' }}
    >
      <Form layout="vertical" className={styles.form} requiredMark={false}>
        <Form.Item label={statementText.month}>
          <DatePicker
            picker="month"
            value={month}
            allowClear={false}
            disabledDate={outside}
            onChange={(value) => value && setMonth(value)}
            className={styles.full}
            data-testid="statement-month"
            format="YYYY年MM月"
          />
        </Form.Item>
        <Form.Item label={statementText.currency}>
          <Select
            value={currency}
            onChange={setCurrency}
            options={CURRENCIES.map((value) => ({ value, label: `${walletText.currencyName[value]}（${value}）` }))}
            data-testid="statement-currency"
          />
        </Form.Item>
        <Form.Item label={statementText.format}>
          <Radio.Group
            value={format}
            onChange={(event) => setFormat(event.target.value as StatementFormat)}
            optionType="button"
            options={STATEMENT_FORMATS.map((value) => ({ value, label: statementFormatLabel[value] }))}
            data-testid="statement-format"
          />
        </Form.Item>
      </Form>
      <Alert type="info" showIcon message={statementText.hint} className={styles.hint} />
    </Modal>
  );
}
