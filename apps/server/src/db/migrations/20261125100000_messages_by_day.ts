import type { MigrationDb } from '../migration-helpers';

/**
 * The super admin's figures count messages by sender and time: this month, today, and per day over the
 * last 30 days, for every company or one. Two indexes lead with what those counts fix (the sender, and
 * the company) and then the time, so each count — customers' messages of one day, the bots' messages
 * of today, a company's customer messages this month — is one contiguous index range read without
 * touching the table (the status rides along for the failed ones):
 * - (sender_type, created_at, status) for every company at once;
 * - (company_id, sender_type, created_at, status) for one company; it also finds a company's last
 *   customer message (the last webhook delivery) with one seek.
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createIndex('messages_sender_created_idx')
    .on('messages')
    .columns(['sender_type', 'created_at', 'status'])
    .execute();
  await db.schema
    .createIndex('messages_company_sender_created_idx')
    .on('messages')
    .columns(['company_id', 'sender_type', 'created_at', 'status'])
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropIndex('messages_company_sender_created_idx').execute();
  await db.schema.dropIndex('messages_sender_created_idx').execute();
}
