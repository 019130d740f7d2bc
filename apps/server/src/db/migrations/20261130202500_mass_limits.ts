import { type MigrationDb, sql, timestampType } from '../migration-helpers';

/**
 * What Meta says about the company's WhatsApp number, and the sender's daily limit.
 *
 * - `channels.throughput_level` (STANDARD, HIGH …), `channels.messaging_limit_tier` (TIER_250 …
 *   TIER_UNLIMITED), `channels.quality_rating` (GREEN, YELLOW, RED, UNKNOWN) and `channels.limits_read_at`:
 *   the number's fields as the Graph API gave them at the last connection test or daily read (null: never
 *   read).
 * - `mass_messages.retry_capped`: 1 when a recipient refused by Meta's marketing frequency cap (131049) is
 *   tried once more 24 hours later. `mass_messages.waiting_limit_until`: while the send waits for the
 *   number's daily limit to free room, when it resumes (null otherwise).
 * - `mass_recipients_company_sent_idx`: the recipients the company's number reached since a time (the
 *   daily limit counts them), a partial index of sent rows only, so accepting a send adds nothing to it.
 */
export async function up(db: MigrationDb): Promise<void> {
  const ts = timestampType(db);
  await db.schema.alterTable('channels').addColumn('throughput_level', 'varchar(32)').execute();
  await db.schema.alterTable('channels').addColumn('messaging_limit_tier', 'varchar(32)').execute();
  await db.schema.alterTable('channels').addColumn('quality_rating', 'varchar(16)').execute();
  await db.schema.alterTable('channels').addColumn('limits_read_at', ts).execute();
  await db.schema
    .alterTable('mass_messages')
    .addColumn('retry_capped', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('mass_messages').addColumn('waiting_limit_until', ts).execute();
  await db.schema
    .createIndex('mass_recipients_company_sent_idx')
    .on('mass_message_recipients')
    .columns(['company_id', 'sent_at'])
    .where(sql.ref('sent_at'), 'is not', null)
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropIndex('mass_recipients_company_sent_idx').execute();
  await db.schema.alterTable('mass_messages').dropColumn('waiting_limit_until').execute();
  await db.schema.alterTable('mass_messages').dropColumn('retry_capped').execute();
  for (const column of ['limits_read_at', 'quality_rating', 'messaging_limit_tier', 'throughput_level'])
    await db.schema.alterTable('channels').dropColumn(column).execute();
}
