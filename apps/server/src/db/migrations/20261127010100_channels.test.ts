import { type Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { emptyDatabaseForFile, engine } from '../../../test/migration-database';
import { isUniqueViolation } from '../errors';
import { migrateDown, migrateTo, migrateToLatest } from '../migrate';

const BEFORE = '20261127010000_conversations';
const THIS = '20261127010100_channels';

describe(`migration ${THIS} (${engine})`, () => {
  const t = emptyDatabaseForFile();

  it("moves each company's WhatsApp number from settings to its channel, names it on conversations, and back", async () => {
    // biome-ignore lint/suspicious/noExplicitAny: the tables as they were before channels
    const db = t.database.db as unknown as Kysely<any>;
    await migrateTo(t.database.db, BEFORE, t.schema);
    const at = '2026-11-01T00:00:00.000Z';
    const [withNumber, withoutNumber] = (
      await db
        .insertInto('companies')
        .values(['Con número', 'Sin número'].map((name) => ({ name, created_at: at, updated_at: at })))
        .returning('id')
        .execute()
    ).map((c: { id: number }) => c.id) as [number, number];
    await db
      .insertInto('settings')
      .values([
        {
          company_id: withNumber,
          whatsapp_phone_id: '1001',
          whatsapp_business_account_id: '2001',
          whatsapp_api_key_enc: 'sealed-token',
          whatsapp_app_secret_enc: 'sealed-secret',
          hub_verify_token: 'verify-1',
          facebook_messages_api_url: 'http://graph.test/v23.0',
          openai_model: 'gpt-4o-mini',
          openai_chat_endpoint: 'https://api.openai.com/v1/chat/completions',
          created_at: at,
          updated_at: at,
        },
        {
          company_id: withoutNumber,
          facebook_messages_api_url: 'https://graph.facebook.com/v23.0',
          openai_chat_endpoint: 'https://api.openai.com/v1/chat/completions',
          created_at: at,
          updated_at: at,
        },
      ])
      .execute();
    const client = await db
      .insertInto('clients')
      .values({
        company_id: withNumber,
        name: 'Ana',
        whatsapp_cellphone: '34600000001',
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const message = {
      company_id: withNumber,
      client_id: client.id,
      sender_type: 'client',
      message_type: 'text',
      wa_type: 'text',
      content: 'hola',
      phone: '34600000001',
      status: 3,
      created_at: at,
      updated_at: at,
    };
    await db.insertInto('messages').values(message).execute();

    await migrateTo(t.database.db, THIS, t.schema);
    const channels = await db.selectFrom('channels').selectAll().orderBy('company_id').execute();
    expect(channels).toMatchObject([
      {
        company_id: withNumber,
        kind: 'whatsapp',
        phone_number_id: '1001',
        business_account_id: '2001',
        display_phone: null,
        access_token_enc: 'sealed-token',
        app_secret_enc: 'sealed-secret',
        verify_token: 'verify-1',
        api_url: 'http://graph.test/v23.0',
      },
      {
        company_id: withoutNumber,
        phone_number_id: null,
        access_token_enc: null,
        verify_token: null,
        api_url: 'https://graph.facebook.com/v23.0',
      },
    ]);
    // No second copy of a secret stays in settings; the rest of the row is as it was.
    const settings = await db
      .selectFrom('settings')
      .selectAll()
      .where('company_id', '=', withNumber)
      .execute();
    expect(settings[0]).toMatchObject({
      whatsapp_phone_id: null,
      whatsapp_business_account_id: null,
      whatsapp_api_key_enc: null,
      whatsapp_app_secret_enc: null,
      hub_verify_token: null,
      openai_model: 'gpt-4o-mini',
    });
    // The conversation of the existing message, and one made from now on, run on the company's number.
    const other = await db
      .insertInto('clients')
      .values({
        company_id: withNumber,
        name: 'Bea',
        whatsapp_cellphone: '34600000002',
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('messages')
      .values({ ...message, client_id: other.id })
      .execute();
    const conversations = await db
      .selectFrom('conversations')
      .select(['client_id', 'channel_id'])
      .orderBy('client_id')
      .execute();
    expect(conversations).toEqual([
      { client_id: client.id, channel_id: channels[0].id },
      { client_id: other.id, channel_id: channels[0].id },
    ]);
    // A phone number id belongs to one company.
    const error = await db
      .updateTable('channels')
      .set({ phone_number_id: '1001' })
      .where('company_id', '=', withoutNumber)
      .execute()
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(isUniqueViolation(error)).toBe(true);

    // And back: the values return to settings.
    await migrateTo(t.database.db, BEFORE, t.schema);
    const back = await db
      .selectFrom('settings')
      .select(['whatsapp_phone_id', 'whatsapp_api_key_enc', 'hub_verify_token', 'facebook_messages_api_url'])
      .where('company_id', '=', withNumber)
      .executeTakeFirstOrThrow();
    expect(back).toEqual({
      whatsapp_phone_id: '1001',
      whatsapp_api_key_enc: 'sealed-token',
      hub_verify_token: 'verify-1',
      facebook_messages_api_url: 'http://graph.test/v23.0',
    });
    await expect(sql`select id from channels`.execute(db)).rejects.toThrow();
    await migrateToLatest(t.database.db, t.schema);
    await migrateDown(t.database.db, t.schema);
  });
});
