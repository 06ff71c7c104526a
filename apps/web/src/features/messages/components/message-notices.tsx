import { BellOutlined, CheckCircleFilled, CloseOutlined, DownOutlined, ExclamationCircleFilled, NotificationFilled, UpOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { type CSSProperties, useEffect, useState, useSyncExternalStore } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { paths } from '../../../lib/paths.ts';
import { primaryControlRects } from '../../../lib/primary-control.ts';
import { useNarrowScreen } from '../../../lib/use-narrow-screen.ts';
import { messagesText } from '../../../locales/zh-CN/messages.ts';
import { markReadAndRefresh } from '../api/mark-read.ts';
import { isMessagePage, type OpenMessageState } from '../lib/center-location.ts';
import { NOTICE_HEIGHT_PX, NOTICE_OFFSET_PX, stackFits } from '../lib/notice-placement.ts';
import { noticeTitle } from '../lib/text.ts';
import { type Notice, useNoticesStore } from '../stores/notices.ts';
import styles from './message-notices.module.css';

function NoticeIcon({ notice }: { notice: Notice }) {
  if (notice.kind === 'announcement') return <NotificationFilled className={styles.iconInfo} />;
  if (notice.status === 'success') return <CheckCircleFilled className={styles.iconSuccess} />;
  return <ExclamationCircleFilled className={styles.iconWarning} />;
}

/**
 * Whether a stack of `count` notices fits where it goes, checked again whenever the window scrolls
 * or changes size and whenever the page's content does (a banner that comes, data that loads).
 */
function useStackFits(count: number, active: boolean) {
  const subscribe = (onChange: () => void) => {
    if (!active) return () => {};
    let frame = 0;
    const schedule = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(onChange);
    };
    window.addEventListener('resize', schedule);
    window.addEventListener('scroll', schedule, { passive: true, capture: true });
    const observer = new ResizeObserver(schedule);
    observer.observe(document.body);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('resize', schedule);
      window.removeEventListener('scroll', schedule, { capture: true });
      observer.disconnect();
    };
  };
  const fits = () => !active || stackFits(count, { width: window.innerWidth, height: window.innerHeight }, primaryControlRects());
  return useSyncExternalStore(subscribe, fits, () => true);
}

function NoticeCard({ notice, onOpen, style }: { notice: Notice; onOpen: (notice: Notice) => void; style?: CSSProperties }) {
  return (
    <div className={styles.notice} style={style} data-testid="message-notice">
      <button type="button" className={styles.body} onClick={() => onOpen(notice)} title={notice.title}>
        <NoticeIcon notice={notice} />
        <span className={styles.text}>
          <span className={styles.title} data-testid="notice-title">
            {noticeTitle(notice.title)}
          </span>
          {notice.content ? <span className={styles.content}>{notice.content}</span> : null}
        </span>
      </button>
      <button type="button" className={styles.close} aria-label={messagesText.closeNotice} onClick={() => useNoticesStore.getState().dismiss(notice.id)}>
        <CloseOutlined />
      </button>
    </div>
  );
}

/**
 * The floating notices of new messages (spec §2): up to five, newest on top, 80 px apart, in the
 * bottom right corner. Where that stack would cover the screen's controls, and on narrow screens, they
 * fold into one line, "N 条新消息", that opens on a tap. A click on a notice marks the message read
 * and opens the message center; each can be closed. The message pages show the messages themselves,
 * so no notice is shown there.
 */
export function MessageNotices() {
  const notices = useNoticesStore((state) => state.notices);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const hidden = isMessagePage(pathname);
  const narrow = useNarrowScreen();
  const [open, setOpen] = useState(false);
  const fits = useStackFits(notices.length, !hidden && !narrow && notices.length > 0);

  useEffect(() => {
    if (hidden) useNoticesStore.getState().clear();
  }, [hidden]);
  useEffect(() => {
    if (notices.length === 0) setOpen(false);
  }, [notices.length]);

  if (hidden || notices.length === 0) return null;

  const openNotice = async (notice: Notice) => {
    useNoticesStore.getState().dismiss(notice.id);
    try {
      await markReadAndRefresh(queryClient, { id: notice.id });
    } catch {
      // the HTTP module said what went wrong; the center still opens
    }
    const state: OpenMessageState = { open: { id: notice.id, kind: notice.kind } };
    navigate(paths.informationCenter.getHref(notice.kind), { state });
  };
  const onOpen = (notice: Notice) => void openNotice(notice);

  if (narrow || !fits) {
    return (
      <section className={narrow ? `${styles.dock} ${styles.dockNarrow}` : styles.dock} aria-label={messagesText.noticesLabel} aria-live="polite">
        {open ? (
          <div className={styles.sheet} id="message-notices-sheet">
            {notices.map((notice) => (
              <NoticeCard key={notice.id} notice={notice} onOpen={onOpen} />
            ))}
          </div>
        ) : null}
        <button
          type="button"
          className={styles.summary}
          aria-expanded={open}
          aria-controls="message-notices-sheet"
          onClick={() => setOpen(!open)}
          data-testid="notices-summary"
        >
          <BellOutlined className={styles.summaryIcon} />
          <span className={styles.summaryText}>{messagesText.newNotices(notices.length)}</span>
          {open ? <DownOutlined /> : <UpOutlined />}
        </button>
      </section>
    );
  }

  return (
    <section
      className={styles.stack}
      style={{ height: (notices.length - 1) * NOTICE_OFFSET_PX + NOTICE_HEIGHT_PX }}
      aria-label={messagesText.noticesLabel}
      aria-live="polite"
    >
      {notices.map((notice, index) => (
        <NoticeCard key={notice.id} notice={notice} onOpen={onOpen} style={{ position: 'absolute', top: index * NOTICE_OFFSET_PX }} />
      ))}
    </section>
  );
}
