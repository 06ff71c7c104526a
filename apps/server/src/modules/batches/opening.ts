import { randomUUID } from 'node:crypto';
import { type BatchCreateCardBody, type BatchStatusAnswer, batchNickname, CardBatchErrorCode } from '@portal/contract/card-batches';
import type { Currency } from '@portal/contract/enums';
import { ErrorCode } from '@portal/contract/errors';
import { toMinorUnits } from '@portal/contract/money';
import type { Tx } from '../../db/engine.ts';
import type { JobInfo } from '../../jobs/queue.ts';
import { cardBatchCalls } from '@portal/contract/api/card-batches';
import { traceWithin } from '../../http/call-trace.ts';
import { AppError } from '../../http/errors.ts';
import { IssuerUnavailable } from '../../providers/issuer/port.ts';
import { fingerprintOf, onceUnderKey, replayOf } from '../../lib/keyed-call.ts';
import { useBudget } from '../budgets/service.ts';
import type { CardScope } from '../cards/service.ts';
import type { BatchDeps, ProductsForBatches } from './deps.ts';
import { announceBatch, batchStatusOf } from './progress.ts';
import { findBatchByKey, findCurrentBatch, findRunningBatch, insertBatch, insertCards, type NewCard } from './store.ts';

/** The queue whose jobs ask the issuer for one card of a batch each. */
export const BATCH_OPEN_QUEUE = 'card-batch-open';

/** What a batch card's job carries: the card, and its product as the issuer is asked about it. */
interface OpenJob {
  card_id: string;
  product: { bin: string; brand: 'VISA' | 'MASTERCARD'; currency: Currency };
}

/** The ledger's key of a batch's hold, and the reference its holds carry. */
const batchHoldKey = (batchId: string) => `batch:${batchId}:hold`;
const batchReference = (batchId: string) => `batch:${batchId}`;

export interface BatchOptions {
  /** batch cards asked of the issuer at once, per process */
  concurrency: number;
}

/**
 * Batch card opening (POST /batch-create-card). Accepting a batch is one transaction: the checks of a
 * single opening for all its cards at once (verification, quota, the product's batch limit, money, a
 * frozen wallet), the whole cost held in one ledger operation with each card's share as holds of its
 * own (its opening fee; its first load with the top-up fee), every card made (CARD_STATUS_INIT, named
 * PREFIX-001 …), and a durable job per card. A refusal holds nothing and makes nothing.
 *
 * Each job asks the issuer for its card; the issuer's answer arrives on the webhook and goes the way
 * of a single card's (completeOpening posts the card's holds, failOpening releases them), which counts
 * the card in its batch exactly once (progress.ts). A job whose process dies is taken up again by
 * any process after the heartbeat lapses; the issuer opens one card per card id however often it is
 * asked, and a card already answered is not asked again.
 */
export function batchPart(deps: Pick<BatchDeps, 'db' | 'clock' | 'ledger' | 'issuer' | 'events' | 'cards' | 'products' | 'jobs'>, options: BatchOptions) {
  const { db, clock, ledger, issuer, cards, products, jobs } = deps;
  const checkHolder: ProductsForBatches['checkHolder'] = products.checkHolder;

  async function openOne(data: OpenJob, job: JobInfo) {
    const card = await cards.find(data.card_id);
    if (card?.status !== 'CARD_STATUS_INIT') return;
    const holder = await products.holderOf(card.merchantId, card.accountId);
    await ledger.openCardAccount(db, { merchantId: card.merchantId, accountId: card.accountId, cardId: card.id, currency: card.currency as Currency });
    try {
      await issuer.openCard({
        card_id: card.id,
        product: data.product,
        holder,
      });
    } catch (error) {
      // the issuer did not take it: asked again later while attempts are left, then the card fails
      if (!(error instanceof IssuerUnavailable) || job.retryCount < job.retryLimit) throw error;
      await cards.failStillOpening(card.id);
    }
  }

  jobs.work<OpenJob>(BATCH_OPEN_QUEUE, openOne, { concurrency: options.concurrency, retryLimit: 3, retryDelay: 2, expireInSeconds: 120 });

  /** The batch under the account's key, as the keyed layer compares it: its fingerprint, and its answer. */
  const underKey = async (tx: Tx, merchantId: string, accountId: string, key: string) => {
    const batch = await findBatchByKey(tx, merchantId, accountId, key);
    return batch && { fingerprint: batch.openFingerprint, answer: { batch_id: batch.id } };
  };
  const conflict = () => new AppError(ErrorCode.IDEMPOTENCY_CONFLICT);
  const running = (batchId: string | undefined) => new AppError(CardBatchErrorCode.BATCH_RUNNING, { data: { batch_id: batchId ?? null } });

  return {
    /** Whether the account's batch request under its Idempotency-Key was accepted (a refused one left nothing). */
    async answeredUnderKey(merchantId: string, accountId: string, key: string) {
      return (await findBatchByKey(db, merchantId, accountId, key)) !== undefined;
    },

    /** POST /batch-create-card: the batch accepted, or refused whole; the same key answers the same batch. */
    async create(merchantId: string, accountId: string, body: BatchCreateCardBody, key: string, holderMemberId = accountId) {
      const prefix = body.nickname_prefix.trim();
      const fingerprint = fingerprintOf(['batch', body.product_id, body.quantity, toMinorUnits(body.amount), prefix]);
      return onceUnderKey({
        fingerprint,
        earlier: () => underKey(db, merchantId, accountId, key),
        conflict,
        work: () => accept(merchantId, accountId, body, key, fingerprint, holderMemberId),
        // another batch accepted in between
        otherwise: async () => {
          throw running((await findRunningBatch(db, accountId))?.id);
        },
      });
    },

    /**
     * GET /card/batch-create-card-status: the scope's running batch, else its latest; a caller who sees
     * only the cards they hold (scope.ts) sees only the batches they started.
     */
    async status(merchantId: string, scope: CardScope): Promise<BatchStatusAnswer> {
      return batchStatusOf(await findCurrentBatch(db, merchantId, scope.accountId, scope.heldBy));
    },
  };

  /**
   * The batch accepted in one transaction, or refused whole: the product's batch limit, then under the
   * account's lock its verification, the one running batch and the quota, the cost held, the cards made
   * and a job sent for each.
   */
  async function accept(merchantId: string, accountId: string, body: BatchCreateCardBody, key: string, fingerprint: string, holderMemberId: string) {
    const prefix = body.nickname_prefix.trim();
    const { product, currency, amount, openFee, topupFee, feeTerms } = await products.productToOpen(merchantId, body.product_id, body.amount);
    if (body.quantity > product.maxPerBatch) {
      throw new AppError(CardBatchErrorCode.BATCH_OVER_PRODUCT_MAX, { params: { max: product.maxPerBatch }, data: { max: product.maxPerBatch } });
    }
    const perCard = openFee + amount + topupFee;
    const batchId = randomUUID();
    const cardIds = Array.from({ length: body.quantity }, () => randomUUID());
    const jobProduct = { bin: product.bin, brand: product.brand as OpenJob['product']['brand'], currency };

      return db.transaction(async (tx) => {
        // the account's openings one at a time: the quota and the one running batch are counted under this lock
        const verification = await products.lockHolder(tx, merchantId, accountId);
        // the same key accepted while this one waited for the lock: its batch, not a refusal as another batch
        const accepted = await underKey(tx, merchantId, accountId, key);
        if (accepted) return replayOf(accepted, fingerprint, conflict);
        checkHolder(product, verification);
        const other = await findRunningBatch(tx, accountId);
        if (other) throw running(other.id);
        await products.checkQuota(tx, accountId, product, body.quantity, { sayRemaining: true });
        const now = clock.now();
        // the whole held cost against the holder's budget; each card that fails gives its share back
        await useBudget(tx, holderMemberId, perCard * BigInt(body.quantity), currency, now);
        // the whole cost at once, as each card's own holds: a refusal (too little, a frozen wallet) holds nothing
        const parts = cardIds.flatMap(() => (openFee > 0n ? [openFee, amount + topupFee] : [amount + topupFee]));
        const held = await ledger.within(tx).holdFunds({
          merchantId,
          accountId,
          currency,
          amount: perCard * BigInt(body.quantity),
          parts,
          key: batchHoldKey(batchId),
          reference: batchReference(batchId),
          memo: `批量开卡 ${body.quantity} 张（${prefix}）`,
        });
        const holdIds = held.answer.holdIds ?? [];
        const per = openFee > 0n ? 2 : 1;
        const batch = await insertBatch(tx, {
          id: batchId,
          merchantId,
          accountId,
          productId: product.id,
          startedBy: holderMemberId,
          status: 'RUNNING',
          nicknamePrefix: prefix,
          quantity: body.quantity,
          amount,
          totalCost: perCard * BigInt(body.quantity),
          openKey: key,
          openFingerprint: fingerprint,
          createdAt: now,
        });
        const rows: NewCard[] = cardIds.map((id, index) => ({
          id,
          merchantId,
          accountId,
          holderMemberId,
          productId: product.id,
          nickname: batchNickname(prefix, index + 1),
          brand: product.brand,
          bin: product.bin,
          currency,
          status: 'CARD_STATUS_INIT',
          batchId,
          openKey: `batch:${batchId}:${index + 1}`,
          openFingerprint: fingerprint,
          firstLoad: amount,
          openFee,
          topupFee,
          ...feeTerms,
          feeHoldId: openFee > 0n ? (holdIds[index * per] ?? null) : null,
          loadHoldId: holdIds[index * per + per - 1] ?? null,
          // a moment apart, so the list shows PREFIX-001 … in the order they were asked for
          createdAt: new Date(now.getTime() + index),
          updatedAt: now,
        }));
        await insertCards(tx, rows);
        await jobs.sendMany(
          BATCH_OPEN_QUEUE,
          cardIds.map((id) => ({ data: { card_id: id, product: jobProduct } satisfies OpenJob, singletonKey: id })),
          { tx },
        );
        await announceBatch(deps, tx, batch, holderMemberId);
        await traceWithin(tx, cardBatchCalls.create, { batch_id: batch.id });
        return { batch_id: batch.id };
      });
  }
}

export type BatchPart = ReturnType<typeof batchPart>;
