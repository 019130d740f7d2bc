import type { MediaKind } from '@hablabot/contract';
import { type Kysely, sql } from 'kysely';
import type { DB, MediaRow } from '../../db/schema';
import { fold } from '../clients/fold';

const now = () => new Date().toISOString();

export interface NewMedia {
  userId: number | null;
  fileName: string;
  storageKey: string;
  mimeType: string;
  kind: MediaKind;
  size: number;
  sha256: string;
}

/** A library row as the service uses it (size as a number on both engines). */
export type MediaRecord = Omit<MediaRow, 'size' | 'kind'> & { size: number; kind: MediaKind };

const toRecord = (row: MediaRow): MediaRecord => ({
  ...row,
  size: Number(row.size),
  kind: row.kind as MediaKind,
});

/** `%`, `_` and `\` typed in a search are matched as themselves. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A company's media library: the only SQL of media. Every function takes the company it is scoped to. */
export function createMediaRepository(db: Kysely<DB>) {
  function scoped(companyId: number, search?: string) {
    let q = db.selectFrom('media').where('company_id', '=', companyId);
    const key = search ? fold(search) : '';
    if (key) q = q.where(sql<boolean>`name_key like ${likePattern(key)} escape '\\'`);
    return q;
  }

  return {
    /** One page of the library, newest first, and how many files match in all. */
    async listMedia(
      companyId: number,
      options: { search?: string; limit: number; offset: number },
    ): Promise<{ rows: MediaRecord[]; total: number }> {
      const [rows, count] = await Promise.all([
        scoped(companyId, options.search)
          .selectAll()
          .orderBy('id', 'desc')
          .limit(options.limit)
          .offset(options.offset)
          .execute(),
        scoped(companyId, options.search)
          .select(sql<number>`cast(count(*) as integer)`.as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { rows: rows.map(toRecord), total: Number(count.n) };
    },

    async findMedia(companyId: number, id: number): Promise<MediaRecord | undefined> {
      const row = await db
        .selectFrom('media')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? toRecord(row) : undefined;
    },

    /** The row of a stored file, whichever company owns it (for the public /storage route). */
    async findByStorageKey(storageKey: string): Promise<MediaRecord | undefined> {
      const row = await db
        .selectFrom('media')
        .selectAll()
        .where('storage_key', '=', storageKey)
        .executeTakeFirst();
      return row ? toRecord(row) : undefined;
    },

    async createMedia(companyId: number, values: NewMedia): Promise<MediaRecord> {
      const at = now();
      const row = await db
        .insertInto('media')
        .values({
          company_id: companyId,
          user_id: values.userId,
          file_name: values.fileName,
          name_key: fold(values.fileName),
          storage_key: values.storageKey,
          mime_type: values.mimeType,
          kind: values.kind,
          size: values.size,
          sha256: values.sha256,
          created_at: at,
          updated_at: at,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toRecord(row);
    },

    /** Deletes the row and answers it (its storage key is the caller's to remove), or undefined. */
    async deleteMedia(companyId: number, id: number): Promise<MediaRecord | undefined> {
      const row = await db
        .deleteFrom('media')
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      return row ? toRecord(row) : undefined;
    },
  };
}

export type MediaRepository = ReturnType<typeof createMediaRepository>;
