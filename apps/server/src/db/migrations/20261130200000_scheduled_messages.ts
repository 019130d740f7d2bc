import { type MigrationDb, timestampType } from '../migration-helpers';

/**
 * Scheduled messages: `messages.scheduled_at`, when an agent's message in status 5 (scheduled) goes out.
 * Null for every other message; it stays set once the message was sent or failed, as a record. The job
 * that sends it holds the time too, so nothing reads messages by this column (no index).
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('messages').addColumn('scheduled_at', timestampType(db)).execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('messages').dropColumn('scheduled_at').execute();
}
