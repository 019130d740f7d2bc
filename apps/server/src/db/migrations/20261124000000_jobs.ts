import { type MigrationDb, sql, timestampType, withId, withTimestamps } from '../migration-helpers';

/**
 * The background job queue of the in-process runner (see "Jobs" in docs/architecture.md): one
 * row per job waiting, running or failed; a finished job's row is deleted.
 */
export async function up(db: MigrationDb): Promise<void> {
  const time = timestampType(db);
  await withTimestamps(
    db,
    withId(db, db.schema.createTable('jobs'))
      .addColumn('name', 'varchar(100)', (c) => c.notNull())
      // The handler's input, as JSON.
      .addColumn('payload', 'text', (c) => c.notNull())
      // pending (waiting for run_at), running (leased until locked_until), failed (gave up; kept to be seen).
      .addColumn('state', 'varchar(16)', (c) => c.notNull())
      .addColumn('run_at', time, (c) => c.notNull())
      .addColumn('attempts_made', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('max_attempts', 'integer', (c) => c.notNull())
      // The first retry waits this long; each later one twice as long as the one before.
      .addColumn('backoff_ms', 'integer', (c) => c.notNull())
      // While one job with this key waits to start, enqueuing the same key again adds nothing.
      .addColumn('dedupe_key', 'varchar(200)')
      // Which process holds the job, and until when; a lease that runs out means that process died.
      .addColumn('locked_by', 'varchar(100)')
      .addColumn('locked_until', time)
      .addColumn('last_error', 'text'),
  ).execute();
  // What a runner looks for: due jobs by state and time.
  await db.schema.createIndex('jobs_state_run_at_idx').on('jobs').columns(['state', 'run_at']).execute();
  await db.schema
    .createIndex('jobs_pending_dedupe_key_idx')
    .on('jobs')
    .columns(['name', 'dedupe_key'])
    .unique()
    .where(sql.ref('state'), '=', 'pending')
    .where(sql.ref('dedupe_key'), 'is not', null)
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('jobs').execute();
}
