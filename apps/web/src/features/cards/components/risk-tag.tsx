import type { CardItem } from '@portal/contract/cards';
import { WarningFilled } from '@ant-design/icons';
import { Popover } from 'antd';
import { cardSpendingText } from '../../../locales/zh-CN/card-spending.ts';
import styles from './risk-tag.module.css';

const text = cardSpendingText.list;

/**
 * 风险偏高 on a card whose decline rate the server marks HIGH, its reason on hover, focus or tap
 * (issuers close such cards: the holder hears it first here). Nothing for any other card.
 */
export function RiskTag({ card }: { card: Pick<CardItem, 'risk' | 'risk_reason'> }) {
  if (card.risk !== 'HIGH') return null;
  return (
    <Popover
      title={text.riskTitle}
      content={<p className={styles.reason}>{card.risk_reason || text.risk}</p>}
      trigger={['hover', 'click', 'focus']}
      placement="bottom"
    >
      <button
        type="button"
        className={styles.tag}
        // the tag sits in a row that opens the card: a tap on it shows the reason only
        onClick={(event) => event.stopPropagation()}
        data-testid="card-risk"
      >
        <WarningFilled aria-hidden />
        {text.risk}
      </button>
    </Popover>
  );
}
