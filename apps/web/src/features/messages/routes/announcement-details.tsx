import { Button, Empty, Skeleton } from 'antd';
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { PageFrame } from '../../../components/page-frame.tsx';
import { paths } from '../../../lib/paths.ts';
import { messagesText } from '../../../locales/zh-CN/messages.ts';
import { useMessage } from '../api/get-message.ts';
import { useMarkRead } from '../api/mark-read.ts';
import { MessageBody } from '../components/message-detail.tsx';

/** The announcement's id: from navigation state inside the portal, or ?id= in a shared address. */
function useAnnouncementId() {
  const location = useLocation();
  const [search] = useSearchParams();
  const stateId = (location.state as { id?: unknown } | null)?.id;
  if (typeof stateId === 'string' && stateId) return stateId;
  return search.get('id') || null;
}

/** /information-announcement-details: one announcement; reading it marks it read. */
export default function AnnouncementDetails() {
  const id = useAnnouncementId();
  const navigate = useNavigate();
  const announcement = useMessage('announcement', id);
  const { mutate: markRead } = useMarkRead();
  const marked = useRef<string | null>(null);
  const unreadId = announcement.data && !announcement.data.is_read ? announcement.data.id : null;

  useEffect(() => {
    if (!unreadId || marked.current === unreadId) return;
    marked.current = unreadId;
    markRead({ id: unreadId });
  }, [unreadId, markRead]);

  useEffect(() => {
    // nothing to show without an id: the announcements are one step away
    if (!id) navigate(paths.informationCenter.getHref('announcement'), { replace: true });
  }, [id, navigate]);

  const back = () => navigate(paths.informationCenter.getHref('announcement'));

  if (!id) return null;
  return (
    <PageFrame title={announcement.data?.title ?? messagesText.announcementTitle} onBack={back}>
      {announcement.data ? (
        <MessageBody item={announcement.data} />
      ) : announcement.isError ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={messagesText.announcementMissing} style={{ padding: '48px 0' }}>
          <Button type="primary" onClick={back}>
            {messagesText.backToCenter}
          </Button>
        </Empty>
      ) : (
        <Skeleton active paragraph={{ rows: 6 }} title={false} aria-label={messagesText.detailLoading} />
      )}
    </PageFrame>
  );
}
