import { PageFrame } from '../../../components/page-frame.tsx';
import { PendingSection } from '../../../components/pending-section.tsx';
import { pagesText } from '../../../locales/zh-CN/pages.ts';

/** /create-card: opening one card or a batch (its screen comes with the cards work). */
export default function CreateCard() {
  return (
    <PageFrame title={pagesText.createCard.title}>
      <PendingSection text={pagesText.createCard.pending} />
    </PageFrame>
  );
}
