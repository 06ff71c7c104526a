import type { CardAction } from '@portal/contract/cards';
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, LockOutlined, UnlockOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import type { ReactNode } from 'react';
import { cardDetailsText } from '../../../locales/zh-CN/card-details.ts';
import styles from './card-actions.module.css';
import { primaryControl } from '../../../lib/primary-control.ts';
import { useCans } from '../../../domain/team/lib/use-can.ts';

const text = cardDetailsText.actions;

/** The order the actions are offered in, money first, and how each looks. */
/** Each with the role's action it needs: money moves are funding the card, the rest managing it. */
const ACTIONS: { action: CardAction; needs: 'cards.fund' | 'cards.manage'; icon: ReactNode; primary?: true; danger?: true }[] = [
  { action: 'RECHARGE', needs: 'cards.fund', icon: <ArrowDownOutlined />, primary: true },
  { action: 'WITHDRAW', needs: 'cards.fund', icon: <ArrowUpOutlined /> },
  { action: 'FREEZE', needs: 'cards.manage', icon: <LockOutlined /> },
  { action: 'UNFREEZE', needs: 'cards.manage', icon: <UnlockOutlined /> },
  { action: 'DELETE', needs: 'cards.manage', icon: <DeleteOutlined />, danger: true },
];

/**
 * What the card's status allows now, as the server answered it in `actions`, and the member's role
 * allows (充值/提现 cards.fund, 冻结/解冻/注销 cards.manage): nothing else is offered.
 */
export function CardActions({ actions, onAction }: { actions: readonly CardAction[]; onAction: (action: CardAction) => void }) {
  const may = useCans(['cards.fund', 'cards.manage']);
  const offered = ACTIONS.filter((entry) => actions.includes(entry.action) && may[entry.needs]);
  if (offered.length === 0) return null;
  return (
    <div className={styles.actions} data-testid="card-actions" {...primaryControl}>
      {offered.map((entry) => (
        <Button
          key={entry.action}
          type={entry.primary ? 'primary' : 'default'}
          danger={entry.danger}
          icon={entry.icon}
          onClick={() => onAction(entry.action)}
          data-action={entry.action}
        >
          {text[entry.action]}
        </Button>
      ))}
    </div>
  );
}
