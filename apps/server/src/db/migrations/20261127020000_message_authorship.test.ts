import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { emptyDatabaseForFile, engine } from '../../../test/migration-database';
import { migrateTo, migrateToLatest } from '../migrate';
import { migrations } from './index';

const NAME = '20261127020000_message_authorship';
const names = Object.keys(migrations).sort();
const BEFORE = names[names.indexOf(NAME) - 1]!;

describe(`migration ${NAME} (${engine})`, () => {
  const t = emptyDatabaseForFile();

  it('gives existing messages their author, quote and current status, and goes back down', async () => {
    const { db } = t.database;
    await migrateTo(db, BEFORE, t.schema);
    const at = '2026-11-20T10:00:00.000Z';
    const company = await db
      .insertInto('companies')
      .values({ name: 'Antes', created_at: at, updated_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    const other = await db
      .insertInto('companies')
      .values({ name: 'Otra', created_at: at, updated_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    const client = await db
      .insertInto('clients')
      .values({
        company_id: company.id,
        name: 'Ana',
        whatsapp_cellphone: '34600000001',
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const send = await db
      .insertInto('mass_messages')
      .values({
        company_id: company.id,
        name: 'Rebajas',
        status: 'completed',
        list_id: null,
        list_name: 'Lista',
        template_id: null,
        template_name: 'aviso',
        template_language: 'es',
        template_body: 'Hola',
        body_parameters: '{}',
        header: null,
        media_id: null,
        message: 'Hola',
        messages_per_second: 10,
        counts: '{}',
        created_by: null,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('mass_message_recipients')
      .values({
        mass_message_id: send.id,
        company_id: company.id,
        client_id: client.id,
        name: 'Ana',
        last_names: '',
        phone: '34600000001',
        email: null,
        status: 'read',
        wamid: 'wamid.campaign',
        updated_at: at,
      })
      .execute();
    const base = {
      client_id: client.id,
      message_type: 'text',
      phone: '34600000001',
      created_at: at,
      updated_at: at,
    };
    const insert = async (row: Record<string, unknown>) =>
      (
        await db
          .insertInto('messages')
          // biome-ignore lint/suspicious/noExplicitAny: rows as the schema was before this migration
          .values({ company_id: company.id, ...base, ...row } as any)
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const agent = await insert({
      sender_type: 'admin',
      wa_type: 'text',
      content: 'Hola Ana',
      wamid: 'wamid.agent',
      status: 3,
    });
    const customer = await insert({
      sender_type: 'client',
      wa_type: 'text',
      content: 'Gracias',
      wamid: 'wamid.customer',
      context_wamid: 'wamid.agent',
      status: 2,
    });
    const bot = await insert({
      sender_type: 'bot',
      wa_type: 'text',
      content: 'Soy el bot',
      status: 4,
      error_code: 131047,
      error_message: 'Re-engagement message',
    });
    const campaign = await insert({
      sender_type: 'admin',
      wa_type: 'template',
      content: 'Rebajas',
      wamid: 'wamid.campaign',
      status: 2,
    });
    // Another company's message with the same quoted wamid never becomes the quote.
    await db
      .insertInto('messages')
      .values({
        ...base,
        company_id: other.id,
        sender_type: 'client',
        wa_type: 'text',
        content: 'x',
        wamid: 'wamid.agent',
        status: 2,
        // biome-ignore lint/suspicious/noExplicitAny: rows as the schema was before this migration
      } as any)
      .execute();

    await migrateTo(db, NAME, t.schema);
    const rows = await db
      .selectFrom('messages')
      .select(['id', 'author_kind', 'author_user_id', 'author_mass_message_id', 'reply_to_id'])
      .where('company_id', '=', company.id)
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      {
        id: agent,
        author_kind: 'user',
        author_user_id: null,
        author_mass_message_id: null,
        reply_to_id: null,
      },
      {
        id: customer,
        author_kind: 'customer',
        author_user_id: null,
        author_mass_message_id: null,
        reply_to_id: agent,
      },
      { id: bot, author_kind: 'bot', author_user_id: null, author_mass_message_id: null, reply_to_id: null },
      {
        id: campaign,
        author_kind: 'campaign',
        author_user_id: null,
        author_mass_message_id: send.id,
        reply_to_id: null,
      },
    ]);
    const statuses = await db
      .selectFrom('message_statuses')
      .select(['message_id', 'status', 'error_code', 'error_title'])
      .orderBy('message_id')
      .execute();
    // The company's own messages get their current status; the customer's none.
    expect(statuses).toEqual([
      { message_id: agent, status: 'delivered', error_code: null, error_title: null },
      { message_id: bot, status: 'failed', error_code: 131047, error_title: 'Re-engagement message' },
      { message_id: campaign, status: 'read', error_code: null, error_title: null },
    ]);

    // Deleting the quoted message or the send keeps the messages, their references cleared.
    await db.deleteFrom('message_statuses').where('message_id', '=', agent).execute();
    await db.deleteFrom('messages').where('id', '=', agent).execute();
    await db.deleteFrom('mass_message_recipients').execute();
    await db.deleteFrom('mass_messages').where('id', '=', send.id).execute();
    const after = await db
      .selectFrom('messages')
      .select(['id', 'author_kind', 'author_mass_message_id', 'reply_to_id'])
      .where('id', 'in', [customer, campaign])
      .orderBy('id')
      .execute();
    expect(after).toEqual([
      { id: customer, author_kind: 'customer', author_mass_message_id: null, reply_to_id: null },
      { id: campaign, author_kind: 'campaign', author_mass_message_id: null, reply_to_id: null },
    ]);

    // Down: the table and the columns go, a message can still be stored; and up again.
    await migrateTo(db, BEFORE, t.schema);
    await expect(sql`select author_kind from messages`.execute(db)).rejects.toThrow();
    await expect(sql`select 1 from message_statuses`.execute(db)).rejects.toThrow();
    await insert({ sender_type: 'client', wa_type: 'text', content: 'otra vez', status: 2 });
    await migrateToLatest(db, t.schema);
  });
});
