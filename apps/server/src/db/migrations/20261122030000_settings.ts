import { type MigrationDb, withId, withTimestamps } from '../migration-helpers';

/**
 * One settings row per company: the WhatsApp Cloud API, WordPress and OpenAI connections. Columns ending
 * in `_enc` hold secrets sealed with APP_KEY (AES-256-GCM, `platform/secrets.ts`), never the clear value.
 */
export async function up(db: MigrationDb): Promise<void> {
  await withTimestamps(
    db,
    withId(db, db.schema.createTable('settings'))
      .addColumn('company_id', 'integer', (c) =>
        c.notNull().unique().references('companies.id').onDelete('cascade'),
      )
      .addColumn('whatsapp_api_key_enc', 'text')
      .addColumn('whatsapp_phone_id', 'varchar(32)')
      .addColumn('whatsapp_business_account_id', 'varchar(32)')
      .addColumn('whatsapp_app_secret_enc', 'text')
      .addColumn('facebook_messages_api_url', 'varchar(2048)', (c) => c.notNull())
      // The webhook's verification handshake finds the company by it: unique across companies.
      .addColumn('hub_verify_token', 'varchar(64)', (c) => c.unique())
      // Shown to the admin to paste into WordPress; the WordPress endpoint looks companies up by its
      // SHA-256, so the lookup never compares the caller's text against stored keys.
      .addColumn('wordpress_api_key', 'varchar(64)')
      .addColumn('wordpress_api_key_hash', 'varchar(64)', (c) => c.unique())
      .addColumn('wordpress_secret_key_enc', 'text')
      .addColumn('openai_api_key_enc', 'text')
      .addColumn('openai_model', 'varchar(100)')
      .addColumn('openai_chat_endpoint', 'varchar(2048)', (c) => c.notNull()),
  ).execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('settings').execute();
}
