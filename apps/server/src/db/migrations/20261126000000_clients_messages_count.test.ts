import { type Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { emptyDatabaseForFile, engine } from '../../../test/migration-database';
import { migrateDown, migrateTo, migrateToLatest } from '../migrate';

const LAST_ON_CLIENTS = '20261126200000_clients_unread_idx';

describe(`migration 20261126000000_clients_messages_count (${engine})`, () => {
  const t = emptyDatabaseForFile();

  it('counts the conversations already stored, in batches, then keeps counting new messages', async () => {
    const { db } = t.database;
    // biome-ignore lint/suspicious/noExplicitAny: the clients table as it was before conversations
    const legacy = db as unknown as Kysely<any>;
    await migrateTo(db, '20261125100000_messages_by_day', t.schema);
    const at = new Date().toISOString();
    const company = await db
      .insertInto('companies')
      .values({ name: 'Antes', created_at: at, updated_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    // More clients than one batch of the backfill; client k holds k % 7 messages.
    const clients = await db
      .insertInto('clients')
      .values(
        Array.from({ length: 1500 }, (_, k) => ({
          company_id: company.id,
          name: `Cliente ${k}`,
          whatsapp_cellphone: `34600${String(k).padStart(6, '0')}`,
          created_at: at,
          updated_at: at,
        })),
      )
      .returning('id')
      .execute();
    const messages = clients.flatMap(({ id }, k) =>
      Array.from({ length: k % 7 }, (_, n) => ({
        company_id: company.id,
        client_id: id,
        sender_type: 'client',
        message_type: 'text',
        wa_type: 'text',
        content: `m${n}`,
        phone: '34600000000',
        status: 3,
        created_at: at,
        updated_at: at,
      })),
    );
    for (let i = 0; i < messages.length; i += 500)
      await db
        .insertInto('messages')
        .values(messages.slice(i, i + 500))
        .execute();

    // Up to the last migration that kept the count on the client row (20261127010000 moved it to
    // conversations).
    await migrateTo(db, LAST_ON_CLIENTS, t.schema);
    const counted = await legacy
      .selectFrom('clients')
      .select(['id', 'messages_count'])
      .orderBy('id')
      .execute();
    expect(counted.map((c) => Number(c.messages_count))).toEqual(clients.map((_, k) => k % 7));

    // From now on the trigger counts: two more for the first client.
    await db
      .insertInto('messages')
      .values([0, 1].map(() => ({ ...messages[0]!, client_id: clients[0]!.id })))
      .execute();
    const first = await legacy
      .selectFrom('clients')
      .select('messages_count')
      .where('id', '=', clients[0]!.id)
      .executeTakeFirstOrThrow();
    expect(Number(first.messages_count)).toBe(2);

    // And back: the column and the trigger go (a message can still be stored), up again, and all the way
    // down.
    await migrateTo(db, '20261125100000_messages_by_day', t.schema);
    await db.insertInto('messages').values(messages[0]!).execute();
    await expect(sql`select messages_count from clients`.execute(db)).rejects.toThrow();
    await migrateTo(db, LAST_ON_CLIENTS, t.schema);
    await migrateToLatest(db, t.schema);
    await migrateDown(db, t.schema);
  });
});
