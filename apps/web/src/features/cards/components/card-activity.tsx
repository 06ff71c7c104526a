import type { CardItem } from '@portal/contract/cards';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { ListSection } from '../../../domain/lists/components/list-section.tsx';
import { ActivityLines } from '../../../domain/team/components/activity-lines.tsx';
import { useNarrowScreen } from '../../../lib/use-narrow-screen.ts';
import { cardDetailsText } from '../../../locales/zh-CN/card-details.ts';
import { cardActivityKey, useCardActivity } from '../api/get-card-activity.ts';
import styles from './card-activity.module.css';

const PAGE_SIZE = 10;
const text = cardDetailsText.activity;

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
    void queryClient.invalidateQueries({ queryKey: cardActivityKey(card.id) });
  }, [version, card.id, queryClient]);

  const items = list.data?.items ?? [];
  return (
    <ListSection
      titleId="card-activity-title"
      title={text.title}
      list={list}
      totalText={text.total}
      totalTestId="card-activity-total"
      filters={null}
      states={{
        skeletonRows: 3,
        failed: { title: text.loadFailed, retryText: text.retry, testId: 'card-activity-failed' },
        empty: {
          shown: items.length === 0,
          filtered: false,
          text: text.empty,
          filteredText: text.empty,
          resetText: text.retry,
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
      <ActivityLines items={items} loading={list.isPlaceholderData} cardLinks={false} />
    </ListSection>
  );
}
