import type { MigrationDb } from '../migration-helpers';

/**
 * The super admin's figures count messages by time: this month, today, and per day over the last 30
 * days, for every company or one. Two indexes carry what those counts read (time, sender, status), so
 * the counts are read from an index alone and touch only the period asked for:
 * - (created_at, …) for every company at once;
 * - (company_id, created_at, …) for one company, and for each company's own month on the companies list.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createIndex('messages_created_idx')
    .on('messages')
    .columns(['created_at', 'sender_type', 'status'])
    .execute();
  await db.schema
    .createIndex('messages_company_created_idx')
    .on('messages')
    .columns(['company_id', 'created_at', 'sender_type', 'status'])
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropIndex('messages_company_created_idx').execute();
  await db.schema.dropIndex('messages_created_idx').execute();
}
