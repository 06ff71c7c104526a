import { bulkActionAnswer, bulkActionBody, bulkActionCreated, bulkActionIdParams, bulkReview } from '../card-bulk.ts';
import { defineCalls, member } from './call.ts';

const tags = ['cards'];

/**
 * Bulk actions on up to 1,000 cards: the role each action needs (card-bulk.ts BULK_ACTION_ROLE) is
 * decided by the server once the body is read; reading the cards is what the call itself asks.
 */
export const cardBulkCalls = defineCalls({
  review: {
    method: 'POST',
    path: '/card/bulk-actions/review',
    body: bulkActionBody,
    answer: bulkReview,
    summary: 'What a bulk action would do: how many cards, and for money the whole cost and the wallet after (nothing moves)',
    tags,
    who: member('cards.read'),
  },
  create: {
    method: 'POST',
    path: '/card/bulk-actions',
    body: bulkActionBody,
    answer: bulkActionCreated,
    summary: 'Act on up to 1,000 cards at once; a job acts on each card once (Idempotency-Key; trx_password for money)',
    tags,
    who: member('cards.read'),
    movesMoney: true,
    idempotencyKey: true,
    tradePassword: 'sensitive',
  },
  status: {
    method: 'GET',
    path: '/card/bulk-actions/:id',
    params: bulkActionIdParams,
    answer: bulkActionAnswer,
    summary: "A bulk action's progress and each card's result",
    tags,
    who: member('cards.read'),
  },
});
