import { useIsFetching, useQueryClient } from '@tanstack/react-query';
import { Anchor } from 'antd';
import { type MouseEvent, useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { PageFrame } from '../../../components/page-frame.tsx';
import { useNarrowScreen } from '../../../lib/use-narrow-screen.ts';
import { settingsText } from '../../../locales/zh-CN/settings.ts';
import { tradePasswordText } from '../../../locales/zh-CN/trade-password.ts';
import { AccountInfoSection } from '../components/account-info-section.tsx';
import { EmailSection } from '../components/email-section.tsx';
import { LoginHistorySection } from '../components/login-history-section.tsx';
import { LoginPasswordSection } from '../components/login-password-section.tsx';
import { PhoneSection } from '../components/phone-section.tsx';
import { SessionsSection } from '../components/sessions-section.tsx';
import { TradePasswordSection } from '../components/trade-password-section.tsx';
import { TrustedDevicesSection } from '../components/trusted-devices-section.tsx';
import { TeamSection } from '../components/team-section.tsx';
import { ActivitySection } from '../components/activity-section.tsx';
import { AlertsSection } from '../components/alerts-section.tsx';
import { ApiKeysSection } from '../components/api-keys-section.tsx';
import { WebhooksSection } from '../components/webhooks-section.tsx';
import { developerText } from '../../../locales/zh-CN/developer.ts';
import { balanceRuleText } from '../../../locales/zh-CN/balance-rules.ts';
import { activityText } from '../../../locales/zh-CN/activity.ts';
import { useCan } from '../../../domain/team/lib/use-can.ts';
import { teamText } from '../../../locales/zh-CN/team.ts';
import styles from './settings.module.css';

/** The sections in the order drawn, by the id each section carries. */
const SECTIONS = [
  { id: 'account', title: settingsText.account.title },
  { id: 'team', title: teamText.section.title },
  { id: 'activity', title: activityText.section.title },
  { id: 'notifications', title: balanceRuleText.alerts.sectionTitle },
  { id: 'developer', title: developerText.section.title },
  { id: 'login-password', title: settingsText.password.title },
  { id: 'trade-password', title: tradePasswordText.section.title },
  { id: 'email', title: settingsText.email.title },
  { id: 'phone', title: settingsText.phone.title },
  { id: 'devices', title: settingsText.devices.title },
  { id: 'sessions', title: settingsText.sessions.title },
  { id: 'history', title: settingsText.history.title },
] as const;

// the sticky header is 64 px high: a section reached from the list starts below it
const HEADER_OFFSET = 88;
// on phones the header is 104 px high, and the row of sections stays below it (30 px)
const NARROW_OFFSET = 136;

/**
 * Arriving at /settings#<section> (the money dialogs link to #trade-password): scrolls to that section
 * once the sections have drawn what they load, so that nothing drawn above it moves it away again
 * (each section's scroll-margin keeps it below the sticky header). Once per address.
 */
function useScrollToSection() {
  const { hash } = useLocation();
  const queryClient = useQueryClient();
  // drawn again as loads end: the sections' content is there once none is left
  const fetching = useIsFetching();
  const reached = useRef('');
  useEffect(() => {
    if (!hash || reached.current === hash || fetching > 0 || queryClient.isFetching() > 0) return;
    const target = document.getElementById(decodeURIComponent(hash.slice(1)));
    if (!target) return;
    reached.current = hash;
    target.scrollIntoView?.({ block: 'start' });
  }, [hash, fetching, queryClient]);
}

/**
 * /settings, the account's security centre: its information, the login and trade passwords, the
 * e-mail and phone, trusted devices, sessions and sign-in history, each a section of its own, with
 * a list of them that follows the scroll (on phones a row above them that stays below the header).
 */
export default function Settings() {
  const narrow = useNarrowScreen();
  // 团队成员 for the roles that may see the team (team.read)
  const seesTeam = useCan('team.read');
  // 操作日志 for the roles that may read the activity log (activity.read)
  const seesActivity = useCan('activity.read');
  // 开发者 for the roles that manage API keys (developer.keys)
  const seesKeys = useCan('developer.keys');
  // Webhooks for the roles that manage them (developer.webhooks): below the keys
  const seesWebhooks = useCan('developer.webhooks');
  const sections = SECTIONS.filter(
    (section) => (section.id !== 'team' || seesTeam) && (section.id !== 'activity' || seesActivity) && (section.id !== 'developer' || seesKeys),
  );
  useScrollToSection();
  // the list scrolls to a section without adding an entry to the history
  const stay = (event: MouseEvent<HTMLElement>) => event.preventDefault();
  return (
    <PageFrame title={settingsText.title}>
      <div className={styles.layout}>
        <nav className={styles.nav} aria-label={settingsText.navLabel}>
          <Anchor
            affix={false}
            direction={narrow ? 'horizontal' : 'vertical'}
            targetOffset={narrow ? NARROW_OFFSET : HEADER_OFFSET}
            offsetTop={HEADER_OFFSET}
            onClick={stay}
            // the first section is the current one until the page is scrolled
            getCurrentAnchor={(active) => active || `#${SECTIONS[0].id}`}
            items={sections.map((section) => ({ key: section.id, href: `#${section.id}`, title: section.title }))}
          />
        </nav>
        <div className={styles.sections}>
          <AccountInfoSection />
          {seesTeam ? <TeamSection /> : null}
          {seesActivity ? <ActivitySection /> : null}
          <AlertsSection />
          {seesKeys ? <ApiKeysSection /> : null}
          {seesWebhooks ? <WebhooksSection /> : null}
          <LoginPasswordSection />
          <TradePasswordSection />
          <EmailSection />
          <PhoneSection />
          <TrustedDevicesSection />
          <SessionsSection />
          <LoginHistorySection />
        </div>
      </div>
    </PageFrame>
  );
}
