import { type MigrationDb, timestampType, withTimestamps } from '../migration-helpers';

/**
 * Business hours and the away message.
 *
 * - `business_hours`: one row per company once an admin saves them (absent: always open, no away
 *   message). `days` and `holidays` are JSON arrays (`[{ day, open, close }]`, `['YYYY-MM-DD']`) read in
 *   `timezone`.
 * - `away_replies`: per client, the closed period whose away message the customer already got (the
 *   moment that period ends, ISO 8601 UTC, or 'never' when the business has no hours at all), so each
 *   closed period answers once however many messages arrive in it.
 */
export async function up(db: MigrationDb): Promise<void> {
  await withTimestamps(
    db,
    db.schema
      .createTable('business_hours')
      .addColumn('company_id', 'integer', (c) =>
        c.primaryKey().references('companies.id').onDelete('cascade'),
      )
      .addColumn('timezone', 'varchar(64)', (c) => c.notNull())
      .addColumn('days', 'text', (c) => c.notNull())
      .addColumn('holidays', 'text', (c) => c.notNull())
      .addColumn('away_enabled', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('away_message', 'text', (c) => c.notNull())
      .addColumn('away_with_bot', 'integer', (c) => c.notNull().defaultTo(0)),
  ).execute();

  await db.schema
    .createTable('away_replies')
    .addColumn('client_id', 'integer', (c) => c.primaryKey().references('clients.id').onDelete('cascade'))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('period', 'varchar(40)', (c) => c.notNull())
    .addColumn('sent_at', timestampType(db), (c) => c.notNull())
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('away_replies').execute();
  await db.schema.dropTable('business_hours').execute();
}
