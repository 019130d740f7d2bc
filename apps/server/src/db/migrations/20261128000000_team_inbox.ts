import { type MigrationDb, now, sql, timestampType, withId, withTimestamps } from '../migration-helpers';

/**
 * The team inbox.
 *
 * - The built-in role `agent`: a person of a company's team who only answers chats.
 * - `inbox_settings`: one row per company once an admin saves them (absent: the defaults, agents see only
 *   their own and unassigned conversations, no auto-assign, 20 open conversations per agent).
 * - `quick_replies`: a company's saved answers, by a shortcut unique within the company, optionally with
 *   a file of the media library (the reply loses the file, not itself, when the file is deleted).
 * - `users.stream_seen_at`: when the user's live stream last showed them present (refreshed while a stream
 *   is open, on every instance); "online" is a recent one. Auto-assign and the team list read it.
 * - Conversations get the time they were resolved, and an index for the inbox's views (open or resolved,
 *   latest activity first).
 */
export async function up(db: MigrationDb): Promise<void> {
  const ts = timestampType(db);
  const at = now();
  const existing = await db.selectFrom('roles').select('id').where('name', '=', 'agent').executeTakeFirst();
  if (existing)
    await db.updateTable('roles').set({ builtin: 1, updated_at: at }).where('name', '=', 'agent').execute();
  else
    await db
      .insertInto('roles')
      .values({
        name: 'agent',
        description: 'Agente',
        color: '#f59e0b',
        builtin: 1,
        created_at: at,
        updated_at: at,
      })
      .execute();

  await withTimestamps(
    db,
    db.schema
      .createTable('inbox_settings')
      .addColumn('company_id', 'integer', (c) =>
        c.primaryKey().references('companies.id').onDelete('cascade'),
      )
      .addColumn('agents_see_all', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('auto_assign', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('agent_capacity', 'integer', (c) => c.notNull().defaultTo(20)),
  ).execute();

  await withTimestamps(
    db,
    withId(db, db.schema.createTable('quick_replies'))
      .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
      .addColumn('shortcut', 'varchar(32)', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('media_id', 'integer', (c) => c.references('media.id').onDelete('set null'))
      .addUniqueConstraint('quick_replies_company_shortcut_unique', ['company_id', 'shortcut']),
  ).execute();

  await db.schema.alterTable('users').addColumn('stream_seen_at', ts).execute();
  await db.schema.alterTable('conversations').addColumn('resolved_at', ts).execute();
  await db.schema
    .createIndex('conversations_view_idx')
    .on('conversations')
    .columns(['company_id', 'status', 'last_message_at desc', 'client_id'])
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropIndex('conversations_view_idx').execute();
  await db.schema.alterTable('conversations').dropColumn('resolved_at').execute();
  await db.schema.alterTable('users').dropColumn('stream_seen_at').execute();
  await db.schema.dropTable('quick_replies').execute();
  await db.schema.dropTable('inbox_settings').execute();
  await sql`delete from user_roles where role_id in (select id from roles where name = 'agent')`.execute(db);
  await db.deleteFrom('roles').where('name', '=', 'agent').execute();
}
