import { type Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { emptyDatabaseForFile, engine } from '../../../test/migration-database';
import { migrateTo } from '../migrate';
import { FILL_BATCH } from './20261129010000_clients_search_index';
import { migrations } from './index';

const NAME = '20261129010000_clients_search_index';
const names = Object.keys(migrations).sort();
const BEFORE = names[names.indexOf(NAME) - 1]!;
const pg = engine === 'postgres';

describe(`migration ${NAME} (${engine})`, () => {
  const t = emptyDatabaseForFile();

  it('indexes the existing clients (in batches), goes back down and up again', async () => {
    // biome-ignore lint/suspicious/noExplicitAny: the tables as they were before this migration
    const db = t.database.db as unknown as Kysely<any>;
    await migrateTo(t.database.db, BEFORE, t.schema);
    const at = '2026-11-20T10:00:00.000Z';
    const { id: company } = await db
      .insertInto('companies')
      .values({ name: 'Acme', created_at: at, updated_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    const insert = async (from: number, count: number) => {
      for (let k = from; k < from + count; k += 500)
        await db
          .insertInto('clients')
          .values(
            Array.from({ length: Math.min(500, from + count - k) }, (_, i) => ({
              company_id: company,
              name: `Cliente ${k + i}`,
              whatsapp_cellphone: `3460${String(k + i).padStart(7, '0')}`,
              search_text: `cliente ${k + i}x`,
              created_at: at,
              updated_at: at,
            })),
          )
          .execute();
    };
    // More than two batches, the last one short.
    const total = 2 * FILL_BATCH + 7;
    await insert(0, total);
    const idOf = async (k: number) =>
      (
        await db
          .selectFrom('clients')
          .select('id')
          .where('name', '=', `Cliente ${k}`)
          .executeTakeFirstOrThrow()
      ).id;

    /** The clients the index finds for a text inside search_text (SQLite) and whether PostgreSQL's indexes exist. */
    const indexed = async (text: string) =>
      (
        await sql<{ id: number }>`select rowid as id from clients_search
          where clients_search match ${`search_text : "${text}"`} order by rowid`.execute(db)
      ).rows.map((r) => r.id);
    const pgIndexes = async () =>
      (
        await sql<{ name: string }>`select indexname as name from pg_indexes
          where schemaname = current_schema() and tablename = 'clients' and indexname like '%trgm%' order by 1`.execute(
          db,
        )
      ).rows.map((r) => r.name);

    await migrateTo(t.database.db, NAME, t.schema);
    if (pg) expect(await pgIndexes()).toEqual(['clients_phone_trgm_idx', 'clients_search_text_trgm_idx']);
    else {
      const n = await sql<{ n: number }>`select count(*) as n from clients_search`.execute(db);
      expect(Number(n.rows[0]!.n)).toBe(total);
      expect(await indexed('cliente 0x')).toEqual([await idOf(0)]);
      expect(await indexed(`cliente ${FILL_BATCH}x`)).toEqual([await idOf(FILL_BATCH)]);
      expect(await indexed(`cliente ${total - 1}x`)).toEqual([await idOf(total - 1)]);
    }

    await migrateTo(t.database.db, BEFORE, t.schema);
    if (pg) expect(await pgIndexes()).toEqual([]);
    else {
      const left = await sql<{
        name: string;
      }>`select name from sqlite_master where name like 'clients_search%'`.execute(db);
      expect(left.rows).toEqual([]);
    }
    // Written while the index is gone: indexed when it comes back.
    await insert(total, 1);
    await migrateTo(t.database.db, NAME, t.schema);
    if (pg) expect(await pgIndexes()).toEqual(['clients_phone_trgm_idx', 'clients_search_text_trgm_idx']);
    else expect(await indexed(`cliente ${total}x`)).toEqual([await idOf(total)]);
  });
});
