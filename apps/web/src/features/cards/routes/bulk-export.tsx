import { PageFrame } from '../../../components/page-frame.tsx';
import { PendingSection } from '../../../components/pending-section.tsx';
import { pagesText } from '../../../locales/zh-CN/pages.ts';

/** /bulk-export: cards exported to a spreadsheet (its screen comes with the exports work). */
export default function BulkExport() {
  return (
    <PageFrame title={pagesText.bulkExport.title}>
      <PendingSection text={pagesText.bulkExport.pending} />
    </PageFrame>
  );
}
