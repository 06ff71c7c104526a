import { BellOutlined, CheckCircleFilled, CloseOutlined, DownOutlined, ExclamationCircleFilled, NotificationFilled, UpOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { type CSSProperties, useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { FloatingLayer } from '../../../components/floating-layers.tsx';
import type { LayerPlacement } from '../../../lib/floating-placement.ts';
import { paths } from '../../../lib/paths.ts';
import { messagesText } from '../../../locales/zh-CN/messages.ts';
import { markReadAndRefresh } from '../api/mark-read.ts';
import { isMessagePage, type OpenMessageState } from '../lib/center-location.ts';
import { NOTICE_HEIGHT_PX, NOTICE_OFFSET_PX, noticesThatFit, SUMMARY_HEIGHT_PX, stackHeight } from '../lib/notice-placement.ts';
import { noticeTitle } from '../lib/text.ts';
import { type Notice, useNoticesStore } from '../stores/notices.ts';
import styles from './message-notices.module.css';

function NoticeIcon({ notice }: { notice: Notice }) {
  if (notice.kind === 'announcement') return <NotificationFilled className={styles.iconInfo} />;
  if (notice.status === 'success') return <CheckCircleFilled className={styles.iconSuccess} />;
  return <ExclamationCircleFilled className={styles.iconWarning} />;
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
 * The notices where the floating layers put them: floating, as many as fit in the room above the
 * screen's controls, newest on top and 80 px apart, the rest folded into +N (drawn only once it is
 * opened; "N 条新消息" when none fits); in the dock at the end of the content, all of them in a column.
 */
export function NoticeStack({ notices, placement, onOpen }: { notices: Notice[]; placement: LayerPlacement; onOpen: (notice: Notice) => void }) {
  const [open, setOpen] = useState(false);
  const total = notices.length;
  useEffect(() => {
    if (total === 0) setOpen(false);
  }, [total]);

  if (placement.docked) {
    return (
      <section className={styles.docked} aria-label={messagesText.noticesLabel} aria-live="polite" data-testid="notices" data-placement="docked">
        {notices.map((notice) => (
          <NoticeCard key={notice.id} notice={notice} onOpen={onOpen} />
        ))}
      </section>
    );
  }

  const shown = noticesThatFit(total, placement.room);
  const folded = notices.slice(shown);
  return (
    <section className={styles.stack} aria-label={messagesText.noticesLabel} aria-live="polite" data-testid="notices" data-placement="floating">
      {shown > 0 ? (
        <div className={styles.cards} style={{ height: (shown - 1) * NOTICE_OFFSET_PX + NOTICE_HEIGHT_PX }}>
          {notices.slice(0, shown).map((notice, index) => (
            <NoticeCard key={notice.id} notice={notice} onOpen={onOpen} style={{ position: 'absolute', top: index * NOTICE_OFFSET_PX }} />
          ))}
        </div>
      ) : null}
      {folded.length > 0 ? (
        <div className={styles.more} style={{ height: SUMMARY_HEIGHT_PX }}>
          {open ? (
            <div className={styles.sheet} id="message-notices-sheet">
              {folded.map((notice) => (
                <NoticeCard key={notice.id} notice={notice} onOpen={onOpen} />
              ))}
            </div>
          ) : null}
          <button
            type="button"
            className={styles.summary}
            aria-expanded={open}
            aria-controls="message-notices-sheet"
            aria-label={shown > 0 ? messagesText.moreNoticesLabel(folded.length) : messagesText.newNotices(total)}
            onClick={() => setOpen(!open)}
            data-testid="notices-summary"
          >
            <BellOutlined className={styles.summaryIcon} />
            <span className={styles.summaryText}>{shown > 0 ? messagesText.moreNotices(folded.length) : messagesText.newNotices(total)}</span>
            {open ? <DownOutlined /> : <UpOutlined />}
          </button>
        </div>
      ) : null}
    </section>
  );
}

/**
 * The floating notices of new messages (spec §2): up to five, one of the floating layers
 * (components/floating-layers.tsx), which never covers a control of the screen. A click on a notice
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

  return (
    <FloatingLayer layerKey="messages" side="right" order={0} minHeight={SUMMARY_HEIGHT_PX} wantHeight={stackHeight(1, notices.length)}>
      {(placement) => <NoticeStack notices={notices} placement={placement} onOpen={onOpen} />}
    </FloatingLayer>
  );
}
