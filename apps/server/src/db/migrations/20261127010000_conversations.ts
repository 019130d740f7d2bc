import {
  type MigrationDb,
  isPostgres,
  sql,
  timestampType,
  withId,
  withTimestamps,
} from '../migration-helpers';

/** Clients moved per statement while filling the new table (keyset batches by client id). */
export const BACKFILL_BATCH = 5000;

/**
 * Conversations: the chat with a client gets a row of its own instead of living on the client row —
 * status (`open`, `resolved`), assignee (a user, nullable), unread count, last message and its time, bot
 * paused, the time of the customer's last message (the 24-hour window) and the message count.
 *
 * - One per client and WhatsApp number. A company has one number today, so the client alone is the key
 *   (`conversations_client_unique`) and `channel_id` is nullable; when a company holds several numbers
 *   the key becomes (client_id, channel_id).
 * - A conversation exists once there is something to say about it: the first message (a trigger on
 *   messages creates it, whoever stores the message), or an admin pausing the bot. A client never
 *   written to has none and reads as an open chat with the bot on and nothing unread.
 * - The trigger that counted the client's messages (migration 20261126000000) now counts the
 *   conversation's, and it also keeps the time of the customer's newest message, so the 24-hour window
 *   check reads one row instead of the messages' index.
 * - The chat list reads conversations by (company, last message time desc, client); the admin home
 *   counts unread conversations from a partial index of the conversations with unread messages.
 *
 * The old chat columns of clients (mode_bot, last_message_content, last_message_date,
 * unread_messages_count, messages_count) are left in place, unused: dropping a column means rebuilding
 * the table on SQLite (50,000 clients). Their two indexes and the counting trigger go.
 */
export async function up(db: MigrationDb): Promise<void> {
  const pg = isPostgres(db);
  const ts = timestampType(db);
  await withTimestamps(
    db,
    withId(db, db.schema.createTable('conversations'))
      .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
      // Deleting a client deletes its conversations.
      .addColumn('client_id', 'integer', (c) => c.notNull().references('clients.id').onDelete('cascade'))
      // The company's WhatsApp number it runs on (migration 20261127010100 fills it).
      .addColumn('channel_id', 'integer')
      .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('open'))
      .addColumn('assignee_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('unread_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_message_content', 'text')
      .addColumn('last_message_at', ts)
      // 1 when an admin took the chat over: the bot does not answer.
      .addColumn('bot_paused', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('customer_last_message_at', ts)
      .addColumn('messages_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addUniqueConstraint('conversations_client_unique', ['client_id']),
  ).execute();

  // The messages counted and the customer's newest message kept by the database, as before on clients.
  const onMessage = (ref: (column: string) => string) =>
    sql.raw(`
    insert into conversations (company_id, client_id, messages_count, customer_last_message_at, created_at, updated_at)
    values (${ref('company_id')}, ${ref('client_id')}, 1,
      case when ${ref('sender_type')} = 'client' then ${ref('created_at')} end, ${ref('created_at')}, ${ref('created_at')})
    on conflict (client_id) do update set
      messages_count = conversations.messages_count + 1,
      customer_last_message_at = case
        when excluded.customer_last_message_at is not null and (conversations.customer_last_message_at is null
          or conversations.customer_last_message_at < excluded.customer_last_message_at)
        then excluded.customer_last_message_at else conversations.customer_last_message_at end`);
  await sql`drop trigger messages_count_on_insert${pg ? sql` on messages` : sql``}`.execute(db);
  if (pg) {
    await sql`drop function clients_count_message()`.execute(db);
    await sql`
      create function conversations_on_message() returns trigger language plpgsql as $$
      begin
        ${onMessage((c) => `new.${c}`)};
        return null;
      end
      $$`.execute(db);
    await sql`
      create trigger conversations_on_message after insert on messages
      for each row execute function conversations_on_message()`.execute(db);
  } else {
    // SQLite reads `insert … values … on conflict` in a trigger as the upsert it is.
    await sql`
      create trigger conversations_on_message after insert on messages
      begin
        ${onMessage((c) => `new.${c}`)};
      end`.execute(db);
  }

  // The clients with chat state, a batch of clients at a time; the others get theirs with their first
  // message. The batch sets every figure, so a row the trigger made meanwhile ends up right too.
  const customerLast = sql`(select max(m.created_at) from messages m
    where m.company_id = clients.company_id and m.client_id = clients.id and m.sender_type = 'client')`;
  for (let lastId = 0; ; ) {
    const bound: { id: number } | undefined = await db
      .selectFrom('clients')
      .select('id')
      .where('id', '>', lastId)
      .orderBy('id')
      .offset(BACKFILL_BATCH - 1)
      .limit(1)
      .executeTakeFirst();
    const upTo = bound?.id;
    await sql`
      insert into conversations (company_id, client_id, status, unread_count, last_message_content,
        last_message_at, bot_paused, customer_last_message_at, messages_count, created_at, updated_at)
      select company_id, id, 'open', unread_messages_count, last_message_content, last_message_date,
        case when mode_bot = 0 then 1 else 0 end, ${customerLast}, messages_count, created_at, updated_at
      from clients
      where id > ${lastId} ${upTo === undefined ? sql`` : sql`and id <= ${upTo}`}
        and (messages_count > 0 or last_message_date is not null or mode_bot = 0 or unread_messages_count > 0)
      on conflict (client_id) do update set
        unread_count = excluded.unread_count,
        last_message_content = excluded.last_message_content,
        last_message_at = excluded.last_message_at,
        bot_paused = excluded.bot_paused,
        customer_last_message_at = excluded.customer_last_message_at,
        messages_count = excluded.messages_count`.execute(db);
    if (upTo === undefined) break;
    lastId = upTo;
  }

  await db.schema.dropIndex('clients_chat_order_idx').execute();
  await db.schema.dropIndex('clients_company_unread_idx').execute();
  await db.schema
    .createIndex('conversations_chat_order_idx')
    .on('conversations')
    .columns(['company_id', 'last_message_at desc', 'client_id'])
    .execute();
  await db.schema
    .createIndex('conversations_company_unread_idx')
    .on('conversations')
    .column('company_id')
    .where(sql.ref('unread_count'), '>', 0)
    .execute();
  await db.schema
    .createIndex('conversations_assignee_idx')
    .on('conversations')
    .column('assignee_user_id')
    .where(sql.ref('assignee_user_id'), 'is not', null)
    .execute();
}

/** Back to the client row: the state copied back, the old trigger, indexes and no conversations. */
export async function down(db: MigrationDb): Promise<void> {
  const pg = isPostgres(db);
  await sql`drop trigger conversations_on_message${pg ? sql` on messages` : sql``}`.execute(db);
  if (pg) await sql`drop function conversations_on_message()`.execute(db);
  const from = (value: string, fallback: string) =>
    sql.raw(`coalesce((select ${value} from conversations v where v.client_id = clients.id), ${fallback})`);
  await sql`
    update clients set
      unread_messages_count = ${from('v.unread_count', '0')},
      last_message_content = ${from('v.last_message_content', 'null')},
      last_message_date = ${from('v.last_message_at', 'null')},
      mode_bot = ${from('1 - v.bot_paused', '1')},
      messages_count = ${from('v.messages_count', '0')}`.execute(db);
  await db.schema.dropTable('conversations').execute();
  await db.schema
    .createIndex('clients_company_unread_idx')
    .on('clients')
    .column('company_id')
    .where(sql.ref('unread_messages_count'), '>', 0)
    .execute();
  await db.schema
    .createIndex('clients_chat_order_idx')
    .on('clients')
    .expression(
      pg
        ? sql`company_id, last_message_date desc nulls last, name_sort, id`
        : sql`company_id, last_message_date desc, name_sort, id`,
    )
    .execute();
  if (pg) {
    await sql`
      create function clients_count_message() returns trigger language plpgsql as $$
      begin
        update clients set messages_count = messages_count + 1 where id = new.client_id;
        return null;
      end
      $$`.execute(db);
    await sql`
      create trigger messages_count_on_insert after insert on messages
      for each row execute function clients_count_message()`.execute(db);
  } else {
    await sql`
      create trigger messages_count_on_insert after insert on messages
      begin
        update clients set messages_count = messages_count + 1 where id = new.client_id;
      end`.execute(db);
  }
}
