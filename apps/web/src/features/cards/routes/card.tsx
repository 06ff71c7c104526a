import { PageFrame } from '../../../components/page-frame.tsx';
import { PendingSection } from '../../../components/pending-section.tsx';
import { pagesText } from '../../../locales/zh-CN/pages.ts';

/** /card: the account's cards (their screen comes with the cards work). */
export default function Card() {
  return (
    <PageFrame title={pagesText.card.title}>
      <PendingSection text={pagesText.card.pending} />
    </PageFrame>
  );
}
