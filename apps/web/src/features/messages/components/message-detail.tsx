import type { MessageItem } from '@portal/contract/messages';
import { SafeHtml } from '../../../components/safe-html.tsx';
import { formatDateTime } from '../../../lib/date-time.ts';
import styles from './message-detail.module.css';

/** A message's time and its HTML, sanitised by DOMPurify on the way in. */
export function MessageBody({ item }: { item: MessageItem }) {
  return (
    <div className={styles.body}>
      <time className={styles.time} dateTime={item.created_at}>
        {formatDateTime(item.created_at)}
      </time>
      <SafeHtml className={styles.html} html={item.content} />
    </div>
  );
}
