import { sql } from 'kysely';
import type { Timestamp } from '../../db/schema';
import { type Executor, atomically } from '../../db/transactions';

const now = () => new Date().toISOString();

/** A quick reply with its library file's row, when it has one (the service builds the file's URL). */
export interface QuickReplyRow {
  id: number;
  shortcut: string;
  text: string;
  media_id: number | null;
  media_name: string | null;
  media_mime_type: string | null;
  media_storage_key: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface QuickReplyValues {
  shortcut: string;
  text: string;
  mediaId: number | null;
}

/** A company's quick replies: the only SQL of them. Every function takes the company it is scoped to. */
export function createQuickRepliesRepository(db: Executor) {
  function rowsQuery(companyId: number) {
    return db
      .selectFrom('quick_replies')
      .leftJoin('media', 'media.id', 'quick_replies.media_id')
      .select([
        'quick_replies.id',
        'quick_replies.shortcut',
        'quick_replies.text',
        'quick_replies.media_id',
        'media.file_name as media_name',
        'media.mime_type as media_mime_type',
        'media.storage_key as media_storage_key',
        'quick_replies.created_at',
        'quick_replies.updated_at',
      ])
      .where('quick_replies.company_id', '=', companyId);
  }

  return {
    /** All of them, by shortcut (at most QUICK_REPLIES_MAX). */
    async list(companyId: number): Promise<QuickReplyRow[]> {
      return rowsQuery(companyId).orderBy('quick_replies.shortcut').execute();
    },

    async find(companyId: number, id: number): Promise<QuickReplyRow | undefined> {
      return rowsQuery(companyId).where('quick_replies.id', '=', id).executeTakeFirst();
    },

    /** Whether another of the company's quick replies has this shortcut. */
    async shortcutTaken(companyId: number, shortcut: string, exceptId?: number): Promise<boolean> {
      let q = db
        .selectFrom('quick_replies')
        .select('id')
        .where('company_id', '=', companyId)
        .where('shortcut', '=', shortcut);
      if (exceptId) q = q.where('id', '!=', exceptId);
      return (await q.executeTakeFirst()) !== undefined;
    },

    /**
     * Creates one unless the company already has `max` (undefined then). The count and the insert run in
     * one transaction; the unique index on (company, shortcut) settles a race on the same shortcut.
     */
    async create(companyId: number, values: QuickReplyValues, max: number): Promise<number | undefined> {
      return atomically(db, async (trx) => {
        const count = await trx
          .selectFrom('quick_replies')
          .select(sql<number>`cast(count(*) as integer)`.as('n'))
          .where('company_id', '=', companyId)
          .executeTakeFirstOrThrow();
        if (Number(count.n) >= max) return undefined;
        const at = now();
        const row = await trx
          .insertInto('quick_replies')
          .values({
            company_id: companyId,
            shortcut: values.shortcut,
            text: values.text,
            media_id: values.mediaId,
            created_at: at,
            updated_at: at,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        return row.id;
      });
    },

    /** True when the company had it. */
    async update(companyId: number, id: number, values: QuickReplyValues): Promise<boolean> {
      const result = await db
        .updateTable('quick_replies')
        .set({ shortcut: values.shortcut, text: values.text, media_id: values.mediaId, updated_at: now() })
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** True when the company had it. */
    async remove(companyId: number, id: number): Promise<boolean> {
      const result = await db
        .deleteFrom('quick_replies')
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

export type QuickRepliesRepository = ReturnType<typeof createQuickRepliesRepository>;
