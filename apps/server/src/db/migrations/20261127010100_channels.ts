import { type MigrationDb, isPostgres, now, sql, withId, withTimestamps } from '../migration-helpers';

/** Rows moved per statement (keyset batches by id). */
export const BACKFILL_BATCH = 5000;

/** What a channel holds, by the settings column it came from. */
const MOVED = {
  whatsapp_phone_id: 'phone_number_id',
  whatsapp_business_account_id: 'business_account_id',
  whatsapp_api_key_enc: 'access_token_enc',
  whatsapp_app_secret_enc: 'app_secret_enc',
  hub_verify_token: 'verify_token',
  facebook_messages_api_url: 'api_url',
} as const;

/**
 * Channels: a company's WhatsApp number — its identity (phone number id, business account id, the
 * number as people dial it) and its credentials (the access token and the app secret, sealed with
 * APP_KEY like every `_enc` column; the webhook's verify token; the Graph API address) — in a table of
 * its own instead of columns of `settings`. One per company for now (`company_id` unique); the phone
 * number id, the business account id and the verify token are each unique across companies: the webhook
 * routes a delivery by the phone number id and answers the handshake by the verify token.
 *
 * Every settings row gets its channel, moved in keyset batches; the WhatsApp columns of `settings` are
 * then emptied (no second copy of a secret stays behind) and left unused, `facebook_messages_api_url`
 * keeping its value because it cannot be null (dropping columns means rebuilding the table on SQLite,
 * and `hub_verify_token` is unique there, which SQLite cannot drop in place). Each company's
 * conversations get its channel, and the trigger that makes a conversation names it from now on.
 */
export async function up(db: MigrationDb): Promise<void> {
  const pg = isPostgres(db);
  await withTimestamps(
    db,
    withId(db, db.schema.createTable('channels'))
      .addColumn('company_id', 'integer', (c) =>
        c.notNull().unique().references('companies.id').onDelete('cascade'),
      )
      .addColumn('kind', 'varchar(16)', (c) => c.notNull().defaultTo('whatsapp'))
      .addColumn('phone_number_id', 'varchar(32)', (c) => c.unique())
      .addColumn('business_account_id', 'varchar(32)', (c) => c.unique())
      // The number as people dial it, digits only; WhatsApp's phone number id is what routes.
      .addColumn('display_phone', 'varchar(20)')
      .addColumn('access_token_enc', 'text')
      .addColumn('app_secret_enc', 'text')
      .addColumn('verify_token', 'varchar(64)', (c) => c.unique())
      .addColumn('api_url', 'varchar(2048)', (c) => c.notNull()),
  ).execute();

  const from = Object.keys(MOVED).join(', ');
  const to = Object.values(MOVED).join(', ');
  for (let lastId = 0; ; ) {
    const rows: { id: number }[] = await db
      .selectFrom('settings')
      .select('id')
      .where('id', '>', lastId)
      .orderBy('id')
      .limit(BACKFILL_BATCH)
      .execute();
    if (rows.length === 0) break;
    const upTo = rows[rows.length - 1]!.id;
    await sql`
      insert into channels (company_id, ${sql.raw(to)}, created_at, updated_at)
      select company_id, ${sql.raw(from)}, created_at, updated_at from settings
      where id > ${lastId} and id <= ${upTo}`.execute(db);
    await sql`
      update settings set whatsapp_phone_id = null, whatsapp_business_account_id = null,
        whatsapp_api_key_enc = null, whatsapp_app_secret_enc = null, hub_verify_token = null
      where id > ${lastId} and id <= ${upTo}`.execute(db);
    lastId = upTo;
  }
  await db.schema.dropIndex('settings_whatsapp_phone_id_unique').execute();
  await db.schema.dropIndex('settings_whatsapp_business_account_id_unique').execute();

  for (let lastId = 0; ; ) {
    const bound: { id: number } | undefined = await db
      .selectFrom('conversations')
      .select('id')
      .where('id', '>', lastId)
      .orderBy('id')
      .offset(BACKFILL_BATCH - 1)
      .limit(1)
      .executeTakeFirst();
    await sql`
      update conversations set channel_id = (select ch.id from channels ch where ch.company_id = conversations.company_id)
      where id > ${lastId} ${bound === undefined ? sql`` : sql`and id <= ${bound.id}`}`.execute(db);
    if (bound === undefined) break;
    lastId = bound.id;
  }
  await replaceTrigger(db, pg, true);
}

/** The trigger of 20261127010000, naming the company's channel on a new conversation when `named`. */
async function replaceTrigger(db: MigrationDb, pg: boolean, named: boolean): Promise<void> {
  const n = (column: string) => `new.${column}`;
  const channel = named ? `(select ch.id from channels ch where ch.company_id = ${n('company_id')})` : 'null';
  const body = sql.raw(`
    insert into conversations (company_id, client_id, channel_id, messages_count, customer_last_message_at, created_at, updated_at)
    values (${n('company_id')}, ${n('client_id')}, ${channel}, 1,
      case when ${n('sender_type')} = 'client' then ${n('created_at')} end, ${n('created_at')}, ${n('created_at')})
    on conflict (client_id) do update set
      messages_count = conversations.messages_count + 1,
      customer_last_message_at = case
        when excluded.customer_last_message_at is not null and (conversations.customer_last_message_at is null
          or conversations.customer_last_message_at < excluded.customer_last_message_at)
        then excluded.customer_last_message_at else conversations.customer_last_message_at end`);
  if (pg) {
    await sql`
      create or replace function conversations_on_message() returns trigger language plpgsql as $$
      begin
        ${body};
        return null;
      end
      $$`.execute(db);
  } else {
    await sql`drop trigger conversations_on_message`.execute(db);
    await sql`
      create trigger conversations_on_message after insert on messages
      begin
        ${body};
      end`.execute(db);
  }
}

/** Back to settings: each channel's values return to its company's row. */
export async function down(db: MigrationDb): Promise<void> {
  const pg = isPostgres(db);
  await replaceTrigger(db, pg, false);
  await sql`update conversations set channel_id = null`.execute(db);
  const back = Object.entries(MOVED).map(
    ([column, moved]) =>
      sql`${sql.ref(column)} = coalesce((select ch.${sql.ref(moved)} from channels ch where ch.company_id = settings.company_id), ${
        column === 'facebook_messages_api_url' ? sql.ref(column) : sql`null`
      })`,
  );
  await sql`update settings set ${sql.join(back)}, updated_at = ${now()}`.execute(db);
  await db.schema
    .createIndex('settings_whatsapp_phone_id_unique')
    .on('settings')
    .column('whatsapp_phone_id')
    .unique()
    .execute();
  await db.schema
    .createIndex('settings_whatsapp_business_account_id_unique')
    .on('settings')
    .column('whatsapp_business_account_id')
    .unique()
    .execute();
  await db.schema.dropTable('channels').execute();
}
