import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/context';
import { waitFor } from '../../../test/wait';
import { createDatabase } from '../../db/database';
import { migrateToLatest } from '../../db/migrate';
import { currentRequestId, withRequestId } from '../request-context';
import { createBullJobQueue } from './bullmq-jobs';
import { createDatabaseJobQueue } from './database-jobs';
import { type JobMap, type JobQueue, RetryJob } from './jobs';

type Queue = JobQueue<JobMap>;

/** What a suite needs from one runner: fresh queues over the same store, and a child process's env. */
interface Runner {
  queue(): Queue;
  childEnv(): Record<string, string>;
}

const serverDir = path.resolve(__dirname, '../../..');

/** The shared condition poll (test/wait.ts), with this file's longer patience and shorter step. */
const until = <T>(check: () => Promise<T | undefined> | T | undefined, ms = 30_000): Promise<T> =>
  waitFor(check, ms, 25);

/**
 * Resolves once the queue holds no job of `name` waiting or running: nothing of it can run any more, so
 * "it did not run again" is checked against this explicit state, never after a nap.
 */
async function settled(q: JobQueue<JobMap>, name: string) {
  await until(async () => {
    const c = (await q.counts())[name];
    return !c || (c.waiting === 0 && c.running === 0);
  });
}

function suite(label: string, setup: () => Promise<Runner & { close(): Promise<void> }>, skip = false) {
  describe.skipIf(skip)(label, () => {
    let runner: Runner & { close(): Promise<void> };
    const open: Queue[] = [];
    const children: ChildProcess[] = [];
    const queue = () => {
      const q = runner.queue();
      open.push(q);
      return q;
    };
    const unique = (what: string) => `test.${what}-${randomBytes(3).toString('hex')}`;

    beforeAll(async () => {
      runner = await setup();
    });
    afterEach(async () => {
      for (const child of children.splice(0)) child.kill('SIGKILL');
      await Promise.all(open.splice(0).map((q) => q.stop()));
    });
    afterAll(async () => {
      await runner?.close();
    });

    it('runs a job enqueued before start with its payload', async () => {
      const q = queue();
      const name = unique('payload');
      const seen: unknown[] = [];
      q.register(name, async (payload, job) => {
        seen.push({ payload, attempt: job.attempt, name: job.name });
      });
      await q.enqueue(name, { clientId: 7, text: 'hola' });
      await q.start();
      await until(() => seen.length === 1);
      expect(seen).toEqual([{ payload: { clientId: 7, text: 'hola' }, attempt: 1, name }]);
    });

    it('runs a job as part of the request that queued it, and logs its failure with that request id', async () => {
      const q = queue();
      const name = unique('request');
      const seen: (string | undefined)[] = [];
      const logged: object[] = [];
      q.register(name, async (payload) => {
        seen.push(currentRequestId());
        if ((payload as { fail?: boolean }).fail) throw new Error('no');
      });
      await withRequestId('req-from-the-web', () => q.enqueue(name, {}));
      await q.enqueue(name, {});
      await withRequestId('req-that-fails', () => q.enqueue(name, { fail: true }, { attempts: 1 }));
      await q.start({ logger: { error: (obj) => void logged.push(obj), warn: () => {} } });
      await until(() => seen.length === 3 && logged.length === 1);
      expect([...seen].sort()).toEqual(['req-from-the-web', 'req-that-fails', undefined].sort());
      expect(logged[0]).toMatchObject({ requestId: 'req-that-fails', name });
    });

    it('retries a failing job with exponential backoff, then fails it when out of attempts', async () => {
      const q = queue();
      const okName = unique('retry');
      const times: number[] = [];
      q.register(okName, async (_p, job) => {
        times.push(Date.now());
        if (job.attempt < 3) throw new Error(`boom ${job.attempt}`);
      });
      const failName = unique('fail');
      let failRuns = 0;
      q.register(failName, async () => {
        failRuns++;
        throw new Error('always broken');
      });
      await q.start();
      await q.enqueue(okName, {}, { attempts: 3, backoff: 150 });
      const failed = await q.enqueue(failName, {}, { attempts: 2, backoff: 10 });
      await until(() => times.length === 3);
      // The first retry waits the backoff, the second twice as long.
      expect(times[1] - times[0]).toBeGreaterThanOrEqual(140);
      expect(times[2] - times[1]).toBeGreaterThanOrEqual(290);
      const status = await until(async () => {
        const s = await q.inspect(failName, failed);
        return s?.state === 'failed' ? s : undefined;
      });
      expect(status).toMatchObject({ state: 'failed', attemptsMade: 2, error: 'always broken' });
      await settled(q, failName);
      expect(failRuns).toBe(2);
    });

    it('waits for delayMs before running a job', async () => {
      const q = queue();
      const name = unique('delay');
      let ran = 0;
      let ranAt = 0;
      q.register(name, async () => {
        ran++;
        ranAt = Date.now();
      });
      await q.start();
      const enqueuedAt = Date.now();
      const id = await q.enqueue(name, {}, { delayMs: 600 });
      expect((await q.inspect(name, id))?.state).toBe('waiting');
      await until(() => ran === 1);
      // When it ran says it waited: no nap needed to see it did not run early.
      expect(ranAt - enqueuedAt).toBeGreaterThanOrEqual(590);
    });

    it('makes one job of a burst with the same dedupeKey; the key is free again once it has run', async () => {
      const q = queue();
      const name = unique('dedupe');
      const runs: unknown[] = [];
      q.register(name, async (payload) => {
        runs.push(payload);
      });
      await q.start();
      const ids = [];
      for (let i = 0; i < 5; i++)
        ids.push(await q.enqueue(name, { n: i }, { delayMs: 300, dedupeKey: 'client:1' }));
      const other = await q.enqueue(name, { n: 'other' }, { delayMs: 300, dedupeKey: 'client:2' });
      expect(new Set(ids).size).toBe(1);
      expect(other).not.toBe(ids[0]);
      await until(() => runs.length === 2);
      await settled(q, name);
      expect(runs).toHaveLength(2);
      await q.enqueue(name, { n: 'later' }, { dedupeKey: 'client:1' });
      await until(() => runs.length === 3);
    });

    it('keeps jobs across a restart: a job stored by one queue runs in the next', async () => {
      const first = queue();
      const name = unique('restart');
      await first.enqueue(name, { kept: true });
      await first.stop();
      const second = queue();
      const seen: unknown[] = [];
      second.register(name, async (payload) => {
        seen.push(payload);
      });
      await second.start();
      await until(() => seen.length === 1);
      expect(seen).toEqual([{ kept: true }]);
    });

    it('fails an at-most-once job on its first error, but retries it when it throws RetryJob', async () => {
      const q = queue();
      const once = unique('once');
      let onceRuns = 0;
      q.register(
        once,
        async () => {
          onceRuns++;
          throw new Error('the send may have gone out');
        },
        { atMostOnce: true },
      );
      const polite = unique('once-retry');
      let politeRuns = 0;
      q.register(
        polite,
        async () => {
          politeRuns++;
          if (politeRuns === 1) throw new RetryJob('refused before sending');
        },
        { atMostOnce: true },
      );
      await q.start();
      const id = await q.enqueue(once, {}, { attempts: 3, backoff: 10 });
      await q.enqueue(polite, {}, { attempts: 3, backoff: 10 });
      const status = await until(async () => {
        const s = await q.inspect(once, id);
        return s?.state === 'failed' ? s : undefined;
      });
      expect(status.error).toBe('the send may have gone out');
      await until(() => politeRuns === 2);
      await settled(q, once);
      expect(onceRuns).toBe(1);
    });

    it('runs every job once with two runners taking from the same store', async () => {
      const a = queue();
      const b = queue();
      const name = unique('concurrent');
      const runs = new Map<number, number>();
      for (const q of [a, b]) {
        q.register(name, async (payload) => {
          const { n } = payload as { n: number };
          runs.set(n, (runs.get(n) ?? 0) + 1);
          // Hands the event loop over, so the other runner claims while this one works.
          await new Promise<void>((r) => setImmediate(r));
        });
      }
      for (let n = 0; n < 40; n++) await a.enqueue(name, { n });
      await Promise.all([a.start(), b.start()]);
      await until(() => runs.size === 40);
      await settled(a, name);
      expect([...runs.values()].every((count) => count === 1)).toBe(true);
    });

    function startChild(name: string, atMostOnce: boolean, extra: Record<string, string> = {}) {
      const child = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/jobs-child.ts'], {
        cwd: serverDir,
        env: {
          ...process.env,
          ...runner.childEnv(),
          JOB_NAME: name,
          AT_MOST_ONCE: atMostOnce ? '1' : '0',
          ...extra,
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      children.push(child);
      let out = '';
      child.stdout?.on('data', (chunk) => {
        out += chunk;
      });
      return {
        child,
        started: () => until(() => /started (\S+)/.exec(out)?.[1], 25_000),
        output: () => out,
        exited: new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code))),
      };
    }

    it('runs a job again in another process when the one running it is killed', async () => {
      const name = unique('killed');
      const q = queue();
      const id = await q.enqueue(name, { survive: true }, { attempts: 3, backoff: 10 });
      const { child, started } = startChild(name, false);
      expect(await started()).toBe(id);
      child.kill('SIGKILL');
      const seen: unknown[] = [];
      q.register(name, async (payload) => {
        seen.push(payload);
      });
      await q.start();
      await until(() => seen.length === 1);
      expect(seen).toEqual([{ survive: true }]);
    });

    it('on SIGTERM, lets the running job finish before the process exits; it does not run again', async () => {
      const name = unique('term-finish');
      const q = queue();
      const id = await q.enqueue(name, {}, { attempts: 3, backoff: 10 });
      const child = startChild(name, false, { JOB_MS: '800' });
      expect(await child.started()).toBe(id);
      child.child.kill('SIGTERM');
      expect(await child.exited).toBe(0);
      expect(child.output()).toMatch(new RegExp(`finished ${id}\\n(.|\\n)*stopped`));
      let reruns = 0;
      q.register(name, async () => {
        reruns++;
      });
      await q.start();
      // It finished in the child: its row is gone, so nothing is left that could run it again.
      expect(await q.inspect(name, id)).toBeUndefined();
      await settled(q, name);
      expect(reruns).toBe(0);
    });

    it('on SIGTERM, gives a job that outlasts the grace back to the queue, where it runs again', async () => {
      const name = unique('term-return');
      const q = queue();
      const id = await q.enqueue(name, { returned: true }, { attempts: 3, backoff: 10 });
      const child = startChild(name, false, { JOB_MS: '60000', STOP_GRACE_MS: '300' });
      expect(await child.started()).toBe(id);
      child.child.kill('SIGTERM');
      expect(await child.exited).toBe(0);
      expect(child.output()).not.toContain('finished');
      const seen: unknown[] = [];
      q.register(name, async (payload) => {
        seen.push(payload);
      });
      await q.start();
      await until(() => seen.length === 1);
      expect(seen).toEqual([{ returned: true }]);
    });

    it('marks an at-most-once job failed, never re-run, when the process running it is killed', async () => {
      const name = unique('killed-once');
      const q = queue();
      const id = await q.enqueue(name, {}, { attempts: 3, backoff: 10 });
      const { child, started } = startChild(name, true);
      expect(await started()).toBe(id);
      child.kill('SIGKILL');
      let reruns = 0;
      q.register(
        name,
        async () => {
          reruns++;
        },
        { atMostOnce: true },
      );
      await q.start();
      const status = await until(async () => {
        const s = await q.inspect(name, id);
        return s?.state === 'failed' ? s : undefined;
      });
      expect(status.error).toMatch(/stall|interrupted/i);
      await settled(q, name);
      expect(reruns).toBe(0);
    });
  });
}

suite('database job queue', async () => {
  const test: TestDatabase = await createTestDatabase();
  await migrateToLatest(test.database.db, test.schema);
  const extra: { destroy(): Promise<void> }[] = [];
  return {
    queue() {
      // Each queue gets its own connection, as a separate process would.
      const database = test.sqliteFile
        ? createDatabase({ sqliteFile: test.sqliteFile })
        : createDatabase({ url: process.env.TEST_DATABASE_URL, pgSchema: test.schema, poolSize: 2 });
      extra.push(database);
      return createDatabaseJobQueue<JobMap>({
        db: database.db,
        engine: database.engine,
        pollMs: 50,
        leaseMs: 600,
      });
    },
    childEnv: (): Record<string, string> =>
      test.sqliteFile
        ? { JOBS_KIND: 'database', SQLITE_FILE: test.sqliteFile }
        : { JOBS_KIND: 'database', PG_SCHEMA: test.schema ?? '' },
    async close() {
      await Promise.all(extra.map((d) => d.destroy()));
      await test.database.destroy();
      await test.cleanup();
    },
  };
});

const redisUrl = process.env.REDIS_URL;
suite(
  'BullMQ job queue',
  async () => {
    const prefix = `hb:test:jobs:${randomBytes(4).toString('hex')}`;
    return {
      queue: () =>
        createBullJobQueue<JobMap>({
          redisUrl: redisUrl ?? '',
          prefix,
          lockDurationMs: 1000,
          stalledIntervalMs: 300,
        }),
      childEnv: () => ({ JOBS_KIND: 'bullmq', JOBS_PREFIX: prefix }),
      async close() {
        const redis = new Redis(redisUrl ?? '');
        const keys = await redis.keys(`${prefix}:*`);
        if (keys.length) await redis.del(...keys);
        redis.disconnect();
      },
    };
  },
  !redisUrl,
);
