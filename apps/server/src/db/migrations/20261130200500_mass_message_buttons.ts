import type { MigrationDb } from '../migration-helpers';

/**
 * `mass_messages.buttons`: the button components sent with every message of a mass message (JSON
 * array, WhatsApp's shape), for a template with quick replies; null when it has none.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('mass_messages').addColumn('buttons', 'text').execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('mass_messages').dropColumn('buttons').execute();
}
