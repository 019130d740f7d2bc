import { randomUUID } from 'node:crypto';
import { currentRequestId, withRequestId } from '../request-context';
import type { Kysely } from 'kysely';
import type { Engine } from '../../db/database';
import type { DB } from '../../db/schema';
import {
  DEFAULT_ATTEMPTS,
  DEFAULT_BACKOFF_MS,
  type EnqueueOptions,
  type JobCounts,
  errorText,
  type HandlerOptions,
  type JobHandler,
  type JobLogger,
  type JobPayloads,
  type JobQueue,
  RetryJob,
  retryDelay,
  silentLogger,
} from './jobs';

export interface DatabaseJobQueueOptions {
  db: Kysely<DB>;
  engine: Engine;
  /** How often an idle runner looks for due jobs (1 s by default). */
  pollMs?: number;
  /**
   * How long a claimed job belongs to its process (30 s by default); renewed while the handler runs, so
   * only a process that died (or hangs the event loop) loses it.
   */
  leaseMs?: number;
  /** Jobs run at the same time by this process (4 by default). */
  concurrency?: number;
  /** How long `stop()` waits for running handlers (5 s by default). */
  stopGraceMs?: number;
  logger?: JobLogger;
}

interface Registered {
  // biome-ignore lint/suspicious/noExplicitAny: payloads are checked where the name is declared
  handler: JobHandler<any>;
  atMostOnce: boolean;
}

/**
 * Jobs in the app's own database (the `jobs` table), run by the processes that call `start()`. Claims are
 * one UPDATE each: PostgreSQL skips rows another runner holds (`FOR UPDATE SKIP LOCKED`); SQLite runs one
 * writer at a time. A finished job's row is deleted; a failed one stays with its last error.
 */
export function createDatabaseJobQueue<M extends object = JobPayloads>(
  options: DatabaseJobQueueOptions,
): JobQueue<M> {
  const { db, engine } = options;
  const pollMs = options.pollMs ?? 1000;
  const leaseMs = options.leaseMs ?? 30_000;
  const concurrency = options.concurrency ?? 4;
  const stopGraceMs = options.stopGraceMs ?? 5000;
  let logger = options.logger ?? silentLogger;
  const workerId = `${process.pid}-${randomUUID().slice(0, 8)}`;
  const handlers = new Map<string, Registered>();
  const running = new Set<Promise<void>>();
  let started = false;
  let timer: NodeJS.Timeout | undefined;
  let polling: Promise<void> | undefined;
  let pollAgain = false;

  const iso = (ms = 0) => new Date(Date.now() + ms).toISOString();

  /** Jobs whose process died: at-most-once ones and those out of attempts fail instead of running again. */
  async function failLostLeases(now: string) {
    const names = [...handlers.keys()];
    const atMostOnce = names.filter((n) => handlers.get(n)?.atMostOnce);
    await db
      .updateTable('jobs')
      .set((eb) => ({
        state: 'failed',
        last_error: eb
          .case()
          .when('name', 'in', atMostOnce.length ? atMostOnce : [''])
          .then('interrupted: the process running it stopped, and it must not run twice')
          .else('interrupted: the process running it stopped, and no attempts are left')
          .end(),
        locked_by: null,
        locked_until: null,
        updated_at: now,
      }))
      .where('state', '=', 'running')
      .where('locked_until', '<', now)
      .where('name', 'in', names)
      .where((eb) =>
        eb.or([
          ...(atMostOnce.length ? [eb('name', 'in', atMostOnce)] : []),
          eb('attempts_made', '>=', eb.ref('max_attempts')),
        ]),
      )
      .execute();
  }

  async function claim(limit: number) {
    const now = iso();
    await failLostLeases(now);
    let due = db
      .selectFrom('jobs')
      .select('id')
      .where('name', 'in', [...handlers.keys()])
      .where((eb) =>
        eb.or([
          eb.and([eb('state', '=', 'pending'), eb('run_at', '<=', now)]),
          // A lost lease of a job that may run again (the step above failed the others).
          eb.and([eb('state', '=', 'running'), eb('locked_until', '<', now)]),
        ]),
      )
      .orderBy('run_at')
      .orderBy('id')
      .limit(limit);
    if (engine === 'postgres') due = due.forUpdate().skipLocked();
    return db
      .updateTable('jobs')
      .set((eb) => ({
        state: 'running',
        locked_by: workerId,
        locked_until: iso(leaseMs),
        attempts_made: eb('attempts_made', '+', 1),
        updated_at: now,
      }))
      .where('id', 'in', due)
      .returningAll()
      .execute();
  }

  type Claimed = Awaited<ReturnType<typeof claim>>[number];

  async function run(job: Claimed) {
    const entry = handlers.get(job.name);
    if (!entry) return;
    const mine = () =>
      db
        .updateTable('jobs')
        .where('id', '=', job.id)
        .where('locked_by', '=', workerId)
        .where('state', '=', 'running');
    const renew = setInterval(
      () => {
        mine()
          .set({ locked_until: iso(leaseMs), updated_at: iso() })
          .execute()
          .catch((err) => logger.warn({ err, job: job.id }, 'job lease renewal failed'));
      },
      Math.max(50, Math.floor(leaseMs / 3)),
    );
    try {
      await withRequestId(job.request_id ?? undefined, () =>
        entry.handler(JSON.parse(job.payload), {
          id: String(job.id),
          name: job.name,
          attempt: job.attempts_made,
        }),
      );
      clearInterval(renew);
      await db.deleteFrom('jobs').where('id', '=', job.id).where('locked_by', '=', workerId).execute();
    } catch (err) {
      clearInterval(renew);
      const retryable = !entry.atMostOnce || err instanceof RetryJob;
      const again = retryable && job.attempts_made < job.max_attempts;
      logger.error(
        { err, job: job.id, name: job.name, attempt: job.attempts_made, again, requestId: job.request_id },
        'job failed',
      );
      await mine()
        .set({
          state: again ? 'pending' : 'failed',
          run_at: again ? iso(retryDelay(job.backoff_ms, job.attempts_made)) : job.run_at,
          locked_by: null,
          locked_until: null,
          last_error: errorText(err),
          updated_at: iso(),
        })
        .execute();
    }
  }

  async function poll() {
    if (!started) return;
    const free = concurrency - running.size;
    if (free <= 0 || handlers.size === 0) return;
    const jobs = await claim(free);
    for (const job of jobs) {
      const p = run(job)
        .catch((err) => logger.error({ err, job: job.id }, 'job bookkeeping failed'))
        .finally(() => {
          running.delete(p);
          wake();
        });
      running.add(p);
    }
    // A full batch may mean more are due.
    if (jobs.length === free) pollAgain = true;
  }

  /** Runs one poll at a time; a wake during a poll runs another right after it. */
  function wake() {
    if (!started) return;
    if (polling) {
      pollAgain = true;
      return;
    }
    polling = (async () => {
      do {
        pollAgain = false;
        try {
          await poll();
        } catch (err) {
          logger.error({ err }, 'job poll failed');
        }
      } while (pollAgain && started && running.size < concurrency);
    })().finally(() => {
      polling = undefined;
    });
  }

  function schedule() {
    timer = setTimeout(() => {
      wake();
      if (started) schedule();
    }, pollMs);
    timer.unref();
  }

  const queue: JobQueue<M> = {
    kind: 'database',
    register(name, handler, handlerOptions: HandlerOptions = {}) {
      handlers.set(name, { handler, atMostOnce: handlerOptions.atMostOnce ?? false });
    },
    async enqueue(name, payload, enqueueOptions: EnqueueOptions = {}) {
      const now = iso();
      const row = {
        name,
        payload: JSON.stringify(payload ?? null),
        request_id: currentRequestId() ?? null,
        state: 'pending' as const,
        run_at: iso(enqueueOptions.delayMs ?? 0),
        max_attempts: Math.max(1, enqueueOptions.attempts ?? DEFAULT_ATTEMPTS),
        backoff_ms: enqueueOptions.backoff ?? DEFAULT_BACKOFF_MS,
        dedupe_key: enqueueOptions.dedupeKey ?? null,
        created_at: now,
        updated_at: now,
      };
      const inserted = await db
        .insertInto('jobs')
        .values(row)
        .onConflict((oc) => oc.doNothing())
        .returning('id')
        .executeTakeFirst();
      if (inserted) {
        if (!enqueueOptions.delayMs) wake();
        return String(inserted.id);
      }
      // Only the pending-dedupe index can refuse the row: the job already waiting is this one.
      const waiting = await db
        .selectFrom('jobs')
        .select('id')
        .where('name', '=', name)
        .where('dedupe_key', '=', row.dedupe_key)
        .where('state', '=', 'pending')
        .executeTakeFirst();
      if (waiting) return String(waiting.id);
      // It started between the two statements: the key is free again.
      return queue.enqueue(name, payload, enqueueOptions);
    },
    async inspect(name, id) {
      const row = await db
        .selectFrom('jobs')
        .select(['state', 'attempts_made', 'last_error'])
        .where('id', '=', Number(id))
        .where('name', '=', name)
        .executeTakeFirst();
      if (!row) return undefined;
      return {
        state: row.state === 'pending' ? 'waiting' : row.state,
        attemptsMade: row.attempts_made,
        error: row.last_error ?? undefined,
      };
    },
    async counts() {
      const rows = await db
        .selectFrom('jobs')
        .select(['name', 'state', (eb) => eb.fn.countAll<number | string>().as('n')])
        .groupBy(['name', 'state'])
        .execute();
      const counts: JobCounts = {};
      for (const row of rows) {
        counts[row.name] ??= { waiting: 0, running: 0, failed: 0 };
        counts[row.name][row.state === 'pending' ? 'waiting' : row.state] += Number(row.n);
      }
      return counts;
    },
    async start(startOptions = {}) {
      if (startOptions.logger) logger = startOptions.logger;
      if (started) return;
      started = true;
      wake();
      schedule();
    },
    async stop() {
      started = false;
      if (timer) clearTimeout(timer);
      await polling;
      if (running.size) {
        let grace: NodeJS.Timeout | undefined;
        await Promise.race([
          Promise.allSettled([...running]),
          new Promise((resolve) => {
            grace = setTimeout(resolve, stopGraceMs);
          }),
        ]);
        clearTimeout(grace);
      }
    },
  };
  return queue;
}
