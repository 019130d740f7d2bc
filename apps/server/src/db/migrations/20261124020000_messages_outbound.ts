import type { MigrationDb } from '../migration-helpers';

/**
 * What was asked of WhatsApp for an outgoing message (the JSON of the send body's type part: text, media
 * by link or id, or a template with its parameters), so a failed message can be sent again exactly as it
 * was, by the retry job or by an admin's resend. Null for customers' messages.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('messages').addColumn('outbound_request', 'text').execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('messages').dropColumn('outbound_request').execute();
}
