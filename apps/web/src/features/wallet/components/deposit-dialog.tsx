import { Modal, Tabs } from 'antd';
import { useState } from 'react';
import { depositText as text } from '../../../locales/zh-CN/deposit.ts';
import { DepositRecords } from './deposit-records.tsx';
import { DepositTransfer } from './deposit-transfer.tsx';
import { DepositUsdt } from './deposit-usdt.tsx';
import { usdtText } from '../../../locales/zh-CN/usdt.ts';

/**
 * 钱包充值: the bank transfer's instructions and the notice form in one tab, the USDT (TRC20) address in
 * another, the account's records (bank and USDT) in the last. Roles that may only read see the instructions and records, not the form.
 */
export function DepositDialog({ open, onClose, mayFile, narrow }: { open: boolean; onClose: () => void; mayFile: boolean; narrow: boolean }) {
  const [tab, setTab] = useState('transfer');
  return (
    <Modal open={open} title={text.title} onCancel={onClose} footer={null} destroyOnHidden width={narrow ? '100%' : 600} centered={!narrow} data-testid="deposit-dialog">
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          { key: 'transfer', label: text.tabTransfer, children: <DepositTransfer mayFile={mayFile} onFiled={() => setTab('records')} /> },
          { key: 'usdt', label: usdtText.tab, children: <DepositUsdt /> },
          { key: 'records', label: text.tabRecords, children: <DepositRecords /> },
        ]}
      />
    </Modal>
  );
}
