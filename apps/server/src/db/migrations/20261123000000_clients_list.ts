import { foldText } from '@hablabot/contract';
import { type MigrationDb, isPostgres, sql } from '../migration-helpers';

/** Rows read and rewritten per statement while filling the new column. */
const BACKFILL_BATCH = 500;

/**
 * The client table's sorts, read from indexes; one sort key for names and one search text, each the
 * same on both engines.
 *
 * - `name_sort`: the name and then the last names, folded (lower case, no accents, single spaces) and
 *   joined by U+0001, which sorts before every character a name can hold, so 'Ana' + 'Zubiri' comes
 *   before 'Ana María' + 'Abad' exactly as "by name, then by last names" means. PostgreSQL compares it
 *   byte by byte (collation "C") like SQLite does, so the order does not depend on the server's locale.
 *   The repository writes it on every insert and update (`derivedColumns` in clients.repository.ts);
 *   existing rows are filled here in batches.
 * - `search_text`: name, last names and email, folded, separated by single spaces — what a search is
 *   matched against with LIKE after folding the search the same way, so 'ANGEL' finds 'Ángel' on both
 *   engines (SQLite's lower() folds only ASCII). Kept and filled like `name_sort`.
 * - One index per sort of GET /admin/client, each ending in `id` (the tie-breaker that makes pages
 *   stable): (company_id, id), (company_id, name_sort, id), (company_id, email, id) with NULLs first on
 *   both engines, (company_id, created_at, id). The phone sort uses the unique (company_id,
 *   whatsapp_cellphone) index, phones being unique per company.
 * - The chat list's index orders names by `name_sort` instead of lower(name) (which folds only ASCII on
 *   SQLite): the same order on both engines, accents ignored.
 */
export async function up(db: MigrationDb): Promise<void> {
  const pg = isPostgres(db);
  await db.schema
    .alterTable('clients')
    .addColumn('name_sort', pg ? sql`text collate "C"` : 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('clients')
    .addColumn('search_text', 'text', (c) => c.notNull().defaultTo(''))
    .execute();

  for (let lastId = 0; ; ) {
    const rows: { id: number; name: string; last_names: string; email: string | null }[] = await db
      .selectFrom('clients')
      .select(['id', 'name', 'last_names', 'email'])
      .where('id', '>', lastId)
      .orderBy('id')
      .limit(BACKFILL_BATCH)
      .execute();
    if (rows.length === 0) break;
    lastId = rows[rows.length - 1].id;
    const cases = (value: (r: (typeof rows)[number]) => string) =>
      sql`case id ${sql.join(
        rows.map((r) => sql`when ${r.id} then ${value(r)}`),
        sql` `,
      )} end`;
    await db
      .updateTable('clients')
      .set({
        name_sort: cases((r) => `${foldText(r.name)}\u0001${foldText(r.last_names)}`),
        search_text: cases((r) => foldText(`${r.name} ${r.last_names} ${r.email ?? ''}`)),
      })
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
  }

  await db.schema.createIndex('clients_company_id_idx').on('clients').columns(['company_id', 'id']).execute();
  await db.schema
    .createIndex('clients_company_name_sort_idx')
    .on('clients')
    .columns(['company_id', 'name_sort', 'id'])
    .execute();
  await db.schema
    .createIndex('clients_company_email_idx')
    .on('clients')
    .expression(pg ? sql`company_id, email collate "C" nulls first, id` : sql`company_id, email, id`)
    .execute();
  await db.schema
    .createIndex('clients_company_created_idx')
    .on('clients')
    .columns(['company_id', 'created_at', 'id'])
    .execute();

  await db.schema.dropIndex('clients_chat_order_idx').execute();
  await db.schema
    .createIndex('clients_chat_order_idx')
    .on('clients')
    .expression(
      pg
        ? sql`company_id, last_message_date desc nulls last, name_sort, id`
        : sql`company_id, last_message_date desc, name_sort, id`,
    )
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  const pg = isPostgres(db);
  await db.schema.dropIndex('clients_chat_order_idx').execute();
  await db.schema
    .createIndex('clients_chat_order_idx')
    .on('clients')
    .expression(
      pg
        ? sql`company_id, last_message_date desc nulls last, lower(name), id`
        : sql`company_id, last_message_date desc, lower(name), id`,
    )
    .execute();
  for (const index of [
    'clients_company_created_idx',
    'clients_company_email_idx',
    'clients_company_name_sort_idx',
    'clients_company_id_idx',
  ])
    await db.schema.dropIndex(index).execute();
  await db.schema.alterTable('clients').dropColumn('search_text').execute();
  await db.schema.alterTable('clients').dropColumn('name_sort').execute();
}
