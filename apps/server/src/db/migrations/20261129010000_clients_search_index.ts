import { type MigrationDb, isPostgres, sql } from '../migration-helpers';

/** Clients copied into the SQLite search index per statement (keyset batches over the primary key). */
export const FILL_BATCH = 2000;

/**
 * Substring indexes for the client search ("contains this text", modules/clients/client-rows.ts
 * `searchCondition`), so a search of a company of 50,000 clients reads only the matches.
 *
 * - PostgreSQL: trigram GIN indexes (pg_trgm, a trusted extension) on `clients.search_text` and
 *   `clients.whatsapp_cellphone`; `like '%text%'` uses them as it is. Where the extension cannot be
 *   created (a server without it), the migration goes on without the indexes and the search scans as
 *   before.
 * - SQLite: `clients_search`, an FTS5 table with the trigram tokenizer over `search_text`,
 *   `whatsapp_cellphone` and `phone_key`, contentless (rowid = clients.id, the texts live in clients), kept by triggers
 *   on insert, update and delete of clients and filled here in keyset batches. The search asks it for
 *   the candidates of a text of 3 or more characters and keeps the LIKE on clients, so the answer is
 *   exactly the LIKE's.
 */
export async function up(db: MigrationDb): Promise<void> {
  if (isPostgres(db)) {
    if (!(await createTrigramExtension(db))) {
      console.warn('clients search index: pg_trgm is not available, client searches scan the table');
      return;
    }
    // The operator class is looked up where the extension lives (its schema may not be on the path).
    const ops = await sql<{ schema: string }>`select n.nspname as schema from pg_extension e
      join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
    const opclass = sql.raw(`${quoteIdent(ops.rows[0]!.schema)}.gin_trgm_ops`);
    await sql`create index clients_search_text_trgm_idx on clients using gin (search_text ${opclass})`.execute(
      db,
    );
    await sql`create index clients_phone_trgm_idx on clients using gin (whatsapp_cellphone ${opclass})`.execute(
      db,
    );
    return;
  }
  await sql`create virtual table clients_search using fts5(
    search_text, whatsapp_cellphone, phone_key, content='', contentless_delete=1, tokenize='trigram')`.execute(
    db,
  );
  const row = (c: string) =>
    `${c}.id, coalesce(${c}.search_text, ''), coalesce(${c}.whatsapp_cellphone, ''), coalesce(${c}.phone_key, '')`;
  const columns = 'rowid, search_text, whatsapp_cellphone, phone_key';
  await sql
    .raw(`create trigger clients_search_on_insert after insert on clients begin
      insert into clients_search (${columns}) values (${row('new')}); end`)
    .execute(db);
  await sql
    .raw(`create trigger clients_search_on_update after update of id, search_text, whatsapp_cellphone on clients begin
      delete from clients_search where rowid = old.id;
      insert into clients_search (${columns}) values (${row('new')}); end`)
    .execute(db);
  await sql
    .raw(`create trigger clients_search_on_delete after delete on clients begin
      delete from clients_search where rowid = old.id; end`)
    .execute(db);
  for (let after = 0; ; ) {
    const last = await sql<{ id: number | null; n: number }>`select max(id) as id, count(*) as n from (
      select id from clients where id > ${after} order by id limit ${FILL_BATCH})`.execute(db);
    const { id, n } = last.rows[0]!;
    if (!n || id === null) break;
    await sql
      .raw(`insert into clients_search (${columns})
        select ${row('clients')} from clients where id > ${after} and id <= ${id}`)
      .execute(db);
    if (n < FILL_BATCH) break;
    after = id;
  }
}

export async function down(db: MigrationDb): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop index if exists clients_search_text_trgm_idx`.execute(db);
    await sql`drop index if exists clients_phone_trgm_idx`.execute(db);
    return; // the extension stays: other schemas of the database may use it
  }
  for (const t of ['insert', 'update', 'delete'])
    await sql.raw(`drop trigger if exists clients_search_on_${t}`).execute(db);
  await sql`drop table if exists clients_search`.execute(db);
}

/**
 * pg_trgm in the schema `public` (shared by every schema of the database, so dropping one schema never
 * takes it from the others), else in the current schema; false when neither is allowed. Each try is a
 * savepoint: a refusal must not abort the migration's transaction.
 */
async function createTrigramExtension(db: MigrationDb): Promise<boolean> {
  for (const where of [sql`with schema public`, sql``]) {
    await sql`savepoint clients_search_trgm`.execute(db);
    try {
      await sql`create extension if not exists pg_trgm ${where}`.execute(db);
      await sql`release savepoint clients_search_trgm`.execute(db);
      return true;
    } catch {
      await sql`rollback to savepoint clients_search_trgm`.execute(db);
    }
  }
  return false;
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
