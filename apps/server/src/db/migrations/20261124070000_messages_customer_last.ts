import { sql } from 'kysely';
import type { MigrationDb } from '../migration-helpers';

/**
 * A customer's messages by date, per client: the 24-hour window check before every free-text send reads
 * the newest one with a single index step, however long the conversation (a scan of every message of
 * the client before).
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createIndex('messages_customer_last_idx')
    .on('messages')
    .columns(['company_id', 'client_id', 'created_at'])
    .where(sql.ref('sender_type'), '=', 'client')
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropIndex('messages_customer_last_idx').execute();
}
