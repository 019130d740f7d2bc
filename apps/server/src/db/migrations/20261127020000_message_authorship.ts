import { type MigrationDb, sql, timestampType, withId } from '../migration-helpers';

/** Partial indexes on the messages' new references: a deleted user, send or message finds its rows. */
const REFERENCE_INDEXES = [
  ['messages_author_user_idx', 'author_user_id'],
  ['messages_author_mass_message_idx', 'author_mass_message_id'],
  ['messages_reply_to_idx', 'reply_to_id'],
] as const;

/**
 * Who wrote each message, what it quotes, and every status it went through.
 *
 * `author_kind`: customer, bot, user (`author_user_id`, the agent), campaign (`author_mass_message_id`,
 * the mass message) or system. The names are read by joining the user or the send, so a renamed user shows
 * the new name. Deleting a user or a send keeps the message and clears the reference (the kind stays):
 * the name of a person whose account is gone is not kept in the company's chats.
 * `reply_to_id`: the message this one answers (WhatsApp's `context.id` on a customer's message, or the
 * message an agent replied to).
 * `message_statuses`: each status of an outgoing message with its time, and Meta's code and title for a
 * failure.
 *
 * Existing messages: client → customer, bot → bot, admin → user (which user is not known), or campaign
 * when a mass message's recipient has the message's wamid. Each outgoing message gets its current status as
 * its first history row (the earlier steps were never kept).
 */
export async function up(db: MigrationDb): Promise<void> {
  // A constant default: PostgreSQL adds the column without rewriting the table; customers' rows (most of
  // them) need no update.
  await db.schema
    .alterTable('messages')
    .addColumn('author_kind', 'varchar(16)', (c) => c.notNull().defaultTo('customer'))
    .execute();
  await db.schema
    .alterTable('messages')
    .addColumn('author_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema
    .alterTable('messages')
    .addColumn('author_mass_message_id', 'integer', (c) =>
      c.references('mass_messages.id').onDelete('set null'),
    )
    .execute();
  await db.schema
    .alterTable('messages')
    .addColumn('reply_to_id', 'integer', (c) => c.references('messages.id').onDelete('set null'))
    .execute();
  for (const [name, column] of REFERENCE_INDEXES)
    await db.schema
      .createIndex(name)
      .on('messages')
      .column(column)
      .where(sql.ref(column), 'is not', null)
      .execute();

  await sql`update messages set author_kind = 'bot' where sender_type = 'bot'`.execute(db);
  await sql`update messages set author_kind = 'user' where sender_type = 'admin'`.execute(db);
  // What a mass message delivered shows in the conversation with the send's wamid (in-conversation.ts).
  await sql`
    update messages set author_kind = 'campaign', author_mass_message_id = (
      select r.mass_message_id from mass_message_recipients r
      where r.wamid = messages.wamid and r.company_id = messages.company_id
      order by r.id limit 1
    )
    where sender_type = 'admin' and wa_type = 'template' and wamid is not null and exists (
      select 1 from mass_message_recipients r
      where r.wamid = messages.wamid and r.company_id = messages.company_id
    )`.execute(db);
  // The quoted message, where the company has the wamid a customer's reply named.
  await sql`
    update messages set reply_to_id = (
      select q.id from messages q where q.company_id = messages.company_id and q.wamid = messages.context_wamid
    )
    where context_wamid is not null`.execute(db);

  await withId(db, db.schema.createTable('message_statuses'))
    .addColumn('message_id', 'integer', (c) => c.notNull().references('messages.id').onDelete('cascade'))
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('at', timestampType(db), (c) => c.notNull())
    .addColumn('error_code', 'integer')
    .addColumn('error_title', 'text')
    .execute();
  await db.schema
    .createIndex('message_statuses_message_idx')
    .on('message_statuses')
    .columns(['message_id', 'id'])
    .execute();
  await sql`
    insert into message_statuses (message_id, status, at, error_code, error_title)
    select id,
      case status when 0 then 'pending' when 1 then 'sent' when 2 then 'read' when 3 then 'delivered'
        when 4 then 'failed' else 'pending' end,
      coalesce(status_at, created_at),
      case when status = 4 then error_code end,
      case when status = 4 then error_message end
    from messages
    where author_kind <> 'customer'
    order by id`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('message_statuses').execute();
  for (const [name] of REFERENCE_INDEXES) await db.schema.dropIndex(name).execute();
  for (const column of ['reply_to_id', 'author_mass_message_id', 'author_user_id', 'author_kind'])
    await db.schema.alterTable('messages').dropColumn(column).execute();
}
