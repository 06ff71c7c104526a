import type { Tx } from '../../db/engine.ts';
import type { CardRow } from '../cards/service.ts';
import type { BatchDeps } from './deps.ts';
import { type ExportOptions, exportPart } from './export.ts';
import { BATCH_OPEN_QUEUE, type BatchOptions, batchPart } from './opening.ts';
import { batchCardSettled } from './progress.ts';
import { batchesNow } from './store.ts';

export type { BatchDeps, CardsForBatches, ProductsForBatches } from './deps.ts';
export type { ExportOptions } from './export.ts';
export type { BatchOptions } from './opening.ts';
export { EXPORT_EXPIRE_QUEUE, EXPORT_WRITE_QUEUE } from './export.ts';
export { BATCH_OPEN_QUEUE } from './opening.ts';

/**
 * A batch counts its cards as their openings end (issued or failed, inside the card's transaction):
 * built from the events and messages alone, so the card service can be handed it before batches exist.
 */
export function createBatchProgress(deps: Pick<BatchDeps, 'events' | 'webhooks' | 'messages' | 'clock'>) {
  return { cardSettled: (tx: Tx, card: CardRow) => batchCardSettled(deps, tx, card) };
}

/** Batch card opening (POST /batch-create-card) and its status, with its durable job per card. */
export function createBatchService(deps: Omit<BatchDeps, 'sealer' | 'books' | 'messages' | 'gate'>, options: BatchOptions) {
  const { db, jobs } = deps;
  return {
    ...batchPart(deps, options),

    /** What the cards' reconciliation asks of the batches. */
    seen: {
      openingJobPending: (cardId: string) => jobs.unfinished(BATCH_OPEN_QUEUE, cardId),
      batchesNow: (ids: string[]) => batchesNow(db, ids),
    },
  };
}

/** Bulk export of the chosen cards to an .xlsx file, written by a durable job and kept 24 hours. */
export function createCardExportService(deps: Omit<BatchDeps, 'ledger' | 'issuer' | 'messages' | 'cards' | 'products'>, options: ExportOptions) {
  return exportPart(deps, options);
}

export type BatchService = ReturnType<typeof createBatchService>;
export type CardExportService = ReturnType<typeof createCardExportService>;
