import type { MessageItem, MessageKind } from '@portal/contract/messages';
import { Badge, Button, Empty, Pagination, Segmented, Skeleton, Tabs } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { PageFrame } from '../../../components/page-frame.tsx';
import { paths } from '../../../lib/paths.ts';
import { messagesText } from '../../../locales/zh-CN/messages.ts';
import { useMessages, useUnreadTotal } from '../api/get-messages.ts';
import { messageKeys } from '../api/message-keys.ts';
import { useMarkRead } from '../api/mark-read.ts';
import { MessageList } from '../components/message-list.tsx';
import { MessageModal } from '../components/message-modal.tsx';
import { isOpenMessageState } from '../lib/center-location.ts';
import styles from './information-center.module.css';
import { useQueryClient } from '@tanstack/react-query';

export const PAGE_SIZE = 10;

type ReadFilter = 'all' | 'unread';

/** The tab, filter and page live in the address, so reload and back keep them. */
function useCenterParams() {
  const [search, setSearch] = useSearchParams();
  const kind: MessageKind = search.get('tab') === 'announcement' ? 'announcement' : 'message';
  const read: ReadFilter = search.get('read') === 'unread' ? 'unread' : 'all';
  const page = Math.max(1, Number.parseInt(search.get('page') ?? '1', 10) || 1);
  const update = useCallback(
    (changes: { kind?: MessageKind; read?: ReadFilter; page?: number }) => {
      setSearch(
        (previous) => {
          const next = new URLSearchParams(previous);
          const set = (key: string, value: string | null) => (value === null ? next.delete(key) : next.set(key, value));
          if (changes.kind) set('tab', changes.kind === 'announcement' ? 'announcement' : null);
          if (changes.read) set('read', changes.read === 'unread' ? 'unread' : null);
          if (changes.page !== undefined) set('page', changes.page > 1 ? String(changes.page) : null);
          return next;
        },
        { replace: true, preventScrollReset: true },
      );
    },
    [setSearch],
  );
  return { kind, read, page, update };
}

function TabLabel({ kind }: { kind: MessageKind }) {
  const { data: unread = 0 } = useUnreadTotal(kind);
  return (
    <span className={styles.tabLabel}>
      {messagesText.tabs[kind]}
      <Badge count={unread} overflowCount={99} size="small" />
    </span>
  );
}

/** /information-center: station messages and announcements, each with unread marks, a filter and pages. */
export default function InformationCenter() {
  const { kind, read, page, update } = useCenterParams();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const list = useMessages({ kind, read, page, pageSize: PAGE_SIZE });
  const unreadOfKind = useUnreadTotal(kind);
  const markRead = useMarkRead();

  // a floating notice that was clicked asks for its message to be opened
  const [openId, setOpenId] = useState<string | null>(() =>
    isOpenMessageState(location.state) && location.state.open.kind === 'message' ? location.state.open.id : null,
  );
  useEffect(() => {
    // the request is served once; back and reload must not open it again (asked again while here, it opens too)
    if (isOpenMessageState(location.state) && location.state.open.kind === 'message') setOpenId(location.state.open.id);
    if (isOpenMessageState(location.state)) navigate(`${location.pathname}${location.search}`, { replace: true, state: null });
  }, [location.state, location.pathname, location.search, navigate]);

  const total = list.data?.total ?? 0;
  const lastPage = Math.max(1, Math.ceil(total / PAGE_SIZE));
  useEffect(() => {
    // a page emptied by reading (filter unread) or by a shorter list: show the last one that has items
    if (list.data && !list.isPlaceholderData && page > lastPage) update({ page: lastPage });
  }, [list.data, list.isPlaceholderData, page, lastPage, update]);

  const open = (item: MessageItem) => {
    if (item.kind === 'announcement') {
      navigate(paths.informationAnnouncementDetails.getHref(), { state: { id: item.id } });
      return;
    }
    // the row already holds the message: the dialog shows it at once and refreshes it behind
    queryClient.setQueryData(messageKeys.detail(item.kind, item.id), item);
    setOpenId(item.id);
  };
  const closeModal = useCallback(() => setOpenId(null), []);

  const items = list.data?.items ?? [];
  const emptyText = read === 'unread' ? messagesText.empty.unread : messagesText.empty[kind];

  return (
    <PageFrame title={messagesText.centerTitle}>
      <Tabs
        activeKey={kind}
        onChange={(key) => update({ kind: key as MessageKind, page: 1 })}
        items={(['message', 'announcement'] as const).map((key) => ({ key, label: <TabLabel kind={key} /> }))}
      />
      <div className={styles.toolbar}>
        <Segmented<ReadFilter>
          aria-label={messagesText.filter.label}
          value={read}
          onChange={(value) => update({ read: value, page: 1 })}
          options={[
            { value: 'all', label: messagesText.filter.all },
            { value: 'unread', label: messagesText.filter.unread },
          ]}
        />
        <Button
          onClick={() => markRead.mutate({ all: true, kind })}
          loading={markRead.isPending}
          disabled={!unreadOfKind.data}
        >
          {messagesText.readAll}
        </Button>
      </div>
      {list.isPending ? (
        <Skeleton active title={false} paragraph={{ rows: 6 }} className={styles.loading} />
      ) : items.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText} className={styles.empty} />
      ) : (
        <div aria-busy={list.isFetching}>
          <MessageList items={items} onOpen={open} />
        </div>
      )}
      {total > PAGE_SIZE ? (
        <div className={styles.pager}>
          <Pagination
            current={Math.min(page, lastPage)}
            pageSize={PAGE_SIZE}
            total={total}
            showSizeChanger={false}
            showTotal={messagesText.total}
            responsive
            onChange={(next) => update({ page: next })}
          />
        </div>
      ) : null}
      <MessageModal kind="message" id={openId} onClose={closeModal} />
    </PageFrame>
  );
}
