import { PageFrame } from '../../../components/page-frame.tsx';
import { PendingSection } from '../../../components/pending-section.tsx';
import { pagesText } from '../../../locales/zh-CN/pages.ts';

/** /settings: password and trusted devices (its screen comes with the settings work). */
export default function Settings() {
  return (
    <PageFrame title={pagesText.settings.title}>
      <PendingSection text={pagesText.settings.pending} />
    </PageFrame>
  );
}
