import type { MessageKind } from '@portal/contract/messages';
import { Modal, Skeleton } from 'antd';
import { useEffect, useRef } from 'react';
import { messagesText } from '../../../locales/zh-CN/messages.ts';
import { useMessage } from '../api/get-message.ts';
import { useMarkRead } from '../api/mark-read.ts';
import { MessageBody } from './message-detail.tsx';

/** One station message in a dialog; opening it marks it read. */
export function MessageModal({ kind, id, onClose }: { kind: MessageKind; id: string | null; onClose: () => void }) {
  const message = useMessage(kind, id);
  const { mutate: markRead } = useMarkRead();
  const unreadId = message.data && !message.data.is_read ? message.data.id : null;
  // once per message: until the detail is fetched again as read, it still says unread
  const marked = useRef<string | null>(null);

  useEffect(() => {
    if (!unreadId || marked.current === unreadId) return;
    marked.current = unreadId;
    markRead({ id: unreadId });
  }, [unreadId, markRead]);

  useEffect(() => {
    if (message.isError) onClose();
  }, [message.isError, onClose]);

  return (
    <Modal
      open={Boolean(id)}
      title={message.data?.title ?? messagesText.detailLoading}
      onCancel={onClose}
      footer={null}
      width={640}
      destroyOnHidden
      centered
    >
      {message.data ? <MessageBody item={message.data} /> : <Skeleton active title={false} paragraph={{ rows: 4 }} />}
    </Modal>
  );
}
