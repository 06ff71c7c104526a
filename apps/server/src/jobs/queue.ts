import os from 'node:os';
import { sql } from 'drizzle-orm';
import { fromDrizzle, fromPglite, type JobWithMetadata, PgBoss } from 'pg-boss';
import type { Database, Tx } from '../db/engine.ts';

/**
 * The durable job queue every module shares (pg-boss, in the database itself: the `pgboss` schema).
 * On the embedded database it runs on the same PGlite instance (pg-boss's PGlite backend); on
 * PostgreSQL it keeps a few connections of its own to the same database, so every server process
 * takes jobs from one queue and a job runs in one process at a time.
 *
 * Modules register what they do at composition time (`work`, `schedule`) and send jobs whenever
 * (`send`, inside their own transaction with `tx` so a job exists exactly when the rows it works on
 * do). The server starts the queue once it is built and stops it on close; a process that never
 * starts it (an operator command) can still send jobs for the servers to run.
 */

export interface JobInfo {
  id: string;
  /** 0 on the first attempt */
  retryCount: number;
  retryLimit: number;
}

/** Does one job; a throw fails this attempt (retried while attempts are left). */
export type JobHandler<T> = (data: T, job: JobInfo) => Promise<void>;

export interface WorkOptions {
  /** jobs of this queue run at once in this process (default 1; 0: none, other processes work them) */
  concurrency?: number;
  /** attempts after the first (default 2) */
  retryLimit?: number;
  /** seconds before a retry, doubled each time (default 2) */
  retryDelay?: number;
  /** a job not finished after this many seconds is taken as lost and retried (default 300) */
  expireInSeconds?: number;
  /**
   * pg-boss's queue policy (default 'standard'): 'short' keeps one queued job (per singletonKey),
   * 'singleton' one running, 'stately' one of each state
   */
  policy?: 'standard' | 'short' | 'singleton' | 'stately';
}

export interface SendOptions {
  /** on a 'short' or 'stately' queue (WorkOptions.policy): one queued job per key */
  singletonKey?: string;
  /** the caller's transaction: the job exists once it commits, and never if it rolls back */
  tx?: Tx;
  /** the job waits until then before it runs */
  startAfter?: Date;
}

export interface JobQueueOptions {
  /** how often a process checks for lost jobs (those of a process that died) and expired ones; default 10 s */
  superviseSeconds?: number;
  /** how often an idle worker looks for jobs besides being woken by new ones; default 2 s */
  pollSeconds?: number;
  log?: { warn(details: object, message: string): void; error(details: object, message: string): void };
  /**
   * A process that sends jobs and runs none (the operator command line): pg-boss over the process's own
   * database handle (on the embedded database shared by a server, its one connection), with no
   * supervision, schedules or workers. `start()` makes and reads the queues, so that a job sent inside a
   * transaction goes on that transaction's connection; `stop()` lets the process end.
   */
  sendOnly?: boolean;
}

interface Registration {
  name: string;
  handler: JobHandler<never>;
  options: WorkOptions;
}

/**
 * How long a running job's process may stay silent before the job counts as lost: the worker
 * confirms it every half of this, so a process killed mid-job gives its jobs back this long after.
 */
const HEARTBEAT_SECONDS = 10;

/** Which process ran a job, kept with the job's output (pgboss.job.output.by) for the operator. */
const RUN_BY = `${os.hostname()}:${process.pid}`;

export function createJobQueue(database: Database, options: JobQueueOptions = {}) {
  const superviseSeconds = options.superviseSeconds ?? 10;
  const pollSeconds = options.pollSeconds ?? 2;
  const sendOnly = options.sendOnly === true;
  const backend =
    database.kind === 'pglite'
      ? ({ db: fromPglite(database.pglite as NonNullable<Database['pglite']>), backend: 'pglite' } as const)
      : sendOnly
        ? ({ db: fromDrizzle(database.db as never, sql as never), backend: 'postgres' } as const)
        : ({ connectionString: database.url, max: 4, backend: 'postgres' } as const);
  const boss = new PgBoss({
    ...backend,
    ...(sendOnly ? { supervise: false, schedule: false } : {}),
    application_name: 'portal-jobs',
    useListenNotify: true,
    superviseIntervalSeconds: superviseSeconds,
    monitorIntervalSeconds: superviseSeconds,
    // nothing here reads pg-boss's own statistics
    monitorVacuum: false,
  } as ConstructorParameters<typeof PgBoss>[0]);
  boss.on('error', (error: unknown) => options.log?.error({ err: error }, 'job queue error'));
  boss.on('warning', (warning: unknown) => options.log?.warn({ warning }, 'job queue warning'));

  const registrations: Registration[] = [];
  const schedules: Array<{ name: string; cron: string }> = [];
  const atStart: Array<{ name: string; data: object; singletonKey?: string }> = [];
  let state: 'new' | 'starting' | 'started' | 'stopped' = 'new';
  let starting: Promise<void> | undefined;

  const queueOptions = (work: WorkOptions) => ({
    retryLimit: work.retryLimit ?? 2,
    retryDelay: work.retryDelay ?? 2,
    retryBackoff: true,
    expireInSeconds: work.expireInSeconds ?? 300,
    heartbeatSeconds: HEARTBEAT_SECONDS,
    notify: true,
  });

  async function ensureQueue(name: string, work: WorkOptions) {
    const existing = await boss.getQueue(name);
    if (existing) await boss.updateQueue(name, queueOptions(work));
    else await boss.createQueue(name, { ...queueOptions(work), policy: work.policy ?? 'standard' }).catch(async (error: unknown) => {
      // another process made it at the same moment
      if (!(await boss.getQueue(name))) throw error;
    });
  }

  async function startWorker({ name, handler, options: work }: Registration) {
    // 0: the queue is made and fed here, its jobs worked by other processes. A read of it puts it in
    // pg-boss's cache of queues, which a job sent inside a transaction would otherwise fill over another
    // connection (on the embedded database, the one connection that transaction holds: it would wait forever)
    if (work.concurrency === 0) {
      await boss.previewRedrive(name);
      return;
    }
    const concurrency = Math.max(1, work.concurrency ?? 1);
    await boss.work<unknown>(
      name,
      {
        batchSize: concurrency,
        // a full batch means more are waiting: fetch again at once rather than after the poll interval
        ...(concurrency > 1 ? { burstWhenBatchFull: true } : {}),
        includeMetadata: true,
        perJobResults: true,
        pollingIntervalSeconds: pollSeconds,
        // a retry or a lost job's return sends no notification: it is found by this poll
        notifyPollingIntervalSeconds: pollSeconds,
      },
      async (jobs) =>
        Promise.all(
          (jobs as Array<JobWithMetadata<unknown>>).map(async (job) => {
            try {
              // a cron tick's job carries no data of its own: handlers read an empty object, never null
              await (handler as JobHandler<unknown>)(job.data ?? {}, { id: job.id, retryCount: job.retryCount, retryLimit: job.retryLimit });
              return { id: job.id, status: 'completed' as const, output: { by: RUN_BY } };
            } catch (error) {
              options.log?.warn({ err: error, job: name, job_id: job.id, attempt: job.retryCount + 1 }, 'job attempt failed');
              return { id: job.id, status: 'failed' as const, output: { by: RUN_BY, message: (error as Error).message } };
            }
          }),
        ),
    );
  }

  return {
    /** Registers the handler of a queue; its workers start with the queue (or at once when it runs already). */
    work<T>(name: string, handler: JobHandler<T>, work: WorkOptions = {}) {
      const registration: Registration = { name, handler: handler as JobHandler<never>, options: work };
      registrations.push(registration);
      if (state === 'started' && !sendOnly) void ensureQueue(name, work).then(() => startWorker(registration));
    },

    /** A job on a queue registered with `work`; answers its id (null when a job with the singletonKey is queued already). */
    async send(name: string, data: object, send: SendOptions = {}) {
      return boss.send(name, data, {
        ...(send.singletonKey ? { singletonKey: send.singletonKey } : {}),
        ...(send.startAfter ? { startAfter: send.startAfter } : {}),
        ...(send.tx ? { db: fromDrizzle(send.tx as never, sql as never) } : {}),
      });
    },

    /** Many jobs on one queue in one statement (inside `tx` when given). */
    async sendMany(name: string, items: Array<{ data: object; singletonKey?: string }>, send: Pick<SendOptions, 'tx'> = {}) {
      if (items.length === 0) return;
      await boss.insert(
        name,
        items.map((item) => ({ data: item.data, ...(item.singletonKey ? { singletonKey: item.singletonKey } : {}) })),
        send.tx ? { db: fromDrizzle(send.tx as never, sql as never) } : undefined,
      );
    },

    /** Runs the queue's job on a cron schedule (UTC), once per tick across all processes. */
    schedule(name: string, cron: string) {
      schedules.push({ name, cron });
      if (state === 'started' && !sendOnly) void boss.schedule(name, cron, {});
    },

    /**
     * A job sent each time this process starts its queue, once its workers run: e.g. to look at what a
     * crash of the process left unfinished. On a 'stately' queue its singletonKey keeps it apart from the others.
     */
    sendAtStart(name: string, data: object, send: Pick<SendOptions, 'singletonKey'> = {}) {
      atStart.push({ name, data, ...send });
      if (state === 'started' && !sendOnly) void boss.send(name, data, send.singletonKey ? { singletonKey: send.singletonKey } : {});
    },

    /** Installs the queue's tables (first start), makes the queues and starts the workers and the schedules. */
    async start() {
      if (state !== 'new') return starting;
      state = 'starting';
      starting = (async () => {
        await boss.start();
        for (const registration of registrations) await ensureQueue(registration.name, registration.options);
        if (sendOnly) {
          // read once, each queue is in pg-boss's cache: a send inside a transaction asks nothing over another connection
          for (const { name } of registrations) await boss.previewRedrive(name);
          state = 'started';
          return;
        }
        for (const registration of registrations) await startWorker(registration);
        for (const { name, cron } of schedules) await boss.schedule(name, cron, {});
        for (const { name, data, singletonKey } of atStart) await boss.send(name, data, singletonKey ? { singletonKey } : {});
        state = 'started';
      })();
      return starting;
    },

    /** Stops taking jobs and waits (up to `timeoutSeconds`) for those running; unfinished ones are retried elsewhere or later. */
    async stop(timeoutSeconds = 10) {
      if (state === 'new' || state === 'stopped') {
        state = 'stopped';
        return;
      }
      await starting?.catch(() => {});
      state = 'stopped';
      await boss.stop({ graceful: true, timeout: timeoutSeconds * 1000 });
    },

    /**
     * Whether a job of the queue sent with this singletonKey is still to run (queued, waiting for a
     * retry, or running): its work is not to be done by anyone else meanwhile.
     */
    async unfinished(name: string, singletonKey: string): Promise<boolean> {
      try {
        const result = await database.db.execute(
          sql`select 1 from pgboss.job where name = ${name} and singleton_key = ${singletonKey} and state in ('created', 'retry', 'active') limit 1`,
        );
        return ((result as unknown as { rows: unknown[] }).rows ?? []).length > 0;
      } catch (error) {
        // no queue was ever started on this database: no job of any kind
        if ((error as { code?: string; cause?: { code?: string } }).code === '42P01' || (error as { cause?: { code?: string } }).cause?.code === '42P01') return false;
        throw error;
      }
    },

    /** The underlying queue, for tests and operator views. */
    boss,
  };
}

export type JobQueue = ReturnType<typeof createJobQueue>;
