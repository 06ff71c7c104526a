import { PageFrame } from '../../../components/page-frame.tsx';
import { pagesText } from '../../../locales/zh-CN/pages.ts';
import { TradePasswordSection } from '../components/trade-password-section.tsx';

/** /settings: the account's security settings; so far its trade password. */
export default function Settings() {
  return (
    <PageFrame title={pagesText.settings.title}>
      <TradePasswordSection />
    </PageFrame>
  );
}
