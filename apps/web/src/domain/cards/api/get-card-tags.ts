import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import * as cardCalls from '../../../lib/generated/cards-calls.ts';
import { cardKeys } from './card-keys.ts';

/** GET /card/tags: each tag on the cards the member sees, with how many carry it, the most used first. */
export const getCardTags = () => call(cardCalls.tagCounts, {});

export const getCardTagsQueryOptions = () => queryOptions({ queryKey: cardKeys.tags(), queryFn: getCardTags, staleTime: 30_000 });

export const useCardTags = (enabled = true) => useQuery({ ...getCardTagsQueryOptions(), enabled });
