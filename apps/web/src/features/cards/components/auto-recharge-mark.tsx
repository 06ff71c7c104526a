import type { CardItem } from '@portal/contract/cards';
import { SyncOutlined } from '@ant-design/icons';
import { Tooltip } from 'antd';
import { formatAmount } from '../../../lib/money-format.ts';
import { balanceRuleText } from '../../../locales/zh-CN/balance-rules.ts';
import styles from './auto-recharge-mark.module.css';

const text = balanceRuleText.autoRecharge;

/** Under a card's balance in the list: its auto top-up rule, when one is on (paused: said so). */
export function AutoRechargeMark({ card }: { card: CardItem }) {
  const rule = card.auto_recharge;
  if (!rule) return null;
  const paused = rule.status === 'PAUSED';
  return (
    <Tooltip title={`${text.listTag(formatAmount(rule.threshold), formatAmount(rule.target))}${rule.tag ? text.listFromTag(rule.tag) : ''}`}>
      <span className={paused ? `${styles.mark} ${styles.paused}` : styles.mark} data-testid="card-auto-recharge">
        <SyncOutlined aria-hidden /> {paused ? text.listPaused : text.listOn}
      </span>
    </Tooltip>
  );
}
