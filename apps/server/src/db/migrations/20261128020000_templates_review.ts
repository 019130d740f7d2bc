import type { MigrationDb } from '../migration-helpers';

/**
 * Meta's review of a template, for the 'Plantillas' screen: `rejected_reason` (why Meta rejected, paused
 * or disabled it, from the `message_template_status_update` webhook; null otherwise) and `quality`
 * (GREEN, YELLOW, RED, UNKNOWN; null until Meta rates it). `updated_at` already says when it last changed.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('message_templates').addColumn('rejected_reason', 'varchar(1000)').execute();
  await db.schema.alterTable('message_templates').addColumn('quality', 'varchar(16)').execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('message_templates').dropColumn('quality').execute();
  await db.schema.alterTable('message_templates').dropColumn('rejected_reason').execute();
}
