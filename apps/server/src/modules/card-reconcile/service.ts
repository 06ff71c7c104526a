import { reconcilePart } from './reconcile.ts';

export type { BatchesSeen, CardReconciled, ReconcileDeps, ReconcileReport } from './reconcile.ts';
export { CARD_RECONCILE_QUEUE } from './reconcile.ts';

/**
 * The reconciliation of cards with the issuer: cards whose issuer events were lost are asked about (a
 * job every minute and at each start, and `ops card:reconcile`), and settled by the same handlers.
 */
export const createCardReconciler = reconcilePart;

export type CardReconciler = ReturnType<typeof reconcilePart>;
