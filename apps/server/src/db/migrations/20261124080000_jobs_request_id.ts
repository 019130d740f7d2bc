import type { MigrationDb } from '../migration-helpers';

/** The id of the request that queued a job, so the job's log lines name it. */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('request_id', 'varchar(64)').execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('jobs').dropColumn('request_id').execute();
}
