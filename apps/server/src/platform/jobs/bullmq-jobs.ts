import { Queue, UnrecoverableError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { currentRequestId, withRequestId } from '../request-context';
import {
  DEFAULT_ATTEMPTS,
  DEFAULT_BACKOFF_MS,
  type EnqueueOptions,
  type JobCounts,
  type HandlerOptions,
  type JobHandler,
  type JobLogger,
  type JobPayloads,
  type JobQueue,
  RetryJob,
  silentLogger,
} from './jobs';

export interface BullJobQueueOptions {
  redisUrl: string;
  /** Prefix of every Redis key (`hb` by default; tests give each run its own). */
  prefix?: string;
  /**
   * How long a job's lock lasts without renewal (30 s by default): a worker that died loses its jobs once
   * the lock runs out and a stalled-job check (every `stalledIntervalMs`) finds them.
   */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  /** Jobs of one name run at the same time by this process (4 by default). */
  concurrency?: number;
  /** How many times a retryable job may be found stalled before it fails (2 by default). */
  maxStalledCount?: number;
  /** How long `stop()` waits for running handlers (5 s by default). */
  stopGraceMs?: number;
  logger?: JobLogger;
}

interface Registered {
  // biome-ignore lint/suspicious/noExplicitAny: payloads are checked where the name is declared
  handler: JobHandler<any>;
  atMostOnce: boolean;
}

/** Failed jobs stay a week in Redis to be looked at; finished ones are removed. */
const KEEP_FAILED_SECONDS = 7 * 24 * 3600;

/**
 * Jobs in Redis with BullMQ: one BullMQ queue per job name, so each name gets its own worker settings
 * (an at-most-once name's worker never re-runs a stalled job). Differences from the database runner are
 * listed in docs/architecture.md ("Jobs").
 */
/** A job's data in Redis: the payload and the request that queued it. */
interface Envelope {
  hb: 1;
  payload: unknown;
  requestId?: string;
}

/** The payload and request id of a job's data (a job queued before envelopes is its payload alone). */
function opened(data: unknown): { payload: unknown; requestId?: string } {
  const e = data as Partial<Envelope> | null;
  return e && typeof e === 'object' && e.hb === 1
    ? { payload: e.payload, requestId: e.requestId }
    : { payload: data };
}

export function createBullJobQueue<M extends object = JobPayloads>(
  options: BullJobQueueOptions,
): JobQueue<M> {
  const prefix = options.prefix ?? 'hb';
  let logger = options.logger ?? silentLogger;
  const stopGraceMs = options.stopGraceMs ?? 5000;
  const handlers = new Map<string, Registered>();
  const queues = new Map<string, Queue>();
  const workers: Worker[] = [];
  // BullMQ's workers need commands that wait forever; it duplicates this connection for their blocking reads.
  let connection: Redis | undefined;

  function redis(): Redis {
    connection ??= new Redis(options.redisUrl, { maxRetriesPerRequest: null });
    return connection;
  }

  function queueOf(name: string): Queue {
    let queue = queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: redis(), prefix });
      queue.on('error', (err) => logger.error({ err, name }, 'job queue error'));
      queues.set(name, queue);
    }
    return queue;
  }

  return {
    kind: 'bullmq',
    register(name, handler, handlerOptions: HandlerOptions = {}) {
      handlers.set(name, { handler, atMostOnce: handlerOptions.atMostOnce ?? false });
    },
    async enqueue(name, payload, enqueueOptions: EnqueueOptions = {}) {
      const data: Envelope = { hb: 1, payload, requestId: currentRequestId() };
      const job = await queueOf(name).add(name, data, {
        delay: enqueueOptions.delayMs,
        attempts: Math.max(1, enqueueOptions.attempts ?? DEFAULT_ATTEMPTS),
        backoff: { type: 'exponential', delay: enqueueOptions.backoff ?? DEFAULT_BACKOFF_MS },
        // Deduplicated while it waits; once it runs, one more job may wait and starts after it.
        deduplication: enqueueOptions.dedupeKey
          ? { id: `${name}:${enqueueOptions.dedupeKey}`, keepLastIfActive: true }
          : undefined,
        removeOnComplete: true,
        removeOnFail: { age: KEEP_FAILED_SECONDS },
      });
      return String(job.id);
    },
    async counts() {
      const counts: JobCounts = {};
      for (const name of new Set([...handlers.keys(), ...queues.keys()])) {
        const c = await queueOf(name).getJobCounts('waiting', 'delayed', 'prioritized', 'active', 'failed');
        counts[name] = {
          waiting: (c.waiting ?? 0) + (c.delayed ?? 0) + (c.prioritized ?? 0),
          running: c.active ?? 0,
          failed: c.failed ?? 0,
        };
      }
      return counts;
    },
    async inspect(name, id) {
      // The state is read before the job's fields: a job that fails between two reads would
      // otherwise show 'failed' with the reason of the moment before (none).
      const state = await queueOf(name).getJobState(id);
      if (state === 'completed' || state === 'unknown') return undefined;
      const job = await queueOf(name).getJob(id);
      if (!job) return undefined;
      return {
        state: state === 'active' ? 'running' : state === 'failed' ? 'failed' : 'waiting',
        attemptsMade: job.attemptsStarted ?? job.attemptsMade,
        error: job.failedReason || undefined,
      };
    },
    async start(startOptions = {}) {
      if (startOptions.logger) logger = startOptions.logger;
      if (workers.length) return;
      for (const [name, entry] of handlers) {
        const worker = new Worker(
          name,
          async (job) => {
            const { payload, requestId } = opened(job.data);
            try {
              await withRequestId(requestId, () =>
                entry.handler(payload, { id: String(job.id), name, attempt: job.attemptsMade + 1 }),
              );
            } catch (err) {
              logger.error(
                { err, job: job.id, name, attempt: job.attemptsMade + 1, requestId },
                'job failed',
              );
              if (entry.atMostOnce && !(err instanceof RetryJob)) {
                throw new UnrecoverableError(err instanceof Error ? err.message : String(err));
              }
              throw err;
            }
          },
          {
            connection: redis(),
            prefix,
            concurrency: options.concurrency ?? 4,
            lockDuration: options.lockDurationMs ?? 30_000,
            stalledInterval: options.stalledIntervalMs ?? 30_000,
            // A stalled at-most-once job fails instead of running again.
            maxStalledCount: entry.atMostOnce ? 0 : (options.maxStalledCount ?? 2),
          },
        );
        worker.on('error', (err) => logger.error({ err, name }, 'job worker error'));
        workers.push(worker);
      }
      // Started means listening: BullMQ cannot close a worker whose connections are still being set up
      // (the setup's failure is then reported to no one, an unhandled rejection).
      await Promise.all(workers.map((worker) => worker.waitUntilReady()));
    },
    async stop() {
      const closing = workers.splice(0).map(async (worker) => {
        let grace: NodeJS.Timeout | undefined;
        const gentle = worker.close();
        const timedOut = await Promise.race([
          gentle.then(() => false),
          new Promise<boolean>((resolve) => {
            grace = setTimeout(() => resolve(true), stopGraceMs);
          }),
        ]);
        clearTimeout(grace);
        // A handler still running keeps its job locked until the lock runs out; then it is stalled and
        // runs again elsewhere. Not awaited: once a gentle close has begun, BullMQ answers close(true)
        // with that same close, which waits for the handler — a stop would then hang as long as the job.
        if (timedOut) void worker.close(true).catch(() => {});
      });
      await Promise.all(closing);
      await Promise.all([...queues.values()].map((q) => q.close()));
      queues.clear();
      connection?.disconnect();
      connection = undefined;
    },
  };
}
