import { Outlet } from 'react-router';
import { SiteFooter } from '../../components/site-footer.tsx';
import { useDrawnPageTakeover } from '../../lib/use-drawn-page-takeover.ts';
import { merchantText } from '../../locales/zh-CN/merchant.ts';
import { useMerchant } from '../../stores/merchant.ts';
import styles from './login-area-layout.module.css';

/**
 * The login area (spec §2): the merchant's logo, the form of the screen, and a footer with the filing
 * number and the copyright line. Wide screens add a panel in the theme colour with the light logo.
 */
export default function LoginAreaLayout() {
  const merchant = useMerchant();
  // the login area is the first screen of a page the server drew (its own screen is drawn with it)
  useDrawnPageTakeover();
  if (!merchant) return null;
  return (
    <div className={styles.page}>
      <aside className={styles.brand} aria-hidden="true">
        {/* shown on wide screens only: lazy, so narrow ones never fetch it */}
        <img className={styles.brandLogo} src={merchant.light_logo} alt="" height={40} loading="lazy" />
        <div className={styles.brandBody}>
          <p className={styles.slogan}>{merchantText.brandSlogan}</p>
          <ul className={styles.points}>
            {merchantText.brandPoints.map((point) => (
              <li key={point}>{point}</li>
            ))}
          </ul>
        </div>
        <div className={styles.cards} />
      </aside>
      <div className={styles.main}>
        <header className={styles.header}>
          {/* the largest element of the first paint on phones: fetched first */}
          <img className={styles.logo} src={merchant.dark_logo} alt={merchant.name} height={36} fetchPriority="high" />
        </header>
        <main className={styles.content}>
          {/* toasts show over the form, not over the logo or the brand panel (lib/toast.ts) */}
          <div className={styles.card} data-toast-anchor="">
            <Outlet />
          </div>
        </main>
        <SiteFooter merchant={merchant} />
      </div>
    </div>
  );
}
