import { z } from 'zod';
import { cardLimits, cardTagRules } from './cards.ts';
import { CARD_STATUSES, type CardStatus } from './enums.ts';

/**
 * Finding cards (GET /card's query): the sorts, the filter (several statuses, product, keyword, tag,
 * holder) that the list, the exports and the bulk actions share, and a card's tags with their rules.
 */

/**
 * What GET /card sorts by; a leading `-` sorts descending. Ties are broken by the card's id, the same way.
 * spent_this_month, decline_rate_30d and last_used_at sort by the figures the card shows (cards.ts: this
 * China month's spend, the last 30 China days' decline rate, the latest authorisation): the card sorted
 * first shows the largest.
 */
export const CARD_SORT_KEYS = ['created_at', 'balance', 'spent_this_month', 'decline_rate_30d', 'last_used_at'] as const;
export type CardSortKey = (typeof CARD_SORT_KEYS)[number];
export const CARD_SORTS = [...CARD_SORT_KEYS, ...CARD_SORT_KEYS.map((key) => `-${key}` as const)] as const;
export type CardSort = (typeof CARD_SORTS)[number];
/** Newest first, as the list always was. */
export const DEFAULT_CARD_SORT: CardSort = '-created_at';

/** A sort as its key and direction. */
export const parseCardSort = (sort: CardSort) =>
  sort.startsWith('-') ? { key: sort.slice(1) as CardSortKey, descending: true } : { key: sort as CardSortKey, descending: false };

export const cardListMessages = {
  status: '卡片状态不正确',
  tag: `标签须为1-${cardTagRules.maxLength}个字符`,
  tags: `每张卡片最多${cardTagRules.perCard}个标签`,
  tagRepeated: '标签重复：{tag}',
} as const;

/** Several statuses as the query writes them: `NORMAL,FREEZE` (a list of one is one status). */
export const cardStatusList = z
  .string()
  .max(200)
  .transform((text, ctx) => {
    const statuses = [...new Set(text.split(',').map((part) => part.trim()).filter((part) => part !== ''))];
    for (const status of statuses) {
      if (!(CARD_STATUSES as readonly string[]).includes(status)) {
        ctx.addIssue({ code: 'custom', message: cardListMessages.status });
        return z.NEVER;
      }
    }
    return statuses as CardStatus[];
  });

/** One tag as kept: trimmed, 1–20 characters, no control characters. */
export const cardTagRule = (value: string) => {
  const tag = value.trim();
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (tag === '' || [...tag].length > cardTagRules.maxLength || /[\u0000-\u001f\u007f]/.test(tag)) return cardListMessages.tag;
  return null;
};

/** One tag in a body (a card's tags, a bulk action's): trimmed, then held to cardTagRule. */
export const cardTagText = z
  .string()
  .trim()
  .superRefine((tag, ctx) => {
    const problem = cardTagRule(tag);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** A search text no longer than the longest tag, counted in characters as tags are (not UTF-16 units). */
const searchText = (max: number) =>
  z
    .string()
    .trim()
    .refine((text) => [...text].length <= max, { message: cardListMessages.tag });

/**
 * The cards a filter chooses (GET /card's query fields, and what a bulk action names by `filter`):
 * statuses, product, a keyword (a nickname's part, the last four digits, the BIN's first 6–8 digits,
 * or a whole tag), a tag, the member who holds them.
 */
export const cardListFilter = z.object({
  status: cardStatusList.optional(),
  product_id: z.string().max(100).optional(),
  keyword: searchText(Math.max(cardLimits.keywordMax, cardTagRules.maxLength)).optional(),
  tag: searchText(cardTagRules.maxLength).optional(),
  /** only the cards this member holds */
  holder_member_id: z.string().max(100).optional(),
});
export type CardListFilter = z.infer<typeof cardListFilter>;

/** A filter as the query (and a stored selection) writes it: statuses as a comma list, unset fields left out. */
export function cardFilterQuery(filter: CardListFilter): z.input<typeof cardListFilter> {
  return {
    ...(filter.status && filter.status.length > 0 ? { status: filter.status.join(',') } : {}),
    ...(filter.product_id ? { product_id: filter.product_id } : {}),
    ...(filter.keyword ? { keyword: filter.keyword } : {}),
    ...(filter.tag ? { tag: filter.tag } : {}),
    ...(filter.holder_member_id ? { holder_member_id: filter.holder_member_id } : {}),
  };
}

export const cardListQuery = cardListFilter.extend({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(cardLimits.pageSizeMax).default(20),
  sort: z.enum(CARD_SORTS).default(DEFAULT_CARD_SORT),
});
export type CardListQuery = z.infer<typeof cardListQuery>;

/** PUT /card/{id}/tags: the card's whole set of tags, each trimmed; at most 10, each 1–20 characters, none twice. */
export const cardTagsBody = z.object({
  tags: z
    .array(z.string().max(200))
    .max(cardTagRules.perCard, cardListMessages.tags)
    .transform((tags, ctx) => {
      const kept: string[] = [];
      for (const [index, value] of tags.entries()) {
        const tag = value.trim();
        const problem = cardTagRule(value) ?? (kept.includes(tag) ? cardListMessages.tagRepeated.replace('{tag}', tag) : null);
        if (problem) ctx.addIssue({ code: 'custom', path: [index], message: problem });
        else kept.push(tag);
      }
      return kept;
    }),
});
export type CardTagsBody = z.input<typeof cardTagsBody>;

/** GET /card/tags: each tag on the caller's cards, with how many cards carry it (most first). */
export const cardTagsAnswer = z.object({ items: z.array(z.object({ tag: z.string(), count: z.number().int() })) });
export type CardTagsAnswer = z.infer<typeof cardTagsAnswer>;
