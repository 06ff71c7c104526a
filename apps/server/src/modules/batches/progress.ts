import type { BatchProgressEvent, BatchStatusAnswer } from '@portal/contract/card-batches';
import { EVENT_TYPES } from '@portal/contract/events';
import type { Tx } from '../../db/engine.ts';
import { type CardRow, cardNotices } from '../cards/service.ts';
import type { BatchDeps } from './deps.ts';
import { type BatchRow, failedCardsOf, lockBatch, updateBatch } from './store.ts';

/** The status call's answer for a batch (null: the account never ran one). */
export function batchStatusOf(batch: BatchRow | undefined): BatchStatusAnswer {
  if (!batch) {
    return {
      exist: false,
      success_count: 0,
      fail_count: 0,
      total_count: 0,
      batch_id: null,
      status: null,
      product_id: null,
      nickname_prefix: null,
      message_id: null,
      created_at: null,
      finished_at: null,
    };
  }
  return {
    exist: batch.status === 'RUNNING',
    success_count: batch.successCount,
    fail_count: batch.failCount,
    total_count: batch.quantity,
    batch_id: batch.id,
    status: batch.status as BatchStatusAnswer['status'],
    product_id: batch.productId,
    nickname_prefix: batch.nicknamePrefix,
    message_id: batch.messageId,
    created_at: batch.createdAt.toISOString(),
    finished_at: batch.finishedAt?.toISOString() ?? null,
  };
}

/**
 * The open tabs of the members who see the batch's cards hear its figures once `tx` commits: who
 * started it (its cards are theirs) and the roles that see every card.
 */
export function announceBatch(deps: Pick<BatchDeps, 'events'>, tx: Tx, batch: BatchRow, startedBy: string) {
  const status = batchStatusOf(batch);
  const payload: BatchProgressEvent = {
    batch_id: batch.id,
    status: status.status,
    success_count: status.success_count,
    fail_count: status.fail_count,
    total_count: status.total_count,
    message_id: status.message_id,
  };
  return deps.events.toAccount(tx, batch.merchantId, batch.accountId, EVENT_TYPES.batchProgress, payload, { audience: { card: startedBy } });
}

/**
 * A card of a batch was issued or failed (inside `tx`, the card locked and settled exactly once by
 * completeOpening or failOpening): the batch counts it. The last card ends the batch: SUCCESS, or FAIL
 * with one station message listing every failed card and why.
 */
export async function batchCardSettled(deps: Pick<BatchDeps, 'events' | 'webhooks' | 'messages' | 'clock'>, tx: Tx, card: Pick<CardRow, 'batchId' | 'status' | 'currency' | 'holderMemberId'>) {
  if (!card.batchId) return;
  const batch = await lockBatch(tx, card.batchId);
  if (batch?.status !== 'RUNNING') return;
  const successCount = batch.successCount + (card.status === 'NORMAL' ? 1 : 0);
  const failCount = batch.failCount + (card.status === 'FAIL' ? 1 : 0);
  const ended = successCount + failCount >= batch.quantity;
  let messageId: string | null = null;
  if (ended && failCount > 0) {
    const failed = await failedCardsOf(tx, batch.id);
    const message = await deps.messages.post(tx, {
      merchantId: batch.merchantId,
      accountId: batch.accountId,
      // the batch's cards are held by who opened it
      holderMemberId: card.holderMemberId,
      type: 'BATCH_CARD_RESULT',
      status: 'fail',
      ...cardNotices.batchResult({
        quantity: batch.quantity,
        prefix: batch.nicknamePrefix,
        success: successCount,
        fail: failCount,
        failed: failed.map((row) => ({ nickname: row.nickname, reason: row.reason ?? '发卡机构未能开通此卡' })),
        currency: card.currency,
      }),
    });
    messageId = message.id;
  }
  const updated = await updateBatch(tx, batch.id, {
    successCount,
    failCount,
    ...(ended ? { status: failCount > 0 ? 'FAIL' : 'SUCCESS', finishedAt: deps.clock.now(), messageId } : {}),
  });
  await announceBatch(deps, tx, updated, card.holderMemberId);
  if (ended) {
    await deps.webhooks?.emit(tx, {
      merchantId: updated.merchantId,
      accountId: updated.accountId,
      type: 'batch.finished',
      data: { batch_id: updated.id, status: updated.status, total_count: updated.quantity, success_count: updated.successCount, fail_count: updated.failCount },
    });
  }
}
