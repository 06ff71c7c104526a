import type { JobQueue } from '../../jobs/queue.ts';
import type { CardService } from './service.ts';

/** The queue of the job that releases the holds the issuer never settled nor reversed. */
export const HOLD_EXPIRY_QUEUE = 'card-hold-expiry';

/** Every hour at minute 17 (UTC): a hold is released within the hour after its days are up. */
const HOLD_EXPIRY_CRON = '17 * * * *';

/**
 * Registers the hold-expiry job: scheduled, so it runs once an hour across all processes (pg-boss keeps
 * the schedule in the database), and not retried, the next hour being the retry.
 */
export function holdExpiryPart(cards: Pick<CardService, 'expireHolds'>, jobs: Pick<JobQueue, 'work' | 'schedule'>, expiryDays: number) {
  jobs.work<Record<string, never>>(HOLD_EXPIRY_QUEUE, async () => void (await cards.expireHolds(expiryDays)), { retryLimit: 0 });
  jobs.schedule(HOLD_EXPIRY_QUEUE, HOLD_EXPIRY_CRON);
  return { expire: () => cards.expireHolds(expiryDays) };
}
