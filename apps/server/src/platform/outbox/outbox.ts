import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Engine } from '../../db/database';
import type { DB } from '../../db/schema';
import type { Executor } from '../../db/transactions';
import {
  DOMAIN_EVENTS,
  type DomainEvent,
  type DomainEventType,
  type EventSink,
  type Subscriber,
  domainEvent,
} from '../events/domain-events';
import { type JobLogger, errorText, retryDelay, silentLogger } from '../jobs/jobs';

/**
 * The transactional outbox: a change writes its domain events to the `outbox` table in its own
 * transaction, so they exist exactly when the change does (a rolled-back write leaves no event). The
 * rows are written claimed by the process (see `held`); after the commit it wakes its dispatcher at
 * once, which takes them from memory; a slow poll picks up what a process that died between commit and
 * dispatch left (once its lease ran out), and rows another instance wrote. A dispatcher claims rows with a
 * lease (PostgreSQL skips rows another holds), runs the event's subscribers in order of the rows, and
 * marks them done; a subscriber that throws is retried with growing waits, the others are not run again.
 * Done rows are deleted after a day.
 */
export interface OutboxOptions {
  db: Kysely<DB>;
  engine: Engine;
  /** How often the fallback poll looks for rows left behind (1 s by default). */
  pollMs?: number;
  /** How long a claimed batch belongs to its dispatcher (30 s by default). */
  leaseMs?: number;
  /** Rows claimed at once (100 by default). */
  batch?: number;
  /** Tries per event before it is kept as failed (10 by default), the first retry waiting `backoffMs`. */
  maxAttempts?: number;
  backoffMs?: number;
  /** How long done rows are kept (a day by default). */
  keepMs?: number;
  logger?: JobLogger;
}

export interface Outbox {
  /** Writes events in the executor's transaction (or alone); call `wake()` once it committed. */
  write(executor: Executor, events: DomainEvent[]): Promise<void>;
  /**
   * Runs `work` in one transaction with a sink for its events: they are written just before the commit,
   * in one insert, and the dispatcher is woken after it.
   */
  transaction<T>(work: (trx: Transaction<DB>, events: EventSink) => Promise<T>): Promise<T>;
  /** Adds subscribers (the container's wiring, tests' observers). */
  subscribe(...subscribers: Subscriber[]): void;
  /** Dispatches soon in this process (after a commit that wrote events). */
  wake(): void;
  /** Starts the fallback poll and the pruning (background work). */
  start(options?: { logger?: JobLogger }): void;
  /** Stops polling and waits for a dispatch under way. */
  stop(): Promise<void>;
  /** Resolves once no dispatch is running or asked for in this process (tests). */
  idle(): Promise<void>;
  /** One dispatch pass now; resolves with how many events it claimed (tests, the poll). */
  dispatch(): Promise<number>;
  /** Deletes handled rows older than `keepMs` (the poll does it once a minute); how many went. */
  prune(): Promise<number>;
}

const PRUNE_EVERY_MS = 60_000;
/** What a dispatch reads of a row. */
const CLAIMED = ['id', 'type', 'payload', 'handled', 'attempts', 'available_at'] as const;
type Claimed = Pick<Selectable<DB['outbox']>, (typeof CLAIMED)[number]>;

export function createOutbox(options: OutboxOptions): Outbox {
  const { db, engine } = options;
  const pollMs = options.pollMs ?? 1000;
  const leaseMs = options.leaseMs ?? 30_000;
  const batch = options.batch ?? 100;
  const maxAttempts = options.maxAttempts ?? 10;
  const backoffMs = options.backoffMs ?? 1000;
  const keepMs = options.keepMs ?? 24 * 3600_000;
  let logger = options.logger ?? silentLogger;
  const owner = `${process.pid}-${randomUUID().slice(0, 8)}`;
  const subscribers = new Map<DomainEventType, Subscriber[]>();
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let lastPrune = 0;
  /**
   * The rows this process's transactions wrote, claimed by it at their insert (a lease of `leaseMs`), with
   * when: they are dispatched from here, without a claim statement. One still here after a third of its
   * lease (a process far behind) is left to the claim once the lease has run out, so a batch taken from
   * here always has two thirds of a lease to be handled in, as a claimed one has its whole lease. A
   * process that stops between the commit and the dispatch leaves them to another after the lease. The
   * poll's passes claim instead, so rows left by others or due for a retry never wait behind a burst of
   * this process's own.
   */
  const held: { row: Claimed; at: number }[] = [];
  let claimNext = false;

  const iso = (ms = 0) => new Date(Date.now() + ms).toISOString();

  /** Inserts the events' rows; `hold`: claimed by this process from the start (what it dispatches). */
  async function insert(executor: Executor, events: DomainEvent[], hold: boolean): Promise<Claimed[]> {
    if (!events.length) return [];
    const at = iso();
    const rows = events.map((e) => ({
      type: e.type,
      company_id: e.payload.companyId,
      payload: JSON.stringify(e.payload),
      state: 'pending' as const,
      attempts: hold ? 1 : 0,
      handled: '',
      available_at: at,
      created_at: at,
      ...(hold ? { locked_by: owner, locked_until: iso(leaseMs) } : {}),
    }));
    const ids = await executor.insertInto('outbox').values(rows).returning('id').execute();
    // Both engines return the rows of a multi-row insert in the order of its values.
    return rows.map((r, i) => ({ ...r, id: ids[i]!.id }));
  }

  async function write(executor: Executor, events: DomainEvent[]) {
    await insert(executor, events, false);
  }

  /** The held rows to dispatch now: those within a third of their lease (older ones go to the claim). */
  function takeHeld(): Claimed[] {
    const fresh = Date.now() - leaseMs / 3;
    while (held.length && held[0]!.at < fresh) held.shift();
    return held.splice(0, batch).map((h) => h.row);
  }

  async function claim() {
    const now = iso();
    let due = db
      .selectFrom('outbox')
      .select('id')
      .where('state', '=', 'pending')
      .where('available_at', '<=', now)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
      .orderBy('id')
      .limit(batch);
    if (engine === 'postgres') due = due.forUpdate().skipLocked();
    const rows = await db
      .updateTable('outbox')
      .set((eb) => ({ locked_by: owner, locked_until: iso(leaseMs), attempts: eb('attempts', '+', 1) }))
      .where('id', 'in', due)
      .returning([...CLAIMED])
      .execute();
    return rows.sort((a, b) => a.id - b.id);
  }

  /**
   * Runs each subscriber, in the order they were declared, on the claimed events of its type it has not
   * had yet (together when it takes several at once), then settles each row: done when every subscriber
   * had it, else retried later for those that failed.
   */
  async function pass(): Promise<number> {
    const own = claimNext ? [] : takeHeld();
    claimNext = false;
    const rows = own.length ? own : await claim();
    if (held.length) again = true;
    if (!rows.length) return 0;
    const state = rows.map((row) => ({
      row,
      handled: row.handled ? row.handled.split(',') : [],
      payload: DOMAIN_EVENTS[row.type as DomainEventType]
        ? // Checked against the catalogue when it was emitted, before its transaction committed.
          JSON.parse(row.payload)
        : undefined,
      error: DOMAIN_EVENTS[row.type as DomainEventType]
        ? undefined
        : (new Error(`unknown domain event ${row.type}`) as unknown),
    }));
    const failed = (entry: (typeof state)[number], s: Subscriber, err: unknown) => {
      entry.error ??= err;
      logger.error(
        { err, event: entry.row.id, type: entry.row.type, subscriber: s.name, attempt: entry.row.attempts },
        'subscriber failed',
      );
    };
    for (const list of subscribers.values())
      for (const s of list) {
        const todo = state.filter(
          (e) => e.row.type === s.type && e.payload !== undefined && !e.handled.includes(s.name),
        );
        if (!todo.length) continue;
        if (s.handleMany && todo.length > 1) {
          try {
            await s.handleMany(todo.map((e) => e.payload));
            for (const e of todo) e.handled.push(s.name);
            continue;
          } catch {
            // One at a time, so one bad event does not hold back the others.
          }
        }
        for (const e of todo) {
          try {
            await s.handle(e.payload);
            e.handled.push(s.name);
          } catch (err) {
            failed(e, s, err);
          }
        }
      }
    const done: number[] = [];
    for (const { row, handled, error } of state) {
      if (error === undefined) {
        done.push(row.id);
        continue;
      }
      const last = row.attempts >= maxAttempts;
      await db
        .updateTable('outbox')
        .set({
          state: last ? 'failed' : 'pending',
          handled: handled.join(','),
          available_at: last ? row.available_at : iso(retryDelay(backoffMs, row.attempts)),
          locked_by: null,
          locked_until: null,
          last_error: errorText(error),
          done_at: last ? iso() : null,
        })
        .where('id', '=', row.id)
        .where('locked_by', '=', owner)
        .execute();
    }
    if (done.length)
      await db
        .updateTable('outbox')
        .set({ state: 'done', done_at: iso(), locked_by: null, locked_until: null })
        .where('id', 'in', done)
        .where('locked_by', '=', owner)
        .execute();
    // A full batch may mean more are waiting.
    if (rows.length === batch) again = true;
    return rows.length;
  }

  async function prune(): Promise<number> {
    const before = iso(-keepMs);
    // In slices, so a large backlog never holds the writer long.
    const old = db
      .selectFrom('outbox')
      .select('id')
      .where('state', 'in', ['done', 'failed'])
      .where('done_at', '<', before)
      .limit(1000);
    const [result] = await db.deleteFrom('outbox').where('id', 'in', old).execute();
    return Number(result?.numDeletedRows ?? 0);
  }

  /** One dispatch at a time in this process; a wake during one runs another right after it. */
  function run(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await pass();
        } catch (err) {
          if (!stopped) logger.error({ err }, 'outbox dispatch failed');
        }
      } while (again && !stopped);
    })().finally(() => {
      running = null;
    });
    return running;
  }

  function wake() {
    if (stopped) return;
    setImmediate(() => void run());
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(async () => {
      claimNext = true;
      await run();
      if (Date.now() - lastPrune >= PRUNE_EVERY_MS) {
        lastPrune = Date.now();
        await prune().catch((err) => logger.warn({ err }, 'outbox pruning failed'));
      }
      schedule();
    }, pollMs);
    timer.unref?.();
  }

  return {
    write,
    async transaction(work) {
      let written: Claimed[] = [];
      const result = await db.transaction().execute(async (trx) => {
        const events: DomainEvent[] = [];
        const sink: EventSink = { emit: (type, payload) => void events.push(domainEvent(type, payload)) };
        const out = await work(trx, sink);
        written = await insert(trx, events, true);
        return out;
      });
      if (written.length) {
        const at = Date.now();
        for (const row of written) held.push({ row, at });
        wake();
      }
      return result;
    },
    subscribe(...list) {
      for (const s of list) {
        const of = subscribers.get(s.type) ?? [];
        if (of.some((o) => o.name === s.name)) throw new Error(`subscriber ${s.name} declared twice`);
        of.push(s);
        subscribers.set(s.type, of);
      }
    },
    wake,
    start(startOptions = {}) {
      if (startOptions.logger) logger = startOptions.logger;
      stopped = false;
      clearTimeout(timer);
      schedule();
      wake();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      while (running) await running;
    },
    async idle() {
      // A wake queued on setImmediate has not started yet: let it start, then wait.
      await new Promise<void>((r) => setImmediate(r));
      while (running) await running;
    },
    dispatch: () => pass(),
    prune,
  };
}
