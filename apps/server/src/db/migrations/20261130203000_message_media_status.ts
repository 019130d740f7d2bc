import { type MigrationDb, sql } from '../migration-helpers';

/** How long WhatsApp keeps a customer's media: after that its id gives nothing. */
const MEDIA_KEPT_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Where the download of a customer's media stands (see "Media download" in docs/modules/messaging.md).
 *
 * - `messages.media_status`: `pending` (being fetched or waiting for its next try), `ready` (the file is
 *   stored), `failed` (given up on). Null on a customer's media message reads as pending (stored, its
 *   first try not run yet); on any other message it means nothing.
 * - `messages.media_attempts`: the tries made so far, which sets the wait before the next one.
 *
 * Rows stored before: a customer's media with a file is ready; one without a file that has a note of
 * why, or that WhatsApp no longer keeps (older than 7 days), failed; the rest stay pending for the job
 * that is already fetching them.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('messages').addColumn('media_status', 'varchar(16)').execute();
  await db.schema
    .alterTable('messages')
    .addColumn('media_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  const keptSince = new Date(Date.now() - MEDIA_KEPT_MS).toISOString();
  await db
    .updateTable('messages')
    .set({
      media_status: sql`case when media_storage_key is not null then 'ready' else 'failed' end`,
    })
    .where('sender_type', '=', 'client')
    .where('media_id', 'is not', null)
    .where((eb) =>
      eb.or([
        eb('media_storage_key', 'is not', null),
        eb('error_message', 'is not', null),
        eb('created_at', '<', keptSince),
      ]),
    )
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('messages').dropColumn('media_attempts').execute();
  await db.schema.alterTable('messages').dropColumn('media_status').execute();
}
