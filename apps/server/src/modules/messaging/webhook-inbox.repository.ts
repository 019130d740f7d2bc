import { type Kysely, sql } from 'kysely';
import type { Engine } from '../../db/database';
import type { DB } from '../../db/schema';

/**
 * The SQL of the durable webhook inbox (webhook-inbox.ts says when each runs): keeping deliveries,
 * claiming them, marking them done or for a retry, renewing a lease, the retention and the lag.
 *
 * A row's life: `pending` (due from `next_attempt_at`) → `processing` (held by `locked_by` until
 * `locked_until`) → `done`, or back to `pending` for a retry, or `failed` after the last try.
 * Times are ISO strings, compared as text.
 */

/** A delivery as kept: its bytes as text, when it came, the companies it concerns. */
export type Kept = { at: string; body: string; companyIds: string };

/** A delivery taken for processing. */
export type InboxRow = { id: number; body: string; attempts: number };

/** A kept delivery's id, and whether the insert left it held by the process that kept it. */
export type KeptRow = { id: number; held: boolean };

/** The advisory lock that serializes claims on PostgreSQL (any fixed number of ours). */
const CLAIM_LOCK = 7_730_021;

export function createWebhookInboxRepository(deps: {
  db: Kysely<DB>;
  engine: Engine;
  /** The process's name in `locked_by`. */
  owner: string;
}) {
  const { db, engine, owner } = deps;

  /**
   * SQLite: keeps the deliveries already claimed by this process (`processing`, attempts 1, leased
   * until `until`) when nothing else is due — no pending delivery whose time came, no row another
   * process holds or left — so the dispatcher needs no claim for them; else `pending`, for the claim.
   * One statement, so the check and the insert cannot be split by another writer.
   */
  async function keepSqlite(items: Kept[], at: string, until: string): Promise<KeptRow[]> {
    const values = sql.join(items.map((v) => sql`(${v.at}, ${v.body}, ${v.companyIds})`));
    const { rows } = await sql<{ id: number; status: string }>`
      insert into webhook_deliveries
        (received_at, body, company_ids, status, attempts, next_attempt_at, locked_by, locked_until)
      select v.column1, v.column2, v.column3,
        case when f.free then 'processing' else 'pending' end, f.free, v.column1,
        case when f.free then ${owner} end, case when f.free then ${until} end
      from (values ${values}) as v,
        (select not exists (select 1 from webhook_deliveries where status = 'pending' and next_attempt_at <= ${at})
          and not exists (select 1 from webhook_deliveries where status = 'processing' and locked_by <> ${owner})
          as free) as f
      returning id, status`.execute(db);
    // One insert numbers its rows in the order of its values.
    return rows
      .map((r) => ({ id: Number(r.id), held: r.status === 'processing' }))
      .sort((a, b) => a.id - b.id);
  }

  return {
    /**
     * Keeps checked deliveries in one insert; their ids in the order given. With `hold` (SQLite), a
     * delivery may come back held by this process (see `keepSqlite`); else it is pending.
     */
    async keep(items: Kept[], options: { hold: boolean; at: string; until: string }): Promise<KeptRow[]> {
      if (options.hold && engine === 'sqlite') return keepSqlite(items, options.at, options.until);
      const rows = await db
        .insertInto('webhook_deliveries')
        .values(
          items.map((v) => ({
            received_at: v.at,
            body: v.body,
            company_ids: v.companyIds,
            status: 'pending' as const,
            attempts: 0,
            next_attempt_at: v.at,
          })),
        )
        .returning('id')
        .execute();
      // Both engines return the rows of a multi-row insert in the order of its values.
      return rows.map((r) => ({ id: r.id, held: false }));
    },

    /**
     * Takes up to `batch` due deliveries in id order — pending ones whose time came, and those whose
     * holder's lease ran out (it died) — unless another process holds a live lease on some (one
     * dispatcher at a time). One short transaction, serialized on PostgreSQL by an advisory lock.
     */
    claim(at: string, until: string, batch: number): Promise<InboxRow[]> {
      return db.transaction().execute(async (trx) => {
        if (engine === 'postgres') await sql`select pg_advisory_xact_lock(${CLAIM_LOCK})`.execute(trx);
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
            locked_until: until,
            attempts: eb('attempts', '+', 1),
          }))
          .where('id', 'in', ids)
          .returning(['id', 'body', 'attempts'])
          .execute();
        return rows.sort((a, b) => a.id - b.id);
      });
    },

    /** Renews this process's lease on these deliveries; the ids still its own. */
    async renew(ids: number[], until: string): Promise<number[]> {
      if (!ids.length) return [];
      const rows = await db
        .updateTable('webhook_deliveries')
        .set({ locked_until: until })
        .where('id', 'in', ids)
        .where('status', '=', 'processing')
        .where('locked_by', '=', owner)
        .returning('id')
        .execute();
      return rows.map((r) => r.id);
    },

    async markDone(ids: number[], at: string) {
      await db
        .updateTable('webhook_deliveries')
        .set({ status: 'done', processed_at: at, locked_by: null, locked_until: null, last_error: null })
        .where('id', 'in', ids)
        .where('locked_by', '=', owner)
        .execute();
    },

    /** A failed try: pending again from `nextAt`, or failed for good (`last`). */
    async markFailed(id: number, error: string, options: { last: boolean; nextAt: string }) {
      await db
        .updateTable('webhook_deliveries')
        .set({
          status: options.last ? 'failed' : 'pending',
          next_attempt_at: options.nextAt,
          locked_by: null,
          locked_until: null,
          last_error: error,
        })
        .where('id', '=', id)
        .where('locked_by', '=', owner)
        .execute();
    },

    /** Gives back deliveries this process held and did not start (it is stopping): pending, untried. */
    async release(ids: number[], at: string) {
      if (!ids.length) return;
      await db
        .updateTable('webhook_deliveries')
        .set((eb) => ({
          status: 'pending' as const,
          next_attempt_at: at,
          locked_by: null,
          locked_until: null,
          attempts: eb('attempts', '-', 1),
        }))
        .where('id', 'in', ids)
        .where('status', '=', 'processing')
        .where('locked_by', '=', owner)
        .execute();
    },

    /** Deletes up to 1,000 deliveries done before `before` (a slice, so a backlog never holds the writer long). */
    async prune(before: string): Promise<number> {
      const old = db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('status', '=', 'done')
        .where('processed_at', '<', before)
        .limit(1000);
      const [result] = await db.deleteFrom('webhook_deliveries').where('id', 'in', old).execute();
      return Number(result?.numDeletedRows ?? 0);
    },

    /** When the oldest delivery not processed yet was received (ms), if one waits. */
    async oldestWaiting(): Promise<number | undefined> {
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
      return times.length ? Math.min(...times) : undefined;
    },
  };
}

export type WebhookInboxRepository = ReturnType<typeof createWebhookInboxRepository>;
