import { type MigrationDb, isPostgres, sql } from '../migration-helpers';

/**
 * The chat list's order as an index — company, latest message first with never-written clients last,
 * then name (case-insensitive), then id — so a page of it is read from the index instead of sorting
 * every client of the company. It replaces the plain (company_id, last_message_date) index.
 * SQLite puts NULLs last in a descending column already; PostgreSQL needs it said.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.dropIndex('clients_company_last_message_idx').execute();
  await db.schema
    .createIndex('clients_chat_order_idx')
    .on('clients')
    .expression(
      isPostgres(db)
        ? sql`company_id, last_message_date desc nulls last, lower(name), id`
        : sql`company_id, last_message_date desc, lower(name), id`,
    )
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropIndex('clients_chat_order_idx').execute();
  await db.schema
    .createIndex('clients_company_last_message_idx')
    .on('clients')
    .columns(['company_id', 'last_message_date'])
    .execute();
}
