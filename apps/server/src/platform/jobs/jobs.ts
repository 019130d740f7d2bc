/**
 * Background jobs: one interface, two runners (see "Jobs" in docs/architecture.md).
 * `createDatabaseJobQueue` keeps jobs in the `jobs` table of the app's own database and runs them in the
 * process that starts it; `createBullJobQueue` keeps them in Redis (BullMQ), so `npm run worker` can run
 * them in processes of their own.
 *
 * Job names and their payloads are declared by the modules that own them, by adding to `JobPayloads`:
 *
 *   declare module '../../platform/jobs/jobs' {
 *     interface JobPayloads { 'messaging.bot-reply': { companyId: number; clientId: number } }
 *   }
 */

// biome-ignore lint/suspicious/noEmptyInterface: filled in by the modules that own the jobs
export interface JobPayloads {}

export interface EnqueueOptions {
  /** Run no sooner than this many milliseconds from now. */
  delayMs?: number;
  /** How many times the handler may run in all (3 by default; 1 means no retry). */
  attempts?: number;
  /** The wait before the first retry, in milliseconds; each later retry waits twice as long. */
  backoff?: number;
  /**
   * While a job with this key waits to start (delayed or due), enqueuing the same name and key again adds
   * no second job: a burst of customer messages gets one bot reply. Once that job has started, the key is
   * free again, so a message arriving meanwhile gets a reply of its own.
   */
  dedupeKey?: string;
}

export interface HandlerOptions {
  /**
   * Never run the job again once it has started: for sends that would message a customer twice. A process
   * that dies while running it leaves the job failed instead of re-running it, and an error thrown by the
   * handler fails it at once, unless the handler throws `RetryJob` (it knows nothing was sent).
   */
  atMostOnce?: boolean;
}

export interface JobContext {
  id: string;
  name: string;
  /** 1 on the first run, 2 on the first retry... */
  attempt: number;
}

export interface JobStatus {
  state: 'waiting' | 'running' | 'failed';
  /** Runs started so far. */
  attemptsMade: number;
  /** The last run's error, when it failed. */
  error?: string;
}

/** Jobs held by the queue, by job name: waiting (or delayed), running, failed (kept to be seen). */
export type JobCounts = Record<string, { waiting: number; running: number; failed: number }>;

export type JobHandler<P> = (payload: P, context: JobContext) => Promise<void>;

/** Job names in use: those declared in `JobPayloads`; a queue for tests may take its own map. */
export type JobMap = Record<string, unknown>;

export interface JobQueue<M extends object = JobPayloads> {
  readonly kind: 'database' | 'bullmq';
  /** Declares the handler of a job name; only a started queue runs it, and only for registered names. */
  register<K extends keyof M & string>(name: K, handler: JobHandler<M[K]>, options?: HandlerOptions): void;
  /** Stores a job; it runs in whichever started process has its handler. Returns the job's id. */
  enqueue<K extends keyof M & string>(name: K, payload: M[K], options?: EnqueueOptions): Promise<string>;
  /**
   * Where a job stands; undefined once it has finished (finished jobs are not kept) or when unknown.
   * Failed jobs are kept with their last error.
   */
  inspect(name: keyof M & string, id: string): Promise<JobStatus | undefined>;
  /** How many jobs of each name wait, run and have failed (for the metrics). */
  counts(): Promise<JobCounts>;
  /**
   * Starts running the registered handlers (the HTTP server, or `npm run worker`); failures are logged to
   * `logger` when given.
   */
  start(options?: { logger?: JobLogger }): Promise<void>;
  /**
   * Stops taking jobs and waits (a few seconds at most) for the running ones; a job still running after
   * that is taken up again once its lease runs out. Also closes the queue's connections.
   */
  stop(): Promise<void>;
}

/**
 * Thrown by an at-most-once handler when it knows the job had no effect (the send was refused before
 * anything went out): the job is retried like any other.
 */
export class RetryJob extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RetryJob';
  }
}

export const DEFAULT_ATTEMPTS = 3;
export const DEFAULT_BACKOFF_MS = 5_000;

/** The wait before retry number `attemptsMade` (1 = the first retry): backoff, 2×, 4×... */
export function retryDelay(backoffMs: number, attemptsMade: number): number {
  return Math.round(backoffMs * 2 ** Math.max(0, attemptsMade - 1));
}

/** How the runners report a failed job; pino's logger fits. */
export interface JobLogger {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export const silentLogger: JobLogger = { error() {}, warn() {} };

export function errorText(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).slice(0, 2000);
}
