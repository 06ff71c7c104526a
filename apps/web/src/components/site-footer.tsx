import { copyrightYears } from '@portal/contract/copyright';
import type { Merchant } from '@portal/contract/merchant';
import { merchantText } from '../locales/zh-CN/merchant.ts';
import styles from './site-footer.module.css';

/** The filing number and the copyright line built from the merchant's version and website (spec §2). */
export function SiteFooter({ merchant, className }: { merchant: Pick<Merchant, 'icp' | 'version' | 'website'>; className?: string }) {
  return (
    <footer className={className ? `${styles.footer} ${className}` : styles.footer}>
      {merchant.icp ? (
        <p>
          <a href="https://beian.miit.gov.cn/" target="_blank" rel="noreferrer">
            {merchant.icp}
          </a>
        </p>
      ) : null}
      <p>{merchantText.copyright(copyrightYears(merchant.version), merchant.website)}</p>
    </footer>
  );
}
