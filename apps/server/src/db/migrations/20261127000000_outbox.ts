import { type MigrationDb, sql, timestampType, withId } from '../migration-helpers';

/**
 * The transactional outbox (platform/outbox/outbox.ts): one row per domain event, written in the
 * transaction of the change that caused it, handed to the subscribers after the commit.
 */
export async function up(db: MigrationDb): Promise<void> {
  const time = timestampType(db);
  await withId(db, db.schema.createTable('outbox'))
    // The event's name in the catalogue (platform/events/domain-events.ts) and its payload as JSON.
    .addColumn('type', 'varchar(60)', (c) => c.notNull())
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    // pending (to be handled from available_at), done, failed (out of attempts; kept to be seen).
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    // The subscribers that handled it already, comma-separated: a retry runs only the others.
    .addColumn('handled', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('available_at', time, (c) => c.notNull())
    // Which dispatcher holds it, and until when; a lease that runs out means that process died.
    .addColumn('locked_by', 'varchar(100)')
    .addColumn('locked_until', time)
    .addColumn('last_error', 'text')
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('done_at', time)
    .execute();
  // What a dispatcher looks for: pending rows, oldest first.
  await db.schema
    .createIndex('outbox_pending_idx')
    .on('outbox')
    .column('id')
    .where(sql.ref('state'), '=', 'pending')
    .execute();
  // What pruning deletes: handled rows by age.
  await db.schema.createIndex('outbox_done_at_idx').on('outbox').column('done_at').execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('outbox').execute();
}
