import { Alert, Button, Descriptions, Empty, QRCode, Skeleton, Typography } from 'antd';
import { USDT_CREDIT_RULE_TEXT } from '@portal/contract/usdt';
import { usdtText as text } from '../../../locales/zh-CN/usdt.ts';
import { useDepositInstructions } from '../api/get-deposit-instructions.ts';
import styles from './deposit-dialog.module.css';

/** USDT 充值: the account's TRC20 address with a copy button and its QR code, the network, the confirmations needed, the rate and the fee. */
export function DepositUsdt() {
  const instructions = useDepositInstructions('USD');
  if (instructions.isError) {
    return <Alert type="error" showIcon message={text.loadFailed} action={<Button size="small" onClick={() => void instructions.refetch()}>{text.retry}</Button>} />;
  }
  if (!instructions.data) return <Skeleton active paragraph={{ rows: 6 }} />;
  const usdt = instructions.data.usdt;
  if (!usdt) return <Empty description={text.none} data-testid="usdt-none" />;
  return (
    <section className={styles.usdt} aria-labelledby="usdt-title" data-testid="usdt-section">
      <h3 id="usdt-title" className={styles.heading}>{text.title}</h3>
      <div className={styles.qr}>
        <QRCode value={usdt.address} size={176} bordered aria-label={text.qrLabel} data-testid="usdt-qr" />
      </div>
      <Descriptions column={1} size="small" bordered className={styles.usdtFacts}>
        <Descriptions.Item label={text.address}>
          <Typography.Text copyable={{ text: usdt.address }} className={styles.address} data-testid="usdt-address">
            {usdt.address}
          </Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={text.network}>
          <span data-testid="usdt-network">{text.networkValue(usdt.network)}</span>
        </Descriptions.Item>
        <Descriptions.Item label={text.confirmations}>
          <span data-testid="usdt-confirmations">{text.confirmationsValue(usdt.confirmations_required)}</span>
        </Descriptions.Item>
        <Descriptions.Item label={text.rate}>
          <span data-testid="usdt-rate">{text.rateValue(usdt.rate)}</span>
        </Descriptions.Item>
        <Descriptions.Item label={text.fee}>
          <span data-testid="usdt-fee">{text.feeValue(usdt.fee_percent)}</span>
        </Descriptions.Item>
      </Descriptions>
      <Alert type="warning" showIcon className={styles.block} message={text.warning} />
      <Typography.Text type="secondary" className={styles.hint}>
        {text.howItWorks(usdt.confirmations_required)}
      </Typography.Text>
      <Typography.Text type="secondary" className={styles.hint} data-testid="usdt-rule">
        {USDT_CREDIT_RULE_TEXT}
      </Typography.Text>
    </section>
  );
}
