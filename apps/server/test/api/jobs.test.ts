import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobQueue, type JobInfo, type JobQueue } from '../../src/jobs/queue.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

let database: TestDatabase;
let jobs: JobQueue;
const seen: Array<{ queue: string; data: Record<string, unknown>; job: JobInfo }> = [];
let failuresLeft = 1;

beforeAll(async () => {
  database = await createTestDatabase();
  jobs = createJobQueue(database, { superviseSeconds: 5, pollSeconds: 0.5 });
  jobs.work<Record<string, unknown>>('test-echo', async (data, job) => void seen.push({ queue: 'test-echo', data, job }), { concurrency: 4 });
  jobs.work<Record<string, unknown>>(
    'test-flaky',
    async (data, job) => {
      seen.push({ queue: 'test-flaky', data, job });
      if (failuresLeft-- > 0) throw new Error('not this time');
    },
    { retryLimit: 2, retryDelay: 1 },
  );
  jobs.work<Record<string, unknown>>('test-single', async (data, job) => void seen.push({ queue: 'test-single', data, job }), { policy: 'short' });
  jobs.schedule('test-echo', '*/5 * * * *');
  await jobs.start();
});
afterAll(async () => {
  await jobs?.stop();
  await database?.close();
});

/** Asks `probe` until it holds, or throws after `timeoutMs` naming `what`. */
async function until(what: string, probe: () => boolean | Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the job queue', () => {
  it('runs a job sent to a queue, once', async () => {
    const id = await jobs.send('test-echo', { n: 1 });
    expect(id).toBeTruthy();
    await until('the job', () => seen.some((s) => s.data.n === 1));
    // once the queue has recorded it completed, no worker can fetch it again
    await until('the job completed', async () => (await jobs.boss.findJobs('test-echo', { id: id as string }))[0]?.state === 'completed');
    expect(seen.filter((s) => s.data.n === 1)).toHaveLength(1);
  });

  it('sends jobs with the caller’s transaction: none when it rolls back, all once it commits', async () => {
    await database.db
      .transaction(async (tx) => {
        await jobs.sendMany('test-echo', [{ data: { n: 'rolled-back' } }], { tx });
        throw new Error('roll back');
      })
      .catch(() => {});
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      await jobs.sendMany('test-echo', [1, 2, 3, 4, 5, 6].map((i) => ({ data: { n: `tx-${i}` } })), { tx });
    });
    await until('six jobs', () => seen.filter((s) => String(s.data.n).startsWith('tx-')).length === 6);
    expect(seen.some((s) => s.data.n === 'rolled-back')).toBe(false);
  });

  it('refuses a job for a queue nobody registered', async () => {
    await expect(jobs.send('test-nobody', {})).rejects.toThrow();
  });

  it('keeps one queued job per singleton key on a short-policy queue', async () => {
    await database.db.transaction(async (tx) => {
      expect(await jobs.send('test-single', { n: 'single-1' }, { singletonKey: 'k1', tx })).toBeTruthy();
      expect(await jobs.send('test-single', { n: 'single-2' }, { singletonKey: 'k1', tx })).toBeNull();
      expect(await jobs.send('test-single', { n: 'single-3' }, { singletonKey: 'k2', tx })).toBeTruthy();
    });
    await until('the singleton jobs', () => seen.filter((s) => s.queue === 'test-single').length === 2);
    expect(seen.filter((s) => s.queue === 'test-single').map((s) => s.data.n).sort()).toEqual(['single-1', 'single-3']);
  });

  it('tries a failed job again, saying which attempt it is', async () => {
    await jobs.send('test-flaky', { n: 'flaky' });
    await until('the second attempt', () => seen.filter((s) => s.data.n === 'flaky').length === 2);
    expect(seen.filter((s) => s.data.n === 'flaky').map((s) => s.job.retryCount)).toEqual([0, 1]);
  });

  it('keeps a schedule whose ticks carry an empty object', async () => {
    const schedules = await jobs.boss.getSchedules();
    expect(schedules.map((s) => [s.name, s.cron, s.data])).toContainEqual(['test-echo', '*/5 * * * *', {}]);
  });

  it('hands a job without data (as a schedule made elsewhere sends it) to its handler as an empty object', async () => {
    const before = seen.length;
    await jobs.boss.send('test-echo', null);
    await until('the job without data', () => seen.slice(before).some((s) => s.queue === 'test-echo'));
    expect(seen.slice(before).find((s) => s.queue === 'test-echo')?.data).toEqual({});
  });

  it('stops cleanly: nothing runs after stop', async () => {
    const other = createJobQueue(database, { superviseSeconds: 5, pollSeconds: 0.5 });
    const ran: unknown[] = [];
    other.work('test-stopped', async (data) => void ran.push(data));
    await other.start();
    await other.stop();
    await jobs.send('test-stopped', { n: 'late' }).catch(() => {});
    // a queue started afterwards takes the job: it was left there, untouched by the stopped one
    const witness = createJobQueue(database, { superviseSeconds: 5, pollSeconds: 0.5 });
    const taken: unknown[] = [];
    witness.work('test-stopped', async (data) => void taken.push(data));
    await witness.start();
    try {
      await until('the witness to take the late job', () => taken.length > 0);
    } finally {
      await witness.stop();
    }
    expect(taken).toEqual([{ n: 'late' }]);
    expect(ran).toEqual([]);
  });
});
