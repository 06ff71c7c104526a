import type { CardItem } from '@portal/contract/cards';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { cardKeys } from '../../../domain/cards/api/card-keys.ts';
import { ListSection } from '../../../domain/lists/components/list-section.tsx';
import { ActivityList } from '../../../domain/team/components/activity-list.tsx';
import { useNarrowScreen } from '../../../lib/use-narrow-screen.ts';
import { activityText } from '../../../locales/zh-CN/activity.ts';
import { useCardActivity } from '../api/get-card-activity.ts';
import styles from './card-activity.module.css';

const PAGE_SIZE = 10;

/** What of the card a member's change alters: when it moves, the card's 操作记录 is read again. */
const versionOf = (card: CardItem) => [card.status, card.nickname, card.balance, card.holder_member_id].join('|');

/**
 * 操作记录 on a card's page: who froze, unfroze, topped up, withdrew, renamed it, changed its controls
 * or gave it to another holder, when and from where, newest first, in pages. Read again whenever the
 * card as shown changes (a change made here, or one the event stream brings).
 */
export function CardActivity({ card }: { card: CardItem }) {
  const narrow = useNarrowScreen();
  const queryClient = useQueryClient();
  const [paging, setPaging] = useState({ page: 1, pageSize: PAGE_SIZE });
  const list = useCardActivity(card.id, paging.page, paging.pageSize);
  const total = list.data?.total ?? 0;
  const lastPage = Math.max(1, Math.ceil(total / paging.pageSize));

  const version = versionOf(card);
  const seen = useRef(version);
  useEffect(() => {
    if (seen.current === version) return;
    seen.current = version;
    void queryClient.invalidateQueries({ queryKey: cardKeys.activity(card.id) });
  }, [version, card.id, queryClient]);

  const items = list.data?.items ?? [];
  return (
    <ListSection
      titleId="card-activity-title"
      title={activityText.card.title}
      list={list}
      totalText={activityText.total}
      totalTestId="card-activity-total"
      filters={null}
      states={{
        skeletonRows: 3,
        failed: { title: activityText.card.loadFailed, retryText: activityText.retry, testId: 'card-activity-failed' },
        empty: {
          shown: items.length === 0,
          filtered: false,
          text: activityText.card.empty,
          filteredText: activityText.card.empty,
          resetText: activityText.clearFilters,
          onReset: () => {},
          className: styles.empty,
        },
        className: styles.body,
      }}
      pager={{
        page: paging.page,
        lastPage,
        pageSize: paging.pageSize,
        narrow,
        onChange: (change) => setPaging((previous) => ('page' in change ? { ...previous, page: change.page } : { page: 1, pageSize: change.pageSize })),
        testId: 'card-activity-pager',
      }}
      className={styles.section}
    >
      <ActivityList items={items} loading={list.isPlaceholderData} linkCards={false} />
    </ListSection>
  );
}
