import { Tag } from 'antd';
import { useTradePasswordState } from '../../../domain/account/api/get-account-info.ts';
import { tradePasswordText } from '../../../locales/zh-CN/trade-password.ts';
import styles from './trade-password-status.module.css';

const text = tradePasswordText.section;

/** 已设置 or 未设置: whether the account has a trade password, as the account's facts and the 交易密码 section show it; nothing until it is known. */
export function TradePasswordStatus({ testId }: { testId?: string }) {
  const state = useTradePasswordState();
  if (!state.data) return null;
  const { set } = state.data;
  return (
    <Tag className={set ? styles.set : styles.unset} data-testid={testId}>
      {set ? text.set : text.unset}
    </Tag>
  );
}
