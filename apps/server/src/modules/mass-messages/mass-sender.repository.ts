import type { MassMessageStatus } from '@hablabot/contract';
import { sql } from 'kysely';
import { prepared } from '../../db/prepared';
import type { Executor } from '../../db/transactions';
import { type Clock, isoAt } from '../../platform/clock';
import type { MassMessageRow, RecipientRow } from './mass-messages.repository';
import { SKIPPED_OPTED_OUT, skipOptedOutRecipients } from './opted-out';

/** Whether the recipient's client opted out of campaigns (`clients.opted_out_at`), checked as it is claimed. */
const optedOut = sql<boolean>`exists (select 1 from clients where clients.id = mass_message_recipients.client_id and clients.opted_out_at is not null)`;

/**
 * Takes up to `limit` of the send's queued recipients whose wait is over, lowest id first, marking them
 * `sending` — or `skipped` with the reason `opted_out` when their client opted out after the send was
 * created (consent is checked in the same statement, so an opt-out during the send still counts). Run
 * for every slot of a send's pace, so compiled once (db/prepared.ts).
 */
const claimQuery = prepared((db, v: { massMessageId: number; limit: number; at: string }) =>
  db
    .updateTable('mass_message_recipients')
    .set({
      status: sql`case when ${optedOut} then ${sql.lit('skipped')} else ${sql.lit('sending')} end`,
      attempts: sql`case when ${optedOut} then attempts else attempts + 1 end`,
      skip_reason: sql`case when ${optedOut} then ${sql.lit('opted_out')} else skip_reason end`,
      error_message: sql`case when ${optedOut} then ${sql.lit(SKIPPED_OPTED_OUT)} else error_message end`,
      updated_at: v.at,
    })
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('mass_message_recipients')
        .select('id')
        .where('mass_message_id', '=', v.massMessageId)
        .where('status', '=', 'queued')
        .where((w) => w.or([w('not_before', 'is', null), w('not_before', '<=', v.at)]))
        .orderBy('id')
        .limit(v.limit),
    )
    .where('status', '=', 'queued')
    .returningAll(),
);

/** A recipient WhatsApp accepted, unless its outcome moved on meanwhile (see `settle`). */
const settleSentQuery = prepared((db, v: { recipientId: number; wamid: string; at: string }) =>
  db
    .updateTable('mass_message_recipients')
    .set({
      status: 'sent',
      wamid: v.wamid,
      error_code: null,
      error_message: null,
      sent_at: v.at,
      updated_at: v.at,
    })
    .where('id', '=', v.recipientId)
    .where('status', 'in', ['sending', 'unknown']),
);

/** Sends still to be worked on by the sender. */
export const ACTIVE: MassMessageStatus[] = ['queued', 'sending'];

/**
 * The sender's database work: the lease on a send, claiming its recipients, settling each one's answer,
 * and finding the sends to run. Every time written or compared is the sender's clock.
 */
export function createMassSenderRepository(db: Executor, clock: Clock) {
  const iso = (ms = 0) => isoAt(clock, ms);
  return {
    /**
     * Takes the send for `owner` until `leaseMs` from now — when it is still to be worked on and nobody
     * else holds it (or their lease ran out) — and marks it `sending`. Whether it was taken.
     */
    async acquire(massMessageId: number, owner: string, leaseMs: number): Promise<boolean> {
      const result = await db
        .updateTable('mass_messages')
        .set({
          lease_owner: owner,
          lease_until: iso(leaseMs),
          status: 'sending',
          started_at: sql`coalesce(started_at, ${iso()})`,
          updated_at: iso(),
        })
        .where('id', '=', massMessageId)
        .where('status', 'in', ACTIVE)
        .where((eb) =>
          eb.or([
            eb('lease_until', 'is', null),
            eb('lease_until', '<', iso()),
            eb('lease_owner', '=', owner),
          ]),
        )
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Keeps the lease `leaseMs` more; false when `owner` lost it. */
    async renew(massMessageId: number, owner: string, leaseMs: number): Promise<boolean> {
      const result = await db
        .updateTable('mass_messages')
        .set({ lease_until: iso(leaseMs) })
        .where('id', '=', massMessageId)
        .where('lease_owner', '=', owner)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async release(massMessageId: number, owner: string) {
      await db
        .updateTable('mass_messages')
        .set({ lease_owner: null, lease_until: null })
        .where('id', '=', massMessageId)
        .where('lease_owner', '=', owner)
        .execute();
    },

    /** The send is done: completed, its lease let go. */
    async finish(massMessageId: number) {
      await db
        .updateTable('mass_messages')
        .set({
          status: 'completed',
          finished_at: iso(),
          lease_owner: null,
          lease_until: null,
          updated_at: iso(),
        })
        .where('id', '=', massMessageId)
        .where('status', 'in', ACTIVE)
        .execute();
    },

    /**
     * The send waits for the number's daily limit to free room until `until` (null: it no longer waits),
     * for the report's 'En espera del límite diario'.
     */
    async setWaitingLimit(massMessageId: number, until: number | null) {
      await db
        .updateTable('mass_messages')
        .set({ waiting_limit_until: until === null ? null : new Date(until).toISOString() })
        .where('id', '=', massMessageId)
        .execute();
    },

    /**
     * A recipient Meta reported failed for its marketing frequency cap (131049) after accepting it: back to
     * `queued` for `waitMs` ('Reintento programado'), once — a recipient that already waited (its
     * `not_before` set) is left failed. Whether it was queued; a send that had completed is queued again.
     */
    async requeueCapped(massMessageId: number, wamid: string, waitMs: number): Promise<boolean> {
      const result = await db
        .updateTable('mass_message_recipients')
        .set({
          status: 'queued',
          not_before: iso(waitMs),
          error_message: 'mass.retry_scheduled',
          updated_at: iso(),
        })
        .where('mass_message_id', '=', massMessageId)
        .where('wamid', '=', wamid)
        .where('status', '=', 'failed')
        .where('error_code', '=', 131049)
        .where('not_before', 'is', null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      await db
        .updateTable('mass_messages')
        .set({ status: 'queued', finished_at: null, updated_at: iso() })
        .where('id', '=', massMessageId)
        .where('status', '=', 'completed')
        .execute();
      return true;
    },

    /** A scheduled send whose time came is queued; customers who opted out meanwhile are skipped. */
    async startScheduled(massMessageId: number) {
      const started = await db
        .updateTable('mass_messages')
        .set({ status: 'queued', updated_at: iso() })
        .where('id', '=', massMessageId)
        .where('status', '=', 'scheduled')
        .returning(['id', 'company_id'])
        .executeTakeFirst();
      if (started) await skipOptedOutRecipients(db, started, iso());
    },

    /**
     * Recipients left `sending` by a process that stopped while their request was out: whether it went
     * is unknown, so they become `unknown`. How many.
     */
    async orphansToUnknown(massMessageId: number): Promise<number> {
      const result = await db
        .updateTable('mass_message_recipients')
        .set({ status: 'unknown', error_message: 'mass.unconfirmed', updated_at: iso() })
        .where('mass_message_id', '=', massMessageId)
        .where('status', '=', 'sending')
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    /** How many of the company's sends are `sending` (at least one: the caller's). */
    async runningSends(companyId: number): Promise<number> {
      const row = await db
        .selectFrom('mass_messages')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('company_id', '=', companyId)
        .where('status', '=', 'sending')
        .executeTakeFirstOrThrow();
      return Math.max(1, Number(row.n));
    },

    /**
     * Marks the next `limit` queued recipients whose wait is over `sending` and gives them, by id, in one
     * statement (the run holds the send's lease, so no other run claims the same rows). Those whose client
     * opted out meanwhile become `skipped` in that statement and are not given; when there were any, one
     * more statement claims as many again.
     */
    async claim(massMessageId: number, limit: number): Promise<RecipientRow[]> {
      const claimed: RecipientRow[] = [];
      // Recipients skipped for an opt-out take no place of the pace: their places are claimed again.
      for (let wanted = limit; wanted > 0; ) {
        const { rows } = await claimQuery(db, { massMessageId, limit: wanted, at: iso() });
        if (!rows.length) break;
        const sending = (rows as RecipientRow[]).filter((r) => r.status === 'sending');
        claimed.push(...sending);
        wanted = rows.length - sending.length;
      }
      return claimed.sort((a, b) => a.id - b.id);
    },

    /** How many recipients are still queued, and the earliest time a waiting one may be tried. */
    async nextWaiting(massMessageId: number): Promise<{ left: number; next?: number }> {
      const row = await db
        .selectFrom('mass_message_recipients')
        .select([(eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.min('not_before').as('next')])
        .where('mass_message_id', '=', massMessageId)
        .where('status', '=', 'queued')
        .executeTakeFirstOrThrow();
      const next = row.next ? Date.parse(String(row.next)) : undefined;
      return { left: Number(row.n), next };
    },

    /**
     * Recipients WhatsApp accepted, each with its wamid, in one statement: `sent` unless their outcome
     * moved on meanwhile (only `sending` or `unknown` ones change — a late answer for a recipient marked
     * unknown still tells the truth). What most answers write, gathered by the sender (see sent-batch.ts).
     */
    async settleSent(accepted: { recipientId: number; wamid: string }[]) {
      if (!accepted.length) return;
      const at = iso();
      if (accepted.length === 1) {
        const [one] = accepted;
        await settleSentQuery(db, { recipientId: one.recipientId, wamid: one.wamid, at });
        return;
      }
      const wamids = sql.join(
        accepted.map((a) => sql`when ${a.recipientId} then ${a.wamid}`),
        sql` `,
      );
      await db
        .updateTable('mass_message_recipients')
        .set({
          status: 'sent',
          wamid: sql`case id ${wamids} end`,
          error_code: null,
          error_message: null,
          sent_at: at,
          updated_at: at,
        })
        .where(
          'id',
          'in',
          accepted.map((a) => a.recipientId),
        )
        .where('status', 'in', ['sending', 'unknown'])
        .execute();
    },

    /**
     * Writes a recipient's outcome, when it is still in one of the states `from` (by default `sending`,
     * so an outcome never overwrites a later one). `waitMs` sets when it may be tried again.
     */
    async settle(
      recipientId: number,
      set: Partial<
        Pick<RecipientRow, 'status' | 'wamid' | 'error_code' | 'error_message'> & { waitMs: number }
      >,
      from: string[] = ['sending'],
    ) {
      const { waitMs, ...columns } = set;
      if (
        columns.status === 'sent' &&
        columns.wamid &&
        waitMs === undefined &&
        columns.error_code === null &&
        columns.error_message === null &&
        from.join() === 'sending,unknown'
      ) {
        // What most answers write: compiled once.
        const at = iso();
        await settleSentQuery(db, { recipientId, wamid: columns.wamid, at });
        return;
      }
      await db
        .updateTable('mass_message_recipients')
        .set({
          ...columns,
          ...(waitMs !== undefined ? { not_before: iso(waitMs) } : {}),
          ...(columns.status === 'sent' ? { sent_at: iso() } : {}),
          updated_at: iso(),
        })
        .where('id', '=', recipientId)
        .where('status', 'in', from)
        .execute();
    },

    /**
     * Sends still to be worked on that nobody holds, that have not moved for `quietMs` and that `skip`
     * does not name: each is
     * touched (so the next look skips it for `quietMs`) and given back.
     */
    async takeStale(quietMs: number, skip: (id: number) => boolean): Promise<MassMessageRow[]> {
      const found = await db
        .selectFrom('mass_messages')
        .selectAll()
        .where('status', 'in', ACTIVE)
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', iso())]))
        // A send waiting for the daily limit has its run queued for when room frees.
        .where((eb) => eb.or([eb('waiting_limit_until', 'is', null), eb('waiting_limit_until', '<', iso())]))
        .where('updated_at', '<', iso(-quietMs))
        .execute();
      const sends = (found as MassMessageRow[]).filter((send) => !skip(send.id));
      for (const send of sends)
        await db.updateTable('mass_messages').set({ updated_at: iso() }).where('id', '=', send.id).execute();
      return sends;
    },

    /** Every send still to be worked on, scheduled ones included. */
    async resumable(): Promise<MassMessageRow[]> {
      return (await db
        .selectFrom('mass_messages')
        .selectAll()
        .where('status', 'in', ['queued', 'sending', 'scheduled'])
        .execute()) as MassMessageRow[];
    },
  };
}

export type MassSenderRepository = ReturnType<typeof createMassSenderRepository>;
