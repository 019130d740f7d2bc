import { sql } from 'kysely';
import type { MigrationDb } from '../migration-helpers';

/**
 * Outgoing messages still pending (status 0), by when they last changed: the sweeper that settles sends
 * a dead process left behind reads only these rows, however many messages the table holds.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createIndex('messages_pending_idx')
    .on('messages')
    .column('updated_at')
    .where(sql.ref('status'), '=', 0)
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropIndex('messages_pending_idx').execute();
}
