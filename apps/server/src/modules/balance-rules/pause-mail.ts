import { randomUUID } from 'node:crypto';
import type { Tx } from '../../db/engine.ts';
import { type BalanceRuleDeps, FUNDING_QUEUES } from './deps.ts';
import { claimPauseMail, duePauseMails, insertPauseMails, markPauseMailed, releasePauseMail } from './tag-store.ts';

/** How long a claim on a pause e-mail holds: a process that dies holding it leaves it to the next run after this. */
export const PAUSE_MAIL_LEASE_SECONDS = 120;

/**
 * The e-mails of a paused rule: written in the pause's own transaction (one row per recipient), sent after
 * it commits by a job that claims each row for a while and marks it sent only once it went out. A crash
 * between the commit and the send loses nothing: the job sent with the pause runs again, and the sweep
 * every minute takes any row whose claim ran out.
 */
export function pauseMailPart({ db, clock, mail, jobs, log }: Pick<BalanceRuleDeps, 'db' | 'clock' | 'mail' | 'jobs' | 'log'>) {
  /** Inside the pause's transaction: its e-mails, and the job that sends them once it commits. */
  async function queue(tx: Tx, pause: { merchantId: string; accountId: string; cardId: string; runId: string; to: readonly string[]; subject: string; body: string }) {
    const now = clock.now();
    await insertPauseMails(
      tx,
      pause.to.map((recipient) => ({
        id: randomUUID(),
        merchantId: pause.merchantId,
        accountId: pause.accountId,
        cardId: pause.cardId,
        runId: pause.runId,
        recipient,
        subject: pause.subject,
        body: pause.body,
        createdAt: now,
      })),
    );
    if (pause.to.length > 0) await jobs.send(FUNDING_QUEUES.pauseMail, { run_id: pause.runId }, { tx });
  }

  /** Sends every e-mail due (unsent, unclaimed or its claim run out), each under its own claim; answers how many went out. */
  async function sendDue(limit = 200) {
    let sent = 0;
    for (;;) {
      const due = await duePauseMails(db, clock.now(), limit);
      let claimed = 0;
      for (const row of due) {
        const now = clock.now();
        const until = new Date(now.getTime() + PAUSE_MAIL_LEASE_SECONDS * 1000);
        if (!(await claimPauseMail(db, row.id, now, until))) continue;
        claimed += 1;
        try {
          await mail.send({ to: row.recipient, subject: row.subject, text: row.body });
        } catch (error) {
          await releasePauseMail(db, row.id, until);
          log.error({ err: error, card_id: row.cardId }, 'auto top-up pause e-mail not sent; it is tried again by the next run');
          continue;
        }
        await markPauseMailed(db, row.id, until, clock.now());
        sent += 1;
      }
      if (due.length < limit || claimed === 0) return sent;
    }
  }

  jobs.work(FUNDING_QUEUES.pauseMail, async () => {
    await sendDue();
  });
  jobs.schedule(FUNDING_QUEUES.pauseMail, '* * * * *');

  return { queue, sendDue };
}
