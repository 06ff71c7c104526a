import { BarChartOutlined, CreditCardOutlined, ExportOutlined, SettingOutlined, WalletOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useEffect, useRef } from 'react';
import { Link, Navigate, Outlet, useNavigate } from 'react-router';
import { useScreen } from '../screen-handle.ts';
import { FloatingLayers } from '../../components/floating-layers.tsx';
import { InsideMainContext } from '../../components/full-page-message.tsx';
import { SiteFooter } from '../../components/site-footer.tsx';
import { AccountMenu } from '../../features/account/components/account-menu.tsx';
import { logout } from '../../features/account/api/logout.ts';
import { getAgreementTitlesQueryOptions } from '../../domain/merchant/api/get-agreement-titles.ts';
import { BatchProgress } from '../../features/batches/components/batch-progress.tsx';
import { useThreeDsStore } from '../../features/spending/stores/three-ds.ts';
import type { OpenMessageState } from '../../features/messages/lib/center-location.ts';
import { MessageNotices } from '../../features/messages/components/message-notices.tsx';
import { UnreadBell } from '../../features/messages/components/unread-bell.tsx';
import { useNoticesStore } from '../../features/messages/stores/notices.ts';
import { checkWalletStatus } from '../../domain/wallet/api/get-balance-status.ts';
import { type MenuKey, setMenuKey } from '../../lib/menu-key.ts';
import { notifyError } from '../../lib/notify.ts';
import { clearToasts } from '../../lib/toast.ts';
import { paths } from '../../lib/paths.ts';
import { signedInText } from '../../locales/zh-CN/signed-in.ts';
import { useMerchantStore } from '../../stores/merchant.ts';
import { useSessionStore } from '../../stores/session.ts';
import { useWalletStatusStore } from '../../stores/wallet-status.ts';
import { useSignedInEvents } from './signed-in-events.ts';
import styles from './signed-in-layout.module.css';
import { primaryControl } from '../../lib/primary-control.ts';

// the dialog of a 3-D Secure code is fetched with the first code, not with every signed-in page
const ThreeDsCodes = lazy(() => import('../../features/spending/components/three-ds-codes.tsx').then((module) => ({ default: module.ThreeDsCodes })));

const menu: { key: MenuKey; href: string; icon: ReactNode }[] = [
  { key: 'wallet', href: paths.wallet.getHref(), icon: <WalletOutlined /> },
  { key: 'card', href: paths.card.getHref(), icon: <CreditCardOutlined /> },
  { key: 'spendingAnalysis', href: paths.spendingAnalysis.getHref(), icon: <BarChartOutlined /> },
  { key: 'bulkExport', href: paths.bulkExport.getHref(), icon: <ExportOutlined /> },
  { key: 'settings', href: paths.settings.getHref(), icon: <SettingOutlined /> },
];

/**
 * The signed-in layout (spec §2): header with logo, menu, bell and account menu; the screen; the
 * floating layers (notices, batch progress, 3-D Secure codes) and their dock under the screen; the event stream behind them. Logged out, an allow-listed path goes to /sign-in
 * and any other path shows the not-found page alone.
 */
export default function SignedInLayout() {
  const isLogin = useSessionStore((state) => state.isLogin);
  const screen = useScreen();
  if (isLogin) return <SignedInShell />;
  if (screen?.area === 'signed-in') return <Navigate to={paths.signIn.getHref()} replace />;
  return <Outlet />;
}

function SignedInShell() {
  const merchant = useMerchantStore((state) => state.merchant);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const events = useSignedInEvents();
  const loggingOut = useRef(false);
  const hasThreeDsCodes = useThreeDsStore((state) => state.codes.length > 0);

  // the selected entry follows the screen (none on a page of no entry: messages, not found), and the
  // last one chosen is kept for the tab under menuKey
  const pathKey = useScreen()?.menuKey ?? null;
  useEffect(() => {
    if (pathKey) setMenuKey(pathKey);
  }, [pathKey]);

  useEffect(() => {
    // what the sign-in screens said is not carried onto the signed-in ones
    clearToasts();
    checkWalletStatus().catch(() => {});
    // however the session ends (logout here, a session code on any call), the next one starts clean
    return () => {
      useNoticesStore.getState().clear();
      useThreeDsStore.getState().clear();
      useWalletStatusStore.getState().reset();
    };
  }, []);

  const openAgreement = async () => {
    let titles: { id: string }[];
    try {
      titles = await queryClient.fetchQuery(getAgreementTitlesQueryOptions());
    } catch {
      return; // the HTTP module said why
    }
    const first = titles[0];
    if (!first) {
      notifyError(signedInText.noAgreement);
      return;
    }
    navigate(paths.agreement.getHref(), { state: { id: first.id } });
  };

  // 查看失败原因: the message center, opening the batch's message
  const openBatchMessage = (id: string) => {
    const state: OpenMessageState = { open: { id, kind: 'message' } };
    navigate(paths.informationCenter.getHref(), { state });
  };

  const logOut = async () => {
    if (loggingOut.current) return;
    loggingOut.current = true;
    events.close();
    try {
      await logout();
    } catch {
      // the HTTP module said why; this browser forgets the session all the same
    }
    useSessionStore.getState().logout();
    queryClient.removeQueries();
    navigate(paths.signIn.getHref(), { replace: true });
  };

  return (
    <div className={styles.page}>
      <header className={styles.header} {...primaryControl}>
        <div className={styles.bar}>
          <Link to={paths.wallet.getHref()} className={styles.logoLink} onClick={() => setMenuKey('wallet')} aria-label={signedInText.homeLink}>
            {merchant ? <img className={styles.logo} src={merchant.dark_logo} alt={merchant.name} height={32} /> : null}
          </Link>
          <nav className={styles.nav} aria-label={signedInText.mainMenu}>
            {menu.map((entry) => (
              <Link
                key={entry.key}
                to={entry.href}
                className={entry.key === pathKey ? `${styles.navItem} ${styles.navItemActive}` : styles.navItem}
                aria-current={entry.key === pathKey ? 'page' : undefined}
                onClick={() => setMenuKey(entry.key)}
                data-menu-key={entry.key}
              >
                <span className={styles.navIcon} aria-hidden="true">
                  {entry.icon}
                </span>
                {signedInText.menu[entry.key]}
              </Link>
            ))}
          </nav>
          <div className={styles.actions}>
            <UnreadBell />
            <AccountMenu onOpenAgreement={() => void openAgreement()} onLogout={() => void logOut()} />
          </div>
        </div>
      </header>
      <main className={styles.content}>
        <InsideMainContext value={true}>
          <Outlet />
        </InsideMainContext>
      </main>
      <FloatingLayers>
        <MessageNotices />
        <BatchProgress onOpenMessage={openBatchMessage} />
        {hasThreeDsCodes ? (
          <Suspense fallback={null}>
            <ThreeDsCodes />
          </Suspense>
        ) : null}
      </FloatingLayers>
      {merchant ? <SiteFooter merchant={merchant} /> : null}
    </div>
  );
}
