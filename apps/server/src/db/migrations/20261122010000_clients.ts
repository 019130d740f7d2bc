import { type MigrationDb, timestampType, withId, withTimestamps } from '../migration-helpers';

/** Clients (a company's WhatsApp contacts), segments, and the link between them. */
export async function up(db: MigrationDb): Promise<void> {
  const ts = timestampType(db);

  await withTimestamps(
    db,
    withId(db, db.schema.createTable('segments'))
      .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
      .addColumn('name', 'varchar(80)', (c) => c.notNull())
      // The name folded (lower case, no accents, single spaces): unique per company, and what import matches.
      .addColumn('name_key', 'varchar(80)', (c) => c.notNull())
      .addColumn('color', 'varchar(7)', (c) => c.notNull())
      .addColumn('rules', 'text', (c) => c.notNull())
      .addUniqueConstraint('segments_company_name_key_unique', ['company_id', 'name_key']),
  ).execute();

  await withTimestamps(
    db,
    withId(db, db.schema.createTable('clients'))
      .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
      .addColumn('name', 'varchar(120)', (c) => c.notNull())
      .addColumn('last_names', 'varchar(120)', (c) => c.notNull().defaultTo(''))
      // Digits only, country code included (E.164 without '+').
      .addColumn('whatsapp_cellphone', 'varchar(15)', (c) => c.notNull())
      // Nullable: a client created by an inbound WhatsApp message has no email yet.
      .addColumn('email', 'varchar(191)')
      .addColumn('avatar', 'varchar(2048)')
      .addColumn('projects', 'text')
      .addColumn('mode_bot', 'integer', (c) => c.notNull().defaultTo(1))
      // The chat list reads these from the row; the messaging module keeps them current.
      .addColumn('last_message_content', 'text')
      .addColumn('last_message_date', ts)
      .addColumn('unread_messages_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('wa_user_id', 'varchar(64)')
      // Also the index of the webhook's lookup by phone.
      .addUniqueConstraint('clients_company_phone_unique', ['company_id', 'whatsapp_cellphone']),
  ).execute();
  await db.schema
    .createIndex('clients_company_last_message_idx')
    .on('clients')
    .columns(['company_id', 'last_message_date'])
    .execute();
  await db.schema
    .createIndex('clients_company_wa_user_idx')
    .on('clients')
    .columns(['company_id', 'wa_user_id'])
    .execute();

  await db.schema
    .createTable('client_segments')
    .addColumn('client_id', 'integer', (c) => c.notNull().references('clients.id').onDelete('cascade'))
    // Deleting a segment takes it off its clients.
    .addColumn('segment_id', 'integer', (c) => c.notNull().references('segments.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('client_segments_pk', ['client_id', 'segment_id'])
    .execute();
  await db.schema
    .createIndex('client_segments_segment_id_idx')
    .on('client_segments')
    .column('segment_id')
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('client_segments').execute();
  await db.schema.dropTable('clients').execute();
  await db.schema.dropTable('segments').execute();
}
