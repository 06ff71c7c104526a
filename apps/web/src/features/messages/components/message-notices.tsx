import { CheckCircleFilled, CloseOutlined, ExclamationCircleFilled, NotificationFilled } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { messagesText } from '../../../locales/zh-CN/messages.ts';
import { markReadAndRefresh } from '../api/mark-read.ts';
import { isMessagePage, messageCenterHref, type OpenMessageState } from '../lib/center-location.ts';
import { noticeTitle } from '../lib/text.ts';
import { type Notice, useNoticesStore } from '../stores/notices.ts';
import styles from './message-notices.module.css';

/** Notices stack this far apart (spec §2, §9). */
export const NOTICE_OFFSET_PX = 80;

function NoticeIcon({ notice }: { notice: Notice }) {
  if (notice.kind === 'announcement') return <NotificationFilled className={styles.iconInfo} />;
  if (notice.status === 'success') return <CheckCircleFilled className={styles.iconSuccess} />;
  return <ExclamationCircleFilled className={styles.iconWarning} />;
}

/**
 * The floating notices of new messages (spec §2): up to five, newest on top, 80 px apart. A click
 * marks the message read and opens the message center; each can be closed. The message pages show
 * the messages themselves, so no notice is shown there.
 */
export function MessageNotices() {
  const notices = useNoticesStore((state) => state.notices);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const hidden = isMessagePage(pathname);

  useEffect(() => {
    if (hidden) useNoticesStore.getState().clear();
  }, [hidden]);

  if (hidden || notices.length === 0) return null;

  const open = async (notice: Notice) => {
    useNoticesStore.getState().dismiss(notice.id);
    try {
      await markReadAndRefresh(queryClient, { id: notice.id });
    } catch {
      // the HTTP module said what went wrong; the center still opens
    }
    const state: OpenMessageState = { open: { id: notice.id, kind: notice.kind } };
    navigate(messageCenterHref({ kind: notice.kind }), { state });
  };

  return (
    <section className={styles.stack} aria-label={messagesText.noticesLabel} aria-live="polite">
      {notices.map((notice, index) => (
        <div key={notice.id} className={styles.notice} style={{ top: index * NOTICE_OFFSET_PX }} data-testid="message-notice">
          <button type="button" className={styles.body} onClick={() => void open(notice)} title={notice.title}>
            <NoticeIcon notice={notice} />
            <span className={styles.text}>
              <span className={styles.title} data-testid="notice-title">
                {noticeTitle(notice.title)}
              </span>
              {notice.content ? <span className={styles.content}>{notice.content}</span> : null}
            </span>
          </button>
          <button
            type="button"
            className={styles.close}
            aria-label={messagesText.closeNotice}
            onClick={() => useNoticesStore.getState().dismiss(notice.id)}
          >
            <CloseOutlined />
          </button>
        </div>
      ))}
    </section>
  );
}
