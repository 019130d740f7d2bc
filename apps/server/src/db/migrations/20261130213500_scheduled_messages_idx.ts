import { sql } from 'kysely';
import type { MigrationDb } from '../migration-helpers';

/**
 * A client's scheduled messages (status 5) by their time: the chat's first history page lists them apart,
 * below the conversation, and this partial index holds only them, so reading them is one index step
 * however long the conversation (without it, every message of the client would be read to find them).
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createIndex('messages_scheduled_idx')
    .on('messages')
    .columns(['company_id', 'client_id', 'scheduled_at', 'id'])
    .where(sql.ref('status'), '=', 5)
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropIndex('messages_scheduled_idx').execute();
}
