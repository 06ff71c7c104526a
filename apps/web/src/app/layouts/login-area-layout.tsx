import { Outlet } from 'react-router';
import { SiteFooter } from '../../components/site-footer.tsx';
import { merchantText } from '../../locales/zh-CN/merchant.ts';
import { useMerchantStore } from '../../stores/merchant.ts';
import styles from './login-area-layout.module.css';

/**
 * The login area (spec §2): the merchant's logo, the form of the screen, and a footer with the filing
 * number and the copyright line. Wide screens add a panel in the theme colour with the light logo.
 */
export default function LoginAreaLayout() {
  const merchant = useMerchantStore((state) => state.merchant);
  if (!merchant) return null;
  return (
    <div className={styles.page}>
      <aside className={styles.brand} aria-hidden="true">
        <img className={styles.brandLogo} src={merchant.light_logo} alt="" height={40} />
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
          <img className={styles.logo} src={merchant.dark_logo} alt={merchant.name} height={36} />
        </header>
        <main className={styles.content}>
          <div className={styles.card}>
            <Outlet />
          </div>
        </main>
        <SiteFooter merchant={merchant} />
      </div>
    </div>
  );
}
