import { type MigrationDb, timestampType } from '../migration-helpers';

/**
 * `channels.token_refused_at`: when WhatsApp last refused the channel's access token (Meta's 190: expired
 * or revoked); null while the token works. A successful connection test or send clears it. The admin
 * screens show a banner while it is set (`whatsapp_status` 'token_invalid' in GET /admin/setting).
 */
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('channels').addColumn('token_refused_at', timestampType(db)).execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('channels').dropColumn('token_refused_at').execute();
}
