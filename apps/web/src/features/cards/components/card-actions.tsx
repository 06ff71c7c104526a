import type { CardAction } from '@portal/contract/cards';
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, LockOutlined, UnlockOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import type { ReactNode } from 'react';
import { cardDetailsText } from '../../../locales/zh-CN/card-details.ts';
import styles from './card-actions.module.css';
import { primaryControl } from '../../../lib/primary-control.ts';

const text = cardDetailsText.actions;

/** The order the actions are offered in, money first, and how each looks. */
const ACTIONS: { action: CardAction; icon: ReactNode; primary?: true; danger?: true }[] = [
  { action: 'RECHARGE', icon: <ArrowDownOutlined />, primary: true },
  { action: 'WITHDRAW', icon: <ArrowUpOutlined /> },
  { action: 'FREEZE', icon: <LockOutlined /> },
  { action: 'UNFREEZE', icon: <UnlockOutlined /> },
  { action: 'DELETE', icon: <DeleteOutlined />, danger: true },
];

/** What the card's status allows now, as the server answered it in `actions`: nothing else is offered. */
export function CardActions({ actions, onAction }: { actions: readonly CardAction[]; onAction: (action: CardAction) => void }) {
  const offered = ACTIONS.filter((entry) => actions.includes(entry.action));
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
