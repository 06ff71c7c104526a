import { Typography } from 'antd';
import type { ReactNode } from 'react';
import { formatDateTime } from '../../../lib/date-time.ts';
import { settingsText } from '../../../locales/zh-CN/settings.ts';
import { tradePasswordText } from '../../../locales/zh-CN/trade-password.ts';
import { useSecurityOverview } from '../api/get-security-overview.ts';
import styles from './account-info-section.module.css';
import { QueryState } from './query-state.tsx';
import sectionStyles from './settings-section.module.css';
import { SettingsSection } from './settings-section.tsx';
import { TradePasswordStatus } from './trade-password-status.tsx';

const text = settingsText.account;

/** 账户信息: the account's contacts (the phone masked), id, creation, manager, and its security at a glance. */
export function AccountInfoSection() {
  const overview = useSecurityOverview();
  const data = overview.data;
  return (
    <SettingsSection id="account" title={text.title} description={text.description}>
      <QueryState query={overview} rows={4}>
        {data ? (
          <dl className={styles.facts}>
            <Fact label={text.id} wide>
              <Typography.Text className={styles.id} copyable={{ text: data.id, tooltips: [text.copy, text.copied] }}>
                {data.id}
              </Typography.Text>
            </Fact>
            <Fact label={text.phone}>
              <span data-testid="overview-phone">
                +{data.phone_prefix} {data.phone}
              </span>
            </Fact>
            <Fact label={text.email} wide>
              <span data-testid="overview-email">{data.email ?? settingsText.none}</span>
            </Fact>
            <Fact label={text.createdAt}>{formatDateTime(data.created_at)}</Fact>
            <Fact label={text.manager}>{data.manager ? text.managerValue(data.manager.name, data.manager.invitation_code) : settingsText.none}</Fact>
            <Fact label={text.lastSignIn} wide>
              {data.last_sign_in ? text.lastSignInValue(formatDateTime(data.last_sign_in.at), data.last_sign_in.device, data.last_sign_in.ip) : text.noSignIn}
            </Fact>
            <Fact label={tradePasswordText.section.title}>
              <TradePasswordStatus />
            </Fact>
            <Fact label={text.trustedDevices}>{text.trustedDevicesValue(data.trusted_devices)}</Fact>
            <Fact label={text.sessions}>{text.sessionsValue(data.sessions)}</Fact>
          </dl>
        ) : null}
      </QueryState>
    </SettingsSection>
  );
}

/** One fact; a `wide` one (long values) takes a line of its own on phones. */
function Fact({ label, wide = false, children }: { label: string; wide?: boolean; children: ReactNode }) {
  return (
    <div className={wide ? `${styles.fact} ${styles.wide}` : styles.fact}>
      <dt className={styles.label}>{label}</dt>
      <dd className={sectionStyles.value}>{children}</dd>
    </div>
  );
}
