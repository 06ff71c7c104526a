import { type MessageTag, messageTagLabel, messageTagOf } from '@portal/contract/enums';
import type { MessageItem } from '@portal/contract/messages';
import { Tag, type TagProps } from 'antd';
import { useMemo } from 'react';
import { formatDateTime } from '../../../lib/date-time.ts';
import { messagesText } from '../../../locales/zh-CN/messages.ts';
import { plainText } from '../lib/text.ts';
import styles from './message-list.module.css';

/** A frozen wallet asks for attention, an unfrozen one is good news, a failure is an error. */
const tagColor: Record<MessageTag, TagProps['color']> = {
  WALLET_FROZEN: 'warning',
  WALLET_UNFROZEN: 'success',
  FAILED: 'error',
};

function MessageRow({ item, onOpen }: { item: MessageItem; onOpen: (item: MessageItem) => void }) {
  const excerpt = useMemo(() => plainText(item.content), [item.content]);
  const unread = !item.is_read;
  const tag = messageTagOf(item);
  return (
    <li className={styles.item}>
      <button
        type="button"
        className={unread ? `${styles.row} ${styles.unread}` : styles.row}
        onClick={() => onOpen(item)}
        data-testid="message-row"
        data-read={item.is_read ? 'true' : 'false'}
      >
        <span className={styles.dot} aria-hidden="true" />
        <span className={styles.main}>
          <span className={styles.titleLine}>
            <span className={styles.title}>{item.title}</span>
            {unread ? <span className={styles.srOnly}>（{messagesText.unread}）</span> : null}
            {tag ? (
              <Tag color={tagColor[tag]} variant="outlined" className={styles.tag} data-testid="message-tag">
                {messageTagLabel[tag]}
              </Tag>
            ) : null}
          </span>
          {excerpt ? <span className={styles.excerpt}>{excerpt}</span> : null}
        </span>
        <time className={styles.time} dateTime={item.created_at}>
          {formatDateTime(item.created_at)}
        </time>
      </button>
    </li>
  );
}

/** One page of messages or announcements; unread ones carry a dot and a bold title. */
export function MessageList({ items, onOpen }: { items: MessageItem[]; onOpen: (item: MessageItem) => void }) {
  return (
    <ul className={styles.list}>
      {items.map((item) => (
        <MessageRow key={item.id} item={item} onOpen={onOpen} />
      ))}
    </ul>
  );
}
