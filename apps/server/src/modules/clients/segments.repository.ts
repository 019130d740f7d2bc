import type { Segment, SegmentChip } from '@hablabot/contract';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema';
import { fold } from './fold';

const now = () => new Date().toISOString();

export interface SegmentValues {
  name: string;
  color: string;
  rules: string;
}

/** A company's segments: the only SQL of segments. Every function takes the company it is scoped to. */
export function createSegmentsRepository(db: Kysely<DB>) {
  function segmentsQuery(companyId: number) {
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

  const toSegment = (r: Omit<Segment, 'clients_count'> & { clients_count: number | null }): Segment => ({
    ...r,
    clients_count: Number(r.clients_count ?? 0),
  });

  return {
    async listSegments(companyId: number): Promise<Segment[]> {
      const rows = await segmentsQuery(companyId).orderBy('segments.id').execute();
      return rows.map(toSegment);
    },

    async findSegment(companyId: number, id: number): Promise<Segment | undefined> {
      const row = await segmentsQuery(companyId).where('segments.id', '=', id).executeTakeFirst();
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

    /** Deletes the segment; its links to clients go with it (ON DELETE CASCADE, and explicitly here). */
    async deleteSegment(companyId: number, id: number): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
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
