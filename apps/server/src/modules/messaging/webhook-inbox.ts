import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Engine } from '../../db/database';
import type { DB } from '../../db/schema';
import { type JobLogger, silentLogger } from '../../platform/jobs/jobs';
import { type Clock, realClock } from '../../platform/clock';
import { createGroupCommit } from '../../platform/group-commit';
import type { Metrics } from '../../platform/metrics';
import { nextTurn } from '../../platform/turns';
import type { TemplateStatusReceiver } from '../templates/template-status';
import type { AcceptedDelivery, InboundService } from './inbound.service';
import {
  type InboxRow,
  type Kept,
  type KeptRow,
  createWebhookInboxRepository,
} from './webhook-inbox.repository';

/**
 * The durable webhook inbox. The webhook route checks a delivery (inbound.service.ts `accept`), writes
 * it raw to `webhook_deliveries` in one insert and answers 200; from then on nothing of it is lost: a
 * process killed after the answer leaves the row, and the next one processes it. The SQL is in
 * webhook-inbox.repository.ts.
 *
 * Processing runs in a dispatcher: woken in the process at once after the insert, and by a slow poll
 * (background work) for what a stopped process left, retries whose time came, and rows another instance
 * wrote. Deliveries are processed one after the other in id order, so one conversation's messages keep
 * their order; a message is stored once by its wamid, so processing a delivery twice is harmless.
 *
 * One dispatcher at a time, across instances: a claim (a short transaction, serialized on PostgreSQL by
 * an advisory lock) takes a batch only while no other process holds a live lease on one, so two
 * instances never process deliveries side by side and out of order. A lease that runs out means its
 * process died; its rows are taken again. (Claiming with FOR UPDATE SKIP LOCKED would let instances
 * work in parallel, but then a later delivery of a conversation could be stored before an earlier one.)
 *
 * Held deliveries (SQLite): when nothing else is due, the insert itself leaves a delivery claimed by the
 * process that kept it, which processes it from memory with no claim. While something else is due (a
 * retry, rows another process holds or left), deliveries are kept pending and go through the claim, in
 * id order. A process that stops gives back what it held; one that dies leaves it to the lease.
 * Under a burst, passes are gathered: `gatherMs` after one ends, the next takes what was kept meanwhile; and
 * a wake after an insert claims only while a pending delivery this process kept has not been claimed
 * yet: one claim takes the many rows kept meanwhile.
 *
 * A delivery whose processing throws is retried after each of `retryDelaysMs` (1 s, 5 s, 30 s, 2 min,
 * 10 min), then kept as `failed` for the super admin, who can replay it. Done rows are deleted after
 * `keepMs` (7 days) by the poll.
 */
export interface WebhookInboxOptions {
  /** How often the poll looks for rows left behind (1 s by default). */
  pollMs?: number;
  /** How long a claimed batch belongs to its dispatcher (30 s by default). */
  leaseMs?: number;
  /** Deliveries claimed at once (200 by default). */
  batch?: number;
  /** The waits before each retry; after the last, the delivery is failed. */
  retryDelaysMs?: number[];
  /** How long done deliveries are kept (7 days by default). */
  keepMs?: number;
  /** The time of leases, retries and retention (tests pass a fake one). */
  now?: () => number;
  /**
   * While deliveries keep coming, the next pass starts `gatherMs` (10 ms by default) after one ended:
   * what was kept meanwhile goes in one batch — one transaction, one done mark, one dispatch of its
   * events — instead of one pass per insert. A delivery after a quiet moment is processed at once.
   */
  gatherMs?: number;
  /** The clock of the gather window (tests pass a fake one). */
  clock?: Clock;
}

export const WEBHOOK_RETRY_DELAYS_MS = [1000, 5000, 30_000, 120_000, 600_000];
const PRUNE_EVERY_MS = 60_000;
const ERROR_MAX = 300;

/** A delivery this process kept already claimed (SQLite), waiting in memory for the next pass. */
type Held = { row: InboxRow; keptAt: number };

export function createWebhookInbox(deps: {
  db: Kysely<DB>;
  engine: Engine;
  inbound: Pick<InboundService, 'processMany'>;
  templateStatus?: Pick<TemplateStatusReceiver, 'apply'>;
  metrics?: Pick<Metrics, 'webhook'>;
  options?: WebhookInboxOptions;
}) {
  const o = deps.options ?? {};
  const pollMs = o.pollMs ?? 1000;
  const leaseMs = o.leaseMs ?? 30_000;
  const batch = o.batch ?? 200;
  const retryDelays = o.retryDelaysMs ?? WEBHOOK_RETRY_DELAYS_MS;
  const keepMs = o.keepMs ?? 7 * 24 * 3600_000;
  const now = o.now ?? Date.now;
  const clock = o.clock ?? realClock;
  const gatherMs = o.gatherMs ?? 10;
  const owner = `${process.pid}-${randomUUID().slice(0, 8)}`;
  const repository = createWebhookInboxRepository({ db: deps.db, engine: deps.engine, owner });
  let logger: JobLogger = silentLogger;
  let running: Promise<void> | null = null;
  let again = false;
  /** A pass must claim even if nothing kept here waits: the poll, a replay, a full batch. */
  let claimAnyway = false;
  /** Deliveries this process kept pending and no claim of its own has taken yet. */
  const unclaimed = new Set<number>();
  /** Deliveries this process kept already claimed, in id order (see `take`). */
  let held: Held[] = [];
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let lastPrune = 0;
  /** When the last pass ended, on the gather window's clock. */
  let lastPassEnd = Number.NEGATIVE_INFINITY;
  /** A delivery was kept while a pass ran: it waits for the window that opens when the passes end. */
  let keptDuringPass = false;
  /** The gathered pass waiting for its window to close (see `wake`). */
  let gathered: { done: Promise<void>; cancel: () => void } | undefined;

  const iso = (ms = 0) => new Date(now() + ms).toISOString();

  /**
   * The deliveries' one write before their 200, as a group commit (platform/group-commit.ts): the
   * deliveries that arrive while one insert is under way are kept together in the next one, so a burst
   * pays one transaction for many. Each request is still answered only once its own row is committed.
   */
  const keeper = createGroupCommit<Kept, KeptRow>({
    maxBatch: 100,
    writeBatch: (items) => repository.keep(items, { hold: !stopped, at: iso(), until: iso(leaseMs) }),
    async writeOne(item) {
      const [row] = await repository.keep([item], { hold: !stopped, at: iso(), until: iso(leaseMs) });
      if (!row) throw new Error('webhook inbox: the delivery was not kept');
      return row;
    },
  });

  /**
   * The held deliveries for the next pass, in id order. One kept a third of its lease ago or more has
   * its lease renewed first (the pass then has two thirds of it, renewed from then on); one another
   * process took meanwhile (its lease had run out) is no longer this process's to run.
   */
  async function takeHeld(): Promise<InboxRow[]> {
    const taken = held.slice(0, batch);
    held = held.slice(taken.length);
    if (held.length) again = true;
    const fresh = (h: Held) => now() - h.keptAt < leaseMs / 3;
    const stale = taken.filter((h) => !fresh(h)).map((h) => h.row.id);
    const renewed = new Set(stale.length ? await repository.renew(stale, iso(leaseMs)) : []);
    return taken.filter((h) => fresh(h) || renewed.has(h.row.id)).map((h) => h.row);
  }

  /** A log for one delivery's lines, naming it. */
  const logFor = (id: number) => ({
    info: () => {},
    warn: (obj: object, msg?: string) => logger.warn({ delivery: id, ...obj }, msg ?? ''),
    error: (obj: object, msg?: string) => logger.error({ delivery: id, ...obj }, msg ?? ''),
  });

  async function settle(row: InboxRow, err: unknown) {
    const last = row.attempts > retryDelays.length;
    const message = (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, ERROR_MAX);
    logger.error(
      { err, delivery: row.id, attempt: row.attempts, failed: last },
      'whatsapp webhook delivery failed',
    );
    await repository.markFailed(row.id, message || 'error', {
      last,
      nextAt: last ? iso() : iso(retryDelays[row.attempts - 1]),
    });
  }

  /** The batch's lease, renewed while it is being processed. */
  function keepLease(ids: number[]) {
    const timer = setInterval(() => {
      repository
        .renew(ids, iso(leaseMs))
        .catch((err) => logger.warn({ err }, 'webhook inbox lease renewal failed'));
    }, leaseMs / 3);
    timer.unref?.();
    return () => clearInterval(timer);
  }

  /**
   * Processes a batch: the deliveries this process kept already claimed, else (`claiming`) a batch
   * claimed now. The customer messages and statuses of all its deliveries go at once (inbound.service.ts
   * `processMany`, in id order), then each one's template changes; done rows are marked in one
   * statement, failed ones retried later.
   */
  async function pass(claiming = true): Promise<number> {
    let rows = await takeHeld();
    // The claim waits for the next pass: what this process holds was kept before anything it would take.
    if (rows.length && claiming) again = claimAnyway = true;
    else if (claiming) {
      rows = await repository.claim(iso(), iso(leaseMs), batch);
      for (const row of rows) unclaimed.delete(row.id);
      // Nothing was due: what this process kept was taken by another one (or is held by its lease).
      if (!rows.length) unclaimed.clear();
    }
    if (!rows.length) return 0;
    const release = keepLease(rows.map((r) => r.id));
    try {
      const taken: { row: InboxRow; body: unknown }[] = [];
      for (const row of rows) {
        try {
          taken.push({ row, body: JSON.parse(row.body) });
        } catch (err) {
          await settle(row, err);
        }
      }
      let results: Awaited<ReturnType<InboundService['processMany']>>;
      try {
        results = await deps.inbound.processMany(taken.map((t) => ({ body: t.body, log: logFor(t.row.id) })));
      } catch (error) {
        results = taken.map(() => ({ ok: false as const, error }));
      }
      const done: number[] = [];
      for (const [i, { row, body }] of taken.entries()) {
        const result = results[i]!;
        if (!result.ok) {
          await settle(row, result.error);
          continue;
        }
        try {
          await deps.templateStatus?.apply(body);
        } catch (err) {
          await settle(row, err);
          continue;
        }
        deps.metrics?.webhook(result.outcome);
        done.push(row.id);
      }
      if (done.length) await repository.markDone(done, iso());
    } finally {
      release();
    }
    // A full batch may mean more are waiting.
    if (rows.length === batch) again = claimAnyway = true;
    return rows.length;
  }

  /**
   * One dispatch at a time in this process; a forced wake during one runs another right after it. A
   * wake for a kept delivery (`force` false) processes what this process holds, and claims only while
   * one of its pending deliveries is unclaimed.
   */
  function run(force = true): Promise<void> {
    if (force) claimAnyway = true;
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        const claiming = claimAnyway || unclaimed.size > 0;
        claimAnyway = false;
        try {
          if (claiming || held.length) await pass(claiming);
        } catch (err) {
          if (!stopped) logger.error({ err }, 'webhook inbox dispatch failed');
        }
        lastPassEnd = clock.now();
        // Acknowledgements first: deliveries waiting for their insert are answered before the next batch.
        if (again && !stopped) await nextTurn();
      } while (again && !stopped);
    })().finally(() => {
      running = null;
      if (keptDuringPass) {
        keptDuringPass = false;
        wake(false);
      }
    });
    return running;
  }

  /**
   * Runs a dispatch soon. `force` (the poll, a replay, a start): at once, claiming whatever is due. A
   * wake after a delivery was kept: at once after a quiet moment, else when the gather window that
   * opened as the last pass ended closes (see `gatherMs`); one gathered pass at a time.
   */
  function wake(force = true) {
    if (stopped) return;
    if (!force && running) {
      keptDuringPass = true;
      return;
    }
    if (!force && gathered) return;
    const wait = force ? 0 : lastPassEnd + gatherMs - clock.now();
    if (wait <= 0) {
      setImmediate(() => {
        if (!stopped) void run(force);
      });
      return;
    }
    let resolve = () => {};
    const done = new Promise<void>((r) => {
      resolve = r;
    });
    const cancel = clock.after(wait, () => {
      gathered = undefined;
      (stopped ? Promise.resolve() : run(false)).finally(resolve);
    });
    gathered = {
      done,
      cancel() {
        cancel();
        resolve();
      },
    };
  }

  const prune = () => repository.prune(iso(-keepMs));

  function schedule() {
    if (stopped) return;
    timer = setTimeout(async () => {
      await run();
      if (now() - lastPrune >= PRUNE_EVERY_MS) {
        lastPrune = now();
        await prune().catch((err) => logger.warn({ err }, 'webhook inbox pruning failed'));
      }
      schedule();
    }, pollMs);
    timer.unref?.();
  }

  return {
    /** Keeps a checked delivery (one insert) and wakes the dispatcher; its id. */
    async take(raw: Buffer, accepted: Pick<AcceptedDelivery, 'companyIds'>): Promise<number> {
      const body = raw.toString('utf8');
      const { id, held: mine } = await keeper.write({
        at: iso(),
        body,
        companyIds: accepted.companyIds.join(',').slice(0, 200),
      });
      if (mine) held.push({ row: { id, body, attempts: 1 }, keptAt: now() });
      else unclaimed.add(id);
      wake(false);
      return id;
    },
    wake: () => wake(),
    /** Starts the poll and the retention (background work). */
    start(startOptions: { logger?: JobLogger } = {}) {
      if (startOptions.logger) logger = startOptions.logger;
      stopped = false;
      clearTimeout(timer);
      schedule();
      wake();
    },
    /** Stops the poll, waits for the batch under way, and gives back what it held and did not start. */
    async stop() {
      stopped = true;
      clearTimeout(timer);
      gathered?.cancel();
      gathered = undefined;
      await keeper.drain();
      while (running) await running;
      const left = held.map((h) => h.row.id);
      held = [];
      await repository
        .release(left, iso())
        .catch((err) => logger.warn({ err }, 'webhook inbox could not give back its deliveries'));
    },
    /** Resolves once no dispatch is running or asked for in this process (tests). */
    async idle() {
      // A wake queued on setImmediate has not started yet: let it start, then wait.
      await new Promise<void>((r) => setImmediate(r));
      while (running || gathered) await (running ?? gathered?.done);
    },
    /** Processes what is due now, in this process; resolves when that is done (a replay). */
    processNow: () => run(),
    /** One dispatch pass now; how many deliveries it processed (tests). */
    dispatch: () => pass(),
    prune,
    /** Seconds since the oldest delivery not processed yet was received; 0 when none waits. */
    async lagSeconds(): Promise<number> {
      const oldest = await repository.oldestWaiting();
      return oldest === undefined ? 0 : Math.max(0, (now() - oldest) / 1000);
    },
  };
}

export type WebhookInbox = ReturnType<typeof createWebhookInbox>;
