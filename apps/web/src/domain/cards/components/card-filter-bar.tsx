import { cardLimits } from '@portal/contract/cards';
import { CARD_SORTS, type CardSort } from '@portal/contract/card-list';
import { CARD_STATUSES, cardStatusLabel } from '@portal/contract/enums';
import { Button, Select } from 'antd';
// the search field alone: antd's compound Input would bring the password field's code along, which
// the sign-in page then shares in a chunk of its own
import Search from 'antd/es/input/Search';
import { useEffect, useState } from 'react';
import { primaryControl } from '../../../lib/primary-control.ts';
import { cardListText } from '../../../locales/zh-CN/card-list.ts';
import { teamText } from '../../../locales/zh-CN/team.ts';
import { type CardFilters, hasCardFilters } from '../lib/card-filters.ts';
import styles from './card-filter-bar.module.css';

const text = cardListText.filters;
const statusOptions = CARD_STATUSES.map((status) => ({ value: status, label: cardStatusLabel[status] }));
const sortOptions = CARD_SORTS.map((sort) => ({ value: sort, label: cardListText.sorts[sort] }));

interface CardFilterBarProps {
  filters: CardFilters;
  products: { id: string; name: string }[];
  /** the team's members to filter by (持卡成员), for the roles that may see the team; none: no such filter */
  holders?: { id: string; label: string }[];
  /** the tags on the member's cards with their counts; none: no tag filter */
  tags?: { tag: string; count: number }[];
  /** the list's sort, chosen here where no column header offers it (narrow screens) */
  sort?: { value: CardSort; onChange: (sort: CardSort) => void };
  onChange: (filters: CardFilters) => void;
}

/** Statuses (several at once), product, tag and holder apply at once; the search applies on Enter or its button, and when cleared. */
export function CardFilterBar({ filters, products, holders, tags, sort, onChange }: CardFilterBarProps) {
  const [keyword, setKeyword] = useState(filters.keyword ?? '');
  // the address is the truth: back, forward and 重置 show their keyword in the box
  useEffect(() => setKeyword(filters.keyword ?? ''), [filters.keyword]);

  const change = (patch: Partial<CardFilters>) => {
    const next: CardFilters = { ...filters, ...patch };
    for (const key of Object.keys(next) as (keyof CardFilters)[]) {
      const value = next[key];
      if (!value || (Array.isArray(value) && value.length === 0)) delete next[key];
    }
    onChange(next);
  };

  return (
    <fieldset className={styles.bar} aria-label={text.label} data-testid="card-filters" {...primaryControl}>
      <Select
        className={`${styles.status} ${styles.half}`}
        aria-label={text.status}
        placeholder={text.allStatuses}
        allowClear
        mode="multiple"
        maxTagCount="responsive"
        value={filters.statuses ?? []}
        options={statusOptions}
        onChange={(value: CardFilters['statuses']) => change({ statuses: value })}
        data-testid="filter-status"
      />
      <Select
        className={`${styles.product} ${styles.half}`}
        aria-label={text.product}
        placeholder={text.allProducts}
        allowClear
        value={filters.product ?? null}
        options={products.map((product) => ({ value: product.id, label: product.name }))}
        onChange={(value) => change({ product: value ?? undefined })}
        data-testid="filter-product"
      />
      {tags ? (
        <Select
          className={`${styles.tag} ${styles.half}`}
          aria-label={text.tag}
          placeholder={text.allTags}
          allowClear
          showSearch
          value={filters.tag ?? null}
          options={tags.map((item) => ({ value: item.tag, label: text.tagOption(item.tag, item.count) }))}
          onChange={(value) => change({ tag: value ?? undefined })}
          data-testid="filter-tag"
        />
      ) : null}
      {holders ? (
        <Select
          className={styles.product}
          aria-label={teamText.holder.filter}
          placeholder={teamText.holder.allHolders}
          allowClear
          value={filters.holder ?? null}
          options={holders.map((holder) => ({ value: holder.id, label: holder.label }))}
          onChange={(value) => change({ holder: value ?? undefined })}
          data-testid="filter-holder"
        />
      ) : null}
      <Search
        className={styles.keyword}
        aria-label={text.keyword}
        placeholder={text.keywordPlaceholder}
        allowClear
        maxLength={cardLimits.keywordMax}
        value={keyword}
        onChange={(event) => {
          setKeyword(event.target.value);
          // the clear button empties the box: the list follows
          if (event.target.value === '' && filters.keyword) change({ keyword: undefined });
        }}
        onSearch={(value) => change({ keyword: value.trim() || undefined })}
        data-testid="filter-keyword"
      />
      {sort ? (
        <Select
          className={`${styles.sort} ${styles.half}`}
          aria-label={text.sort}
          value={sort.value}
          options={sortOptions}
          onChange={(value) => sort.onChange(value)}
          data-testid="list-sort"
        />
      ) : null}
      <Button className={styles.reset} onClick={() => onChange({})} disabled={!hasCardFilters(filters)}>
        {text.reset}
      </Button>
    </fieldset>
  );
}
