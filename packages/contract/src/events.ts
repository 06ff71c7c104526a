/**
 * Constants of the event stream (GET /api/v1/events, spec §7). This file imports nothing, so the
 * portal's event client loads it without the schema library; messages.ts re-exports it.
 */

/** Event types besides a message's own type (NOTICE, FREEZE, ANNOUNCEMENT, …). */
export const EVENT_TYPES = {
  heartbeat: 'HEARTBEAT',
  /** unread count changed without a new message (marked read elsewhere) */
  unread: 'UNREAD_QUANTITY',
  /**
   * money moved in or out of the account's wallet or cards: carries the wallet's balances and what
   * its cards hold after it, as GET /balance/account-balance and /balance/card-amount answer them
   */
  balance: 'BALANCE_CHANGED',
  /** a card of the account changed status (the issuer answered, the operator froze it): card_id, card_status */
  cardStatus: 'CARD_STATUS',
  /**
   * a card's transaction was written or changed (an authorisation approved or declined, settled,
   * reversed, refunded, adjusted): card_id, transaction_id, transaction_type, status, amount, currency,
   * merchant_name, decline_code (null unless declined)
   */
  cardTransaction: 'CARD_TRANSACTION',
  /** the issuer asks for a 3-D Secure code: the fields of card-spending.ts threeDsOtp */
  threeDs: 'THREE_DS_OTP',
  /** a batch's figures moved (a card issued or failed, the batch ended): card-batches.ts batchProgressEvent */
  batchProgress: 'BATCH_PROGRESS',
  /** a bulk action's figures moved (a card acted on, the action ended): card-bulk.ts BulkProgressEvent */
  bulkProgress: 'BULK_ACTION_PROGRESS',
  /** a USDT deposit of the account was seen or gained confirmations: deposit_id, confirmations, status */
  depositProgress: 'DEPOSIT_PROGRESS',
  /** an export's figures moved (rows written, done, failed): export_id, status, done, total */
  exportProgress: 'EXPORT_PROGRESS',
  /**
   * the last event of a stream whose session was ended (logged out elsewhere, ended in the security
   * centre, or by a password change): `error_code` 608 and its `message`. The tab logs out on it at once, as on
   * a call refused with 608, instead of finding out when it next connects.
   */
  sessionEnded: 'SESSION_ENDED',
} as const;

/** Seconds between heartbeats; the portal gives up on a stream silent for 60 s. */
export const HEARTBEAT_SECONDS = 20;

/** A stream silent this long is taken as broken and reconnected (spec §9). */
export const HEARTBEAT_TIMEOUT_SECONDS = 60;

/** Open streams one session may hold (its tabs); a newer one closes the oldest. */
export const MAX_STREAMS_PER_SESSION = 10;

