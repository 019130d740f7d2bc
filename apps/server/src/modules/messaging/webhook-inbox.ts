import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Engine } from '../../db/database';
import { prepared } from '../../db/prepared';
import type { DB } from '../../db/schema';
import { type JobLogger, silentLogger } from '../../platform/jobs/jobs';
import { createGroupCommit } from '../../platform/group-commit';
import type { Metrics } from '../../platform/metrics';
import { nextTurn } from '../../platform/turns';
import type { TemplateStatusReceiver } from '../templates/template-status';
import type { AcceptedDelivery, InboundService } from './inbound.service';

/**
 * The durable webhook inbox. The webhook route checks a delivery (inbound.service.ts `accept`), writes
 * it raw to `webhook_deliveries` in one insert and answers 200; from then on nothing of it is lost: a
 * process killed after the answer leaves the row, and the next one processes it.
 *
 * Processing runs in a dispatcher: woken in the process at once after the insert, and by a slow poll
 * (background work) for what a stopped process left, retries whose time came, and rows another instance
 * wrote. Deliveries are processed one after the other in id order, so one conversation's messages keep
 * their order; a message is stored once by its wamid, so processing a delivery twice is harmless.
 * A wake after an insert claims only while a delivery this process kept has not been claimed yet: under
 * a burst, one claim takes the many rows kept meanwhile, and the wakes of those rows cost nothing.
 *
 * One dispatcher at a time, across instances: a claim (a short transaction, serialized on PostgreSQL by
 * an advisory lock) takes a batch only while no other process holds a live lease on one, so two
 * instances never process deliveries side by side and out of order. A lease that runs out means its
 * process died; its rows are taken again. (Claiming with FOR UPDATE SKIP LOCKED would let instances
 * work in parallel, but then a later delivery of a conversation could be stored before an earlier one.)
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
  /** The clock (tests pass a fake one). */
  now?: () => number;
}

export const WEBHOOK_RETRY_DELAYS_MS = [1000, 5000, 30_000, 120_000, 600_000];
const PRUNE_EVERY_MS = 60_000;
/** The advisory lock that serializes claims on PostgreSQL (any fixed number of ours). */
const CLAIM_LOCK = 7_730_021;
const ERROR_MAX = 300;

type Row = { id: number; body: string; attempts: number };

/** A delivery as kept: its bytes as text, when it came, the companies it concerns. */
type Kept = { at: string; body: string; companyIds: string };

const keptRow = (v: Kept) => ({
  received_at: v.at,
  body: v.body,
  company_ids: v.companyIds,
  status: 'pending' as const,
  attempts: 0,
  next_attempt_at: v.at,
});

/** A delivery kept alone (the group commit's fallback, see `take`). */
const keepOne = prepared((db, v: Kept) =>
  db.insertInto('webhook_deliveries').values(keptRow(v)).returning('id'),
);

export function createWebhookInbox(deps: {
  db: Kysely<DB>;
  engine: Engine;
  inbound: Pick<InboundService, 'processMany'>;
  templateStatus?: Pick<TemplateStatusReceiver, 'apply'>;
  metrics?: Pick<Metrics, 'webhook'>;
  options?: WebhookInboxOptions;
}) {
  const { db, engine } = deps;
  const o = deps.options ?? {};
  const pollMs = o.pollMs ?? 1000;
  const leaseMs = o.leaseMs ?? 30_000;
  const batch = o.batch ?? 200;
  const retryDelays = o.retryDelaysMs ?? WEBHOOK_RETRY_DELAYS_MS;
  const keepMs = o.keepMs ?? 7 * 24 * 3600_000;
  const now = o.now ?? Date.now;
  const owner = `${process.pid}-${randomUUID().slice(0, 8)}`;
  let logger: JobLogger = silentLogger;
  let running: Promise<void> | null = null;
  let again = false;
  /** A pass must claim even if nothing kept here waits: the poll, a replay, a full batch. */
  let claimAnyway = false;
  /** Deliveries this process kept and no claim of its own has taken yet. */
  const unclaimed = new Set<number>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let lastPrune = 0;

  const iso = (ms = 0) => new Date(now() + ms).toISOString();

  /**
   * The deliveries' one write before their 200, as a group commit (platform/group-commit.ts): the
   * deliveries that arrive while one insert is under way are kept together in the next one, so a burst
   * pays one transaction for many. Each request is still answered only once its own row is committed.
   */
  const keeper = createGroupCommit<Kept, number>({
    maxBatch: 100,
    async writeBatch(items) {
      const rows = await db
        .insertInto('webhook_deliveries')
        .values(items.map(keptRow))
        .returning('id')
        .execute();
      // Both engines return the rows of a multi-row insert in the order of its values.
      return rows.map((r) => r.id);
    },
    async writeOne(item) {
      const [row] = (await keepOne(db, item)).rows;
      if (!row) throw new Error('webhook inbox: the delivery was not kept');
      return row.id;
    },
  });

  /** Takes the next batch in id order, unless another process holds a live lease (see above). */
  function claim(): Promise<Row[]> {
    return db.transaction().execute(async (trx) => {
      if (engine === 'postgres') await sql`select pg_advisory_xact_lock(${CLAIM_LOCK})`.execute(trx);
      const at = iso();
      const held = await trx
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('status', '=', 'processing')
        .where('locked_by', '<>', owner)
        .where('locked_until', '>', at)
        .limit(1)
        .executeTakeFirst();
      if (held) return [];
      const [pending, orphaned] = await Promise.all([
        trx
          .selectFrom('webhook_deliveries')
          .select('id')
          .where('status', '=', 'pending')
          .where('next_attempt_at', '<=', at)
          .orderBy('id')
          .limit(batch)
          .execute(),
        // Rows whose process died while it held them.
        trx
          .selectFrom('webhook_deliveries')
          .select('id')
          .where('status', '=', 'processing')
          .where('locked_until', '<=', at)
          .orderBy('id')
          .limit(batch)
          .execute(),
      ]);
      const ids = [...pending, ...orphaned]
        .map((r) => r.id)
        .sort((a, b) => a - b)
        .slice(0, batch);
      if (!ids.length) return [];
      const rows = await trx
        .updateTable('webhook_deliveries')
        .set((eb) => ({
          status: 'processing' as const,
          locked_by: owner,
          locked_until: iso(leaseMs),
          attempts: eb('attempts', '+', 1),
        }))
        .where('id', 'in', ids)
        .returning(['id', 'body', 'attempts'])
        .execute();
      return rows.sort((a, b) => a.id - b.id);
    });
  }

  /** A log for one delivery's lines, naming it. */
  const logFor = (id: number) => ({
    info: () => {},
    warn: (obj: object, msg?: string) => logger.warn({ delivery: id, ...obj }, msg ?? ''),
    error: (obj: object, msg?: string) => logger.error({ delivery: id, ...obj }, msg ?? ''),
  });

  async function settle(row: Row, err: unknown) {
    const last = row.attempts > retryDelays.length;
    const message = (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, ERROR_MAX);
    logger.error(
      { err, delivery: row.id, attempt: row.attempts, failed: last },
      'whatsapp webhook delivery failed',
    );
    await db
      .updateTable('webhook_deliveries')
      .set({
        status: last ? 'failed' : 'pending',
        next_attempt_at: last ? iso() : iso(retryDelays[row.attempts - 1]),
        locked_by: null,
        locked_until: null,
        last_error: message || 'error',
      })
      .where('id', '=', row.id)
      .where('locked_by', '=', owner)
      .execute();
  }

  /** The claimed batch's lease, renewed while it is being processed. */
  function keepLease() {
    const timer = setInterval(() => {
      db.updateTable('webhook_deliveries')
        .set({ locked_until: iso(leaseMs) })
        .where('status', '=', 'processing')
        .where('locked_by', '=', owner)
        .execute()
        .catch((err) => logger.warn({ err }, 'webhook inbox lease renewal failed'));
    }, leaseMs / 3);
    timer.unref?.();
    return () => clearInterval(timer);
  }

  /**
   * Claims a batch and processes it: the customer messages and statuses of all its deliveries at once
   * (inbound.service.ts `processMany`, in id order), then each one's template changes; done rows are
   * marked in one statement, failed ones retried later.
   */
  async function pass(): Promise<number> {
    const rows = await claim();
    for (const row of rows) unclaimed.delete(row.id);
    // Nothing was due: what this process kept was taken by another one (or is held by its lease).
    if (!rows.length) unclaimed.clear();
    if (!rows.length) return 0;
    const release = keepLease();
    try {
      const taken: { row: Row; body: unknown }[] = [];
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
      if (done.length)
        await db
          .updateTable('webhook_deliveries')
          .set({ status: 'done', processed_at: iso(), locked_by: null, locked_until: null, last_error: null })
          .where('id', 'in', done)
          .where('locked_by', '=', owner)
          .execute();
    } finally {
      release();
    }
    // A full batch may mean more are waiting.
    if (rows.length === batch) again = claimAnyway = true;
    return rows.length;
  }

  /**
   * One dispatch at a time in this process; a wake during one runs another right after it. A wake for
   * a kept delivery (`force` false) claims only while one of this process's deliveries is unclaimed.
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
        const due = claimAnyway || unclaimed.size > 0;
        claimAnyway = false;
        try {
          if (due) await pass();
        } catch (err) {
          if (!stopped) logger.error({ err }, 'webhook inbox dispatch failed');
        }
        // Acknowledgements first: deliveries waiting for their insert are answered before the next batch.
        if (again && !stopped) await nextTurn();
      } while (again && !stopped);
    })().finally(() => {
      running = null;
    });
    return running;
  }

  /** Runs a dispatch soon: `force` claims whatever is due, else only for this process's kept rows. */
  function wake(force = true) {
    if (stopped) return;
    setImmediate(() => void run(force));
  }

  async function prune(): Promise<number> {
    // In slices, so a large backlog never holds the writer long.
    const old = db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('status', '=', 'done')
      .where('processed_at', '<', iso(-keepMs))
      .limit(1000);
    const [result] = await db.deleteFrom('webhook_deliveries').where('id', 'in', old).execute();
    return Number(result?.numDeletedRows ?? 0);
  }

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
      const id = await keeper.write({
        at: iso(),
        body: raw.toString('utf8'),
        companyIds: accepted.companyIds.join(',').slice(0, 200),
      });
      unclaimed.add(id);
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
    /** Stops the poll and waits for the batch under way. */
    async stop() {
      stopped = true;
      clearTimeout(timer);
      while (running) await running;
    },
    /** Resolves once no dispatch is running or asked for in this process (tests). */
    async idle() {
      // A wake queued on setImmediate has not started yet: let it start, then wait.
      await new Promise<void>((r) => setImmediate(r));
      while (running) await running;
    },
    /** Processes what is due now, in this process; resolves when that is done (a replay). */
    processNow: () => run(),
    /** One dispatch pass now; how many deliveries it claimed (tests). */
    dispatch: () => pass(),
    prune,
    /** Seconds since the oldest delivery not processed yet was received; 0 when none waits. */
    async lagSeconds(): Promise<number> {
      const oldest = await Promise.all(
        (['pending', 'processing'] as const).map((status) =>
          db
            .selectFrom('webhook_deliveries')
            .select('received_at')
            .where('status', '=', status)
            .orderBy('id')
            .limit(1)
            .executeTakeFirst(),
        ),
      );
      const times = oldest.flatMap((r) => (r ? [Date.parse(r.received_at)] : []));
      if (!times.length) return 0;
      return Math.max(0, (now() - Math.min(...times)) / 1000);
    },
  };
}

export type WebhookInbox = ReturnType<typeof createWebhookInbox>;
