import { sql } from 'kysely';
import type { MigrationDb } from '../migration-helpers';

/**
 * The admin home counts a company's unread conversations (clients whose unread counter is above 0). A
 * partial index holds only those clients, by company, so the count reads as many index entries as there
 * are unread conversations instead of visiting every client of the company (50,000 rows).
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createIndex('clients_company_unread_idx')
    .on('clients')
    .column('company_id')
    .where(sql.ref('unread_messages_count'), '>', 0)
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropIndex('clients_company_unread_idx').execute();
}
