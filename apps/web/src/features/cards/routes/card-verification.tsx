import { PageFrame } from '../../../components/page-frame.tsx';
import { PendingSection } from '../../../components/pending-section.tsx';
import { pagesText } from '../../../locales/zh-CN/pages.ts';

/** /create-card/verification: real name and ID number before a first card (its screen comes with the cards work). */
export default function CardVerification() {
  return (
    <PageFrame title={pagesText.verification.title}>
      <PendingSection text={pagesText.verification.pending} />
    </PageFrame>
  );
}
