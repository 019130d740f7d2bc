import { type Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { emptyDatabaseForFile, engine } from '../../../test/migration-database';
import { isUniqueViolation } from '../errors';
import { migrateTo } from '../migrate';
import { migrations } from './index';

const NAME = '20261129000000_clients_phone_key';
const names = Object.keys(migrations).sort();
const BEFORE = names[names.indexOf(NAME) - 1]!;

const iso = (t: unknown) => new Date(t as string).toISOString();

describe(`migration ${NAME} (${engine})`, () => {
  const t = emptyDatabaseForFile();

  it('merges the clients whose phones are mobile variants of one number into the older one, nothing lost', async () => {
    // biome-ignore lint/suspicious/noExplicitAny: the tables as they were before this migration
    const db = t.database.db as unknown as Kysely<any>;
    await migrateTo(t.database.db, BEFORE, t.schema);
    const at = '2026-11-20T10:00:00.000Z';
    const company = async (name: string) =>
      (
        await db
          .insertInto('companies')
          .values({ name, created_at: at, updated_at: at })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const acme = await company('Acme');
    const other = await company('Otra');
    const client = async (companyId: number, phone: string, values: Record<string, unknown> = {}) =>
      (
        await db
          .insertInto('clients')
          .values({
            company_id: companyId,
            name: phone,
            whatsapp_cellphone: phone,
            created_at: at,
            updated_at: at,
            ...values,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const message = async (companyId: number, clientId: number, content: string, date: string) =>
      (
        await db
          .insertInto('messages')
          .values({
            company_id: companyId,
            client_id: clientId,
            sender_type: 'client',
            message_type: 'text',
            wa_type: 'text',
            content,
            phone: '0',
            status: 3,
            created_at: date,
            updated_at: date,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;

    // Mexico: typed in a form first (+52 55 1234 5678), then WhatsApp's id (521…) made a second client.
    const mxTyped = await client(acme, '525512345678', {
      name: 'Ana',
      last_names: 'López',
      email: 'ana@example.com',
    });
    const mxWhatsApp = await client(acme, '5215512345678', { wa_user_id: 'MX.ana' });
    // Argentina: WhatsApp's id (549…) first, with a chat; then typed without the 9, with another chat.
    const arWhatsApp = await client(acme, '5491112345678', { name: 'Beto' });
    const arTyped = await client(acme, '541112345678', { name: 'Roberto', projects: 'Casa' });
    // Brazil: an id older than the 9th digit, then the number with it.
    const brOld = await client(acme, '551112345678');
    const brNew = await client(acme, '5511912345678', { name: 'Carla' });
    // Numbers of other countries, a Brazilian landline and another company's variant stay as they are.
    const alone = [
      await client(acme, '573001234567'),
      await client(acme, '34600123456'),
      await client(acme, '12025550123'),
      await client(acme, '551131234567'),
      await client(other, '5215512345678'),
      await client(other, '525512345679'),
    ];

    const m1 = await message(acme, mxWhatsApp, 'Hola', '2026-11-20T11:00:00.000Z');
    const a1 = await message(acme, arWhatsApp, 'Primero', '2026-11-20T11:00:00.000Z');
    const a2 = await message(acme, arTyped, 'Segundo', '2026-11-20T12:00:00.000Z');
    const a3 = await message(acme, arTyped, 'Tercero', '2026-11-20T12:30:00.000Z');
    await db
      .updateTable('conversations')
      .set({ status: 'resolved', resolved_at: '2026-11-20T11:30:00.000Z', unread_count: 0 })
      .where('client_id', '=', arWhatsApp)
      .execute();
    await db
      .updateTable('conversations')
      .set({ unread_count: 2, last_message_content: 'Tercero', last_message_at: '2026-11-20T12:30:00.000Z' })
      .where('client_id', '=', arTyped)
      .execute();

    const segment = (
      await db
        .insertInto('segments')
        .values({
          company_id: acme,
          name: 'VIP',
          name_key: 'vip',
          color: '#000000',
          rules: '',
          created_at: at,
          updated_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    await db.insertInto('client_segments').values({ client_id: mxWhatsApp, segment_id: segment }).execute();
    const list = (
      await db
        .insertInto('client_lists')
        .values({ company_id: acme, name: 'Clientes', created_at: at, updated_at: at })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    await db
      .insertInto('client_list_members')
      .values([
        { list_id: list, client_id: arWhatsApp },
        { list_id: list, client_id: arTyped },
        { list_id: list, client_id: brNew },
      ])
      .execute();
    const send = (
      await db
        .insertInto('mass_messages')
        .values({
          company_id: acme,
          name: 'Rebajas',
          status: 'completed',
          list_name: 'Clientes',
          template_name: 'aviso',
          template_language: 'es',
          template_body: 'Hola',
          body_parameters: '{}',
          message: 'Hola',
          messages_per_second: 10,
          counts: '{}',
          created_at: at,
          updated_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    await db
      .insertInto('mass_message_recipients')
      .values(
        [brNew, arWhatsApp].map((id) => ({
          mass_message_id: send,
          company_id: acme,
          client_id: id,
          name: 'x',
          last_names: '',
          phone: '0',
          status: 'read',
          updated_at: at,
        })),
      )
      .execute();

    await migrateTo(t.database.db, NAME, t.schema);

    const clients = await db
      .selectFrom('clients')
      .select([
        'id',
        'company_id',
        'name',
        'last_names',
        'email',
        'projects',
        'wa_user_id',
        'whatsapp_cellphone',
        'phone_key',
        'search_text',
      ])
      .orderBy('id')
      .execute();
    expect(clients.map((c) => c.id)).toEqual([mxTyped, arWhatsApp, brOld, ...alone]);
    const byId = new Map(clients.map((c) => [c.id, c]));
    // The older client keeps its phone and fields; its empty ones are filled from the newer one.
    expect(byId.get(mxTyped)).toMatchObject({
      name: 'Ana',
      whatsapp_cellphone: '525512345678',
      phone_key: '525512345678',
      wa_user_id: 'MX.ana',
    });
    expect(byId.get(arWhatsApp)).toMatchObject({ name: 'Beto', projects: 'Casa', phone_key: '541112345678' });
    // A client named by its phone takes the other's name (and its search text follows).
    expect(byId.get(brOld)).toMatchObject({ name: 'Carla', phone_key: '551112345678', search_text: 'carla' });
    expect(clients.filter((c) => alone.includes(c.id)).map((c) => c.phone_key)).toEqual([
      '573001234567',
      '34600123456',
      '12025550123',
      '551131234567',
      '525512345678',
      '525512345679',
    ]);

    // Messages, one conversation per customer, memberships and recipients moved to the survivor.
    const messages = await db.selectFrom('messages').select(['id', 'client_id']).orderBy('id').execute();
    expect(messages).toEqual([
      { id: m1, client_id: mxTyped },
      { id: a1, client_id: arWhatsApp },
      { id: a2, client_id: arWhatsApp },
      { id: a3, client_id: arWhatsApp },
    ]);
    const conversations = await db
      .selectFrom('conversations')
      .select([
        'client_id',
        'status',
        'resolved_at',
        'unread_count',
        'messages_count',
        'last_message_content',
        'last_message_at',
        'customer_last_message_at',
      ])
      .orderBy('client_id')
      .execute();
    expect(conversations.map((c) => c.client_id)).toEqual([mxTyped, arWhatsApp]);
    const ar = conversations[1]!;
    expect({
      ...ar,
      last_message_at: iso(ar.last_message_at),
      customer_last_message_at: iso(ar.customer_last_message_at),
    }).toEqual({
      client_id: arWhatsApp,
      status: 'open',
      resolved_at: null,
      unread_count: 2,
      messages_count: 3,
      last_message_content: 'Tercero',
      last_message_at: '2026-11-20T12:30:00.000Z',
      customer_last_message_at: '2026-11-20T12:30:00.000Z',
    });
    expect(await db.selectFrom('client_segments').selectAll().execute()).toEqual([
      { client_id: mxTyped, segment_id: segment },
    ]);
    const members = await db
      .selectFrom('client_list_members')
      .select('client_id')
      .orderBy('client_id')
      .execute();
    expect(members.map((m) => m.client_id)).toEqual([arWhatsApp, brOld]);
    const recipients = await db
      .selectFrom('mass_message_recipients')
      .select('client_id')
      .orderBy('client_id')
      .execute();
    expect(recipients.map((r) => r.client_id)).toEqual([arWhatsApp, brOld]);

    // From now on the database refuses a variant of a stored phone in the same company.
    const error = await db
      .insertInto('clients')
      .values({
        company_id: acme,
        name: 'Otra Ana',
        whatsapp_cellphone: '5215512345678',
        created_at: at,
        updated_at: at,
      })
      .execute()
      .catch((e: unknown) => e);
    expect(isUniqueViolation(error)).toBe(true);

    // Down drops the key; up again finds nothing to merge.
    await migrateTo(t.database.db, BEFORE, t.schema);
    await expect(sql`select phone_key from clients`.execute(db)).rejects.toThrow();
    await migrateTo(t.database.db, NAME, t.schema);
    expect(await db.selectFrom('clients').select('id').orderBy('id').execute()).toEqual(
      clients.map((c) => ({ id: c.id })),
    );
  });
});
