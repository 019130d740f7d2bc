import type { Segment, SegmentChip } from '@hablabot/contract';
import { sql } from 'kysely';
import { prepared } from '../../db/prepared';
import { type Executor, atomically } from '../../db/transactions';
import { fold } from './fold';

const now = () => new Date().toISOString();

export interface SegmentValues {
  name: string;
  color: string;
  rules: string;
}

/** Rows per statement when linking clients in bulk. */
const CHUNK = 500;

/** A segment as the API shows it: its row and how many clients are in it. */
function segmentsQuery(db: Executor, companyId: number) {
  return db
    .selectFrom('segments')
    .select([
      'segments.id',
      'segments.name',
      'segments.color',
      'segments.rules',
      'segments.created_at',
      'segments.updated_at',
      (eb) =>
        eb
          .selectFrom('client_segments')
          .select(sql<number>`cast(count(*) as integer)`.as('n'))
          .whereRef('client_segments.segment_id', '=', 'segments.id')
          .as('clients_count'),
    ])
    .where('segments.company_id', '=', companyId);
}

/**
 * The company's segments in id order: the segments screen and every segment picker read it, so it is
 * compiled once (db/prepared.ts) instead of being built and compiled again on each request.
 */
const companySegments = prepared((db, v: { companyId: number }) =>
  segmentsQuery(db, v.companyId).orderBy('segments.id'),
);

const toSegment = (r: Omit<Segment, 'clients_count'> & { clients_count: number | null }): Segment => ({
  ...r,
  clients_count: Number(r.clients_count ?? 0),
});

/**
 * A company's segments and which clients are in them (the client_segments links): the only SQL that
 * writes either. Every function takes the company it is scoped to; a link is only ever made between a
 * client and a segment of that company, whatever ids the caller passes. Built on the database or on a
 * transaction (see `createRepositories`).
 */
export function createSegmentsRepository(db: Executor) {
  return {
    async listSegments(companyId: number): Promise<Segment[]> {
      return (await companySegments(db, { companyId })).rows.map(toSegment);
    },

    async findSegment(companyId: number, id: number): Promise<Segment | undefined> {
      const row = await segmentsQuery(db, companyId).where('segments.id', '=', id).executeTakeFirst();
      return row ? toSegment(row) : undefined;
    },

    /** The chips of those ids that belong to the company (others are left out). */
    async findChips(companyId: number, ids: number[]): Promise<SegmentChip[]> {
      if (ids.length === 0) return [];
      return db
        .selectFrom('segments')
        .select(['id', 'name', 'color'])
        .where('company_id', '=', companyId)
        .where('id', 'in', ids)
        .orderBy('id')
        .execute();
    },

    /** Every segment of the company by its folded name, for matching names typed in a file. */
    async chipsByFoldedName(companyId: number): Promise<Map<string, SegmentChip>> {
      const rows = await db
        .selectFrom('segments')
        .select(['id', 'name', 'color', 'name_key'])
        .where('company_id', '=', companyId)
        .execute();
      return new Map(rows.map((r) => [r.name_key, { id: r.id, name: r.name, color: r.color }]));
    },

    async nameTaken(companyId: number, name: string, exceptId?: number): Promise<boolean> {
      let q = db
        .selectFrom('segments')
        .select('id')
        .where('company_id', '=', companyId)
        .where('name_key', '=', fold(name));
      if (exceptId) q = q.where('id', '!=', exceptId);
      return (await q.executeTakeFirst()) !== undefined;
    },

    async createSegment(companyId: number, values: SegmentValues): Promise<number> {
      const at = now();
      const row = await db
        .insertInto('segments')
        .values({
          company_id: companyId,
          ...values,
          name_key: fold(values.name),
          created_at: at,
          updated_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    async updateSegment(companyId: number, id: number, values: SegmentValues): Promise<boolean> {
      const result = await db
        .updateTable('segments')
        .set({ ...values, name_key: fold(values.name), updated_at: now() })
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /**
     * Makes these the client's segments, removing the others. Only segments of the company are linked,
     * and only to a client of the company: false when any of them could not be (the caller rolls back).
     * Call it in the transaction of the client's own write.
     */
    async setClientSegments(companyId: number, clientId: number, segmentIds: number[]): Promise<boolean> {
      const wanted = [...new Set(segmentIds)];
      return atomically(db, async (trx) => {
        await trx
          .deleteFrom('client_segments')
          .where('client_id', '=', clientId)
          .where('client_id', 'in', (eb) =>
            eb.selectFrom('clients').select('id').where('company_id', '=', companyId),
          )
          .execute();
        if (wanted.length === 0) return true;
        const result = await trx
          .insertInto('client_segments')
          .columns(['client_id', 'segment_id'])
          .expression((eb) =>
            eb
              .selectFrom('clients')
              .innerJoin('segments', 'segments.company_id', 'clients.company_id')
              .select(['clients.id', 'segments.id'])
              .where('clients.company_id', '=', companyId)
              .where('clients.id', '=', clientId)
              .where('segments.id', 'in', wanted),
          )
          .executeTakeFirst();
        return Number(result.numInsertedOrUpdatedRows ?? 0) === wanted.length;
      });
    },

    /**
     * Adds clients to the segment, never removing a link; only a segment and clients of the company are
     * linked (others are left out). How many links are new.
     */
    async addClientsToSegment(companyId: number, segmentId: number, clientIds: number[]): Promise<number> {
      return atomically(db, async (trx) => {
        let added = 0;
        for (let i = 0; i < clientIds.length; i += CHUNK) {
          const result = await trx
            .insertInto('client_segments')
            .columns(['client_id', 'segment_id'])
            .expression((eb) =>
              eb
                .selectFrom('clients')
                .innerJoin('segments', 'segments.company_id', 'clients.company_id')
                .select(['clients.id', 'segments.id'])
                .where('clients.company_id', '=', companyId)
                .where('segments.id', '=', segmentId)
                .where('clients.id', 'in', clientIds.slice(i, i + CHUNK)),
            )
            .onConflict((oc) => oc.columns(['client_id', 'segment_id']).doNothing())
            .executeTakeFirst();
          added += Number(result.numInsertedOrUpdatedRows ?? 0);
        }
        return added;
      });
    },

    /** Deletes the segment and its links to clients; false when it is not the company's. */
    async deleteSegment(companyId: number, id: number): Promise<boolean> {
      return atomically(db, async (trx) => {
        const owned = await trx
          .selectFrom('segments')
          .select('id')
          .where('company_id', '=', companyId)
          .where('id', '=', id)
          .executeTakeFirst();
        if (!owned) return false;
        await trx.deleteFrom('client_segments').where('segment_id', '=', id).execute();
        await trx.deleteFrom('segments').where('id', '=', id).execute();
        return true;
      });
    },
  };
}

export type SegmentsRepository = ReturnType<typeof createSegmentsRepository>;
