import { type MigrationDb, sql, timestampType, withId, withTimestamps } from '../migration-helpers';

/**
 * Client lists and mass messages.
 *
 * - `client_lists` and `client_list_members`: a company's named lists of its clients (a member row per
 *   client; deleting a client or a list removes its member rows).
 * - `mass_messages`: one send of an approved template to a list. The template, list name and values are
 *   copied in, so the send reads the same whatever later happens to them. `lease_owner`/`lease_until`
 *   say which process is sending it (one at a time); `counts` is the last count of its recipients by
 *   state (JSON), kept for the history page.
 * - `mass_message_recipients`: one row per recipient, created in one statement when the send is
 *   accepted, with the client's fields copied in (so `client_id` is a plain column: the report keeps
 *   a recipient whose client was deleted, and inserting 100,000 rows checks no foreign key per row). `status` climbs queued → sending → sent → delivered →
 *   read, or ends failed, unknown (the process stopped mid-send: never resent by itself) or cancelled.
 * - `companies.mass_messages_per_second`: the company's sending pace (null: the default).
 */
export async function up(db: MigrationDb): Promise<void> {
  const ts = timestampType(db);
  await withTimestamps(
    db,
    withId(db, db.schema.createTable('client_lists'))
      .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
      .addColumn('name', 'varchar(120)', (c) => c.notNull()),
  ).execute();
  await db.schema
    .createIndex('client_lists_company_idx')
    .on('client_lists')
    .columns(['company_id', 'name'])
    .execute();

  await db.schema
    .createTable('client_list_members')
    .addColumn('list_id', 'integer', (c) => c.notNull().references('client_lists.id').onDelete('cascade'))
    .addColumn('client_id', 'integer', (c) => c.notNull().references('clients.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('client_list_members_pk', ['list_id', 'client_id'])
    .execute();
  await db.schema
    .createIndex('client_list_members_client_idx')
    .on('client_list_members')
    .column('client_id')
    .execute();

  await withTimestamps(
    db,
    withId(db, db.schema.createTable('mass_messages'))
      .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
      .addColumn('name', 'varchar(120)', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('list_id', 'integer', (c) => c.references('client_lists.id').onDelete('set null'))
      .addColumn('list_name', 'varchar(120)', (c) => c.notNull())
      .addColumn('template_id', 'integer', (c) => c.references('message_templates.id').onDelete('set null'))
      .addColumn('template_name', 'varchar(512)', (c) => c.notNull())
      .addColumn('template_language', 'varchar(16)', (c) => c.notNull())
      .addColumn('template_body', 'text', (c) => c.notNull())
      .addColumn('body_parameters', 'text', (c) => c.notNull())
      .addColumn('header', 'text')
      .addColumn('media_id', 'integer')
      .addColumn('message', 'text', (c) => c.notNull())
      .addColumn('messages_per_second', 'integer', (c) => c.notNull())
      .addColumn('scheduled_at', ts)
      .addColumn('started_at', ts)
      .addColumn('finished_at', ts)
      .addColumn('lease_owner', 'varchar(64)')
      .addColumn('lease_until', ts)
      .addColumn('counts', 'text', (c) => c.notNull())
      .addColumn('created_by', 'integer'),
  ).execute();
  await db.schema
    .createIndex('mass_messages_company_idx')
    .on('mass_messages')
    .columns(['company_id', 'id'])
    .execute();
  await db.schema.createIndex('mass_messages_status_idx').on('mass_messages').column('status').execute();

  await withId(db, db.schema.createTable('mass_message_recipients'))
    .addColumn('mass_message_id', 'integer', (c) =>
      c.notNull().references('mass_messages.id').onDelete('cascade'),
    )
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('client_id', 'integer')
    .addColumn('name', 'varchar(120)', (c) => c.notNull())
    .addColumn('last_names', 'varchar(120)', (c) => c.notNull())
    .addColumn('phone', 'varchar(32)', (c) => c.notNull())
    .addColumn('email', 'varchar(191)')
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('wamid', 'varchar(128)')
    .addColumn('error_code', 'integer')
    .addColumn('error_message', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('not_before', ts)
    .addColumn('sent_at', ts)
    .addColumn('delivered_at', ts)
    .addColumn('read_at', ts)
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('mass_recipients_send_status_idx')
    .on('mass_message_recipients')
    .columns(['mass_message_id', 'status', 'id'])
    .execute();
  await db.schema
    .createIndex('mass_recipients_wamid_idx')
    .on('mass_message_recipients')
    .column('wamid')
    .where(sql.ref('wamid'), 'is not', null)
    .execute();

  await db.schema.alterTable('companies').addColumn('mass_messages_per_second', 'integer').execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('companies').dropColumn('mass_messages_per_second').execute();
  await db.schema.dropTable('mass_message_recipients').execute();
  await db.schema.dropTable('mass_messages').execute();
  await db.schema.dropTable('client_list_members').execute();
  await db.schema.dropTable('client_lists').execute();
}
