import { type MigrationDb, timestampType, withId, withTimestamps } from '../migration-helpers';

/**
 * Chat messages: one row per message a customer sent or the company (an admin, the bot) sent them.
 *
 * - `wamid` is WhatsApp's id of the message: unique in a company, so a webhook delivered twice stores the
 *   message once; null until an outgoing message has been accepted by WhatsApp.
 * - `status` climbs 0 pending → 1 sent → 3 delivered → 2 read; 4 is "not sent" with WhatsApp's
 *   `error_code` and `error_message`.
 * - `message_type` is how the chat shows it (text, image, video, audio, document); `wa_type` is the
 *   type WhatsApp gave it (sticker, reaction, location…), kept as it came.
 * - Media: WhatsApp's `media_id`, type, file name, caption and SHA-256 arrive with the message; the bytes
 *   are fetched later into file storage (`media_storage_key`).
 * - The conversation page reads (client_id, id desc): an index of its own.
 */
export async function up(db: MigrationDb): Promise<void> {
  const ts = timestampType(db);
  await withTimestamps(
    db,
    withId(db, db.schema.createTable('messages'))
      .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
      .addColumn('client_id', 'integer', (c) => c.notNull().references('clients.id').onDelete('cascade'))
      .addColumn('wamid', 'varchar(255)')
      .addColumn('sender_type', 'varchar(8)', (c) => c.notNull())
      .addColumn('message_type', 'varchar(16)', (c) => c.notNull())
      .addColumn('wa_type', 'varchar(32)', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      // The customer's number when the message was written (digits, country code included).
      .addColumn('phone', 'varchar(15)', (c) => c.notNull())
      // The message this one answers or reacts to, when WhatsApp says.
      .addColumn('context_wamid', 'varchar(255)')
      .addColumn('media_id', 'varchar(64)')
      .addColumn('media_mime_type', 'varchar(127)')
      .addColumn('media_file_name', 'varchar(255)')
      .addColumn('media_caption', 'text')
      .addColumn('media_sha256', 'varchar(64)')
      .addColumn('media_storage_key', 'varchar(100)')
      .addColumn('status', 'integer', (c) => c.notNull())
      .addColumn('error_code', 'integer')
      .addColumn('error_message', 'text')
      // When the status last changed.
      .addColumn('status_at', ts)
      .addUniqueConstraint('messages_company_wamid_unique', ['company_id', 'wamid']),
  ).execute();
  await db.schema.createIndex('messages_client_id_idx').on('messages').columns(['client_id', 'id']).execute();

  // The webhook finds the company by the phone number id WhatsApp sends.
  await db.schema
    .createIndex('settings_whatsapp_phone_id_idx')
    .on('settings')
    .column('whatsapp_phone_id')
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropIndex('settings_whatsapp_phone_id_idx').execute();
  await db.schema.dropTable('messages').execute();
}
