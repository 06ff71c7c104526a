import { PageFrame } from '../../../components/page-frame.tsx';
import { PendingSection } from '../../../components/pending-section.tsx';
import { pagesText } from '../../../locales/zh-CN/pages.ts';

/** /create-card/secondary-verification-data: Latin name and website some products need (its screen comes with the cards work). */
export default function SecondaryVerificationData() {
  return (
    <PageFrame title={pagesText.secondaryVerification.title}>
      <PendingSection text={pagesText.secondaryVerification.pending} />
    </PageFrame>
  );
}
