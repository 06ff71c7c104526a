import { settingsText } from '../../../locales/zh-CN/settings.ts';
import { useSecurityOverview } from '../api/get-security-overview.ts';
import { QueryState } from './query-state.tsx';
import styles from './settings-form.module.css';
import { SettingsSection } from './settings-section.tsx';

const text = settingsText.tradePassword;

/** 交易密码: whether the account has set one (GET /account/security). */
export function TradePasswordStatus() {
  const overview = useSecurityOverview();
  return (
    <SettingsSection id="trade-password" title={text.title} description={text.description}>
      <QueryState query={overview} rows={1}>
        <p className={styles.value} data-testid="trade-password-status">
          {overview.data?.trx_password_set ? text.set : text.unset}
        </p>
      </QueryState>
    </SettingsSection>
  );
}
