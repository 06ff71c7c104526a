import { PageFrame } from '../../../components/page-frame.tsx';
import { PendingSection } from '../../../components/pending-section.tsx';
import { pagesText } from '../../../locales/zh-CN/pages.ts';

/** /card-details: one card and its transactions (its screen comes with the cards work). */
export default function CardDetails() {
  return (
    <PageFrame title={pagesText.cardDetails.title}>
      <PendingSection text={pagesText.cardDetails.pending} />
    </PageFrame>
  );
}
