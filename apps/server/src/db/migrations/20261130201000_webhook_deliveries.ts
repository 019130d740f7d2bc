import { type MigrationDb, timestampType, withId } from '../migration-helpers';

/**
 * The durable webhook inbox (modules/messaging/webhook-inbox.ts): every WhatsApp delivery whose
 * signature checked is written here, raw, before the webhook answers 200; it is processed from here.
 */
export async function up(db: MigrationDb): Promise<void> {
  const time = timestampType(db);
  await withId(db, db.schema.createTable('webhook_deliveries'))
    .addColumn('received_at', time, (c) => c.notNull())
    // The bytes Meta sent, as text (they parsed as JSON before they were taken).
    .addColumn('body', 'text', (c) => c.notNull())
    // The companies it concerns, comma-separated (the super admin's list names the first).
    .addColumn('company_ids', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    // pending (to process from next_attempt_at), processing, done, failed (out of attempts).
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', time, (c) => c.notNull())
    // Which process holds it while processing, and until when; a lease that ran out means it died.
    .addColumn('locked_by', 'varchar(100)')
    .addColumn('locked_until', time)
    .addColumn('last_error', 'varchar(500)')
    .addColumn('processed_at', time)
    .execute();
  // The oldest pending delivery (the dispatcher, the lag) and the failed ones newest first (the super
  // admin's list): by status, then id.
  await db.schema
    .createIndex('webhook_deliveries_status_idx')
    .on('webhook_deliveries')
    .columns(['status', 'id'])
    .execute();
  // What the retention deletes: done deliveries by age.
  await db.schema
    .createIndex('webhook_deliveries_processed_idx')
    .on('webhook_deliveries')
    .columns(['status', 'processed_at'])
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('webhook_deliveries').execute();
}
