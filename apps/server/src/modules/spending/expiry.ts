import { authorizationExpiredReason } from '@portal/contract/card-spending';
import { fromMinorUnits } from '@portal/contract/money';
import type { JobQueue } from '../../jobs/queue.ts';
import { cardName, cardNotices } from '../cards/service.ts';
import type { SpendingDeps } from './deps.ts';
import type { settlementPart } from './settlement.ts';
import { findAuthorization, pendingAuthorizationsBefore } from './store.ts';

/** The queue of the job that releases the holds the issuer never settled nor reversed. */
export const HOLD_EXPIRY_QUEUE = 'card-hold-expiry';

/** Every hour at minute 17 (UTC): a hold is released within the hour after its days are up. */
const HOLD_EXPIRY_CRON = '17 * * * *';

/** Holds the issuer left pending past their days, released. */
export function expiryPart({ db, clock, messages, cards }: Pick<SpendingDeps, 'db' | 'clock' | 'messages' | 'cards'>, settlement: Pick<ReturnType<typeof settlementPart>, 'letGo'>) {
  const { letGo } = settlement;

  /**
   * The hourly job: authorisations the issuer neither settled nor reversed within `expiryDays` have
   * their holds released, back to the card's available or, on a cancelled card, to the wallet; the
   * holder is told. A settlement arriving later is charged as one after a reversal. Answers how many.
   */
  async function expireHolds(expiryDays: number) {
    const before = new Date(clock.now().getTime() - expiryDays * 86_400_000);
    let count = 0;
    for (;;) {
      const due = await pendingAuthorizationsBefore(db, before, 100);
      if (due.length === 0) return count;
      for (const { cardId, authorizationId } of due) {
        const released = await db.transaction(async (tx) => {
          const card = await cards.lockForEvent(tx, cardId);
          const row = card ? await findAuthorization(tx, card.id, authorizationId) : undefined;
          // settled, reversed or expired by another process meanwhile
          if (!card || !row || row.status !== 'PENDING') return false;
          const closed = card.status === 'DELETE';
          await letGo(tx, card, row, authorizationExpiredReason(expiryDays, closed), '过期释放的预授权金额');
          if (!closed) {
            await messages.post(tx, {
              merchantId: card.merchantId,
              accountId: card.accountId,
              holderMemberId: card.holderMemberId,
              type: 'CARD_HOLD_EXPIRED',
              status: 'success',
              ...cardNotices.holdExpired({ card: cardName(card), merchant: row.merchantName ?? '', amount: fromMinorUnits(row.amount), currency: card.currency, days: expiryDays }),
            });
          }
          return true;
        });
        // a row another process took meanwhile is not counted, and is not found again
        if (released) count += 1;
      }
    }
  }

  return { expireHolds };
}

/**
 * Registers the hold-expiry job: scheduled, so it runs once an hour across all processes (pg-boss keeps
 * the schedule in the database), and not retried, the next hour being the retry.
 */
export function holdExpiryPart(spending: { expireHolds(expiryDays: number): Promise<number> }, jobs: Pick<JobQueue, 'work' | 'schedule'>, expiryDays: number) {
  jobs.work<Record<string, never>>(HOLD_EXPIRY_QUEUE, async () => void (await spending.expireHolds(expiryDays)), { retryLimit: 0 });
  jobs.schedule(HOLD_EXPIRY_QUEUE, HOLD_EXPIRY_CRON);
  return { expire: () => spending.expireHolds(expiryDays) };
}
