import { type Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { emptyDatabaseForFile, engine } from '../../../test/migration-database';
import { migrateDown, migrateTo, migrateToLatest } from '../migrate';
import { BACKFILL_BATCH } from './20261127010000_conversations';

const BEFORE = '20261126200000_clients_unread_idx';
const THIS = '20261127010000_conversations';

describe(`migration ${THIS} (${engine})`, () => {
  const t = emptyDatabaseForFile();

  it("moves every client's chat state to its conversation, in batches, then keeps counting new messages", async () => {
    // biome-ignore lint/suspicious/noExplicitAny: the tables as they were before conversations
    const db = t.database.db as unknown as Kysely<any>;
    await migrateTo(t.database.db, BEFORE, t.schema);
    const at = '2026-11-20T10:00:00.000Z';
    const company = await db
      .insertInto('companies')
      .values({ name: 'Antes', created_at: at, updated_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    // More clients than one batch; client k holds k % 4 messages (the customer's first, then ours), and
    // every third one that has messages has unread ones and the bot paused. Clients without messages
    // get no conversation.
    const total = BACKFILL_BATCH + 7;
    const rows = Array.from({ length: total }, (_, k) => ({
      company_id: company.id,
      name: `Cliente ${k}`,
      whatsapp_cellphone: `34600${String(k).padStart(6, '0')}`,
      mode_bot: k % 3 === 0 ? 0 : 1,
      unread_messages_count: k % 4 > 0 && k % 3 === 0 ? 2 : 0,
      last_message_content: k % 4 > 0 ? `último ${k}` : null,
      last_message_date: k % 4 > 0 ? `2026-11-2${k % 4}T08:00:00.000Z` : null,
      created_at: at,
      updated_at: at,
    }));
    const ids: number[] = [];
    for (let i = 0; i < rows.length; i += 500) {
      const saved = await db
        .insertInto('clients')
        .values(rows.slice(i, i + 500))
        .returning('id')
        .execute();
      ids.push(...saved.map((r: { id: number }) => r.id));
    }
    const messages = ids.flatMap((id, k) =>
      Array.from({ length: k % 4 }, (_, n) => ({
        company_id: company.id,
        client_id: id,
        sender_type: n === 0 ? 'client' : 'admin',
        message_type: 'text',
        wa_type: 'text',
        content: `m${n}`,
        phone: '34600000000',
        status: 3,
        created_at: `2026-11-2${n + 1}T09:00:00.000Z`,
        updated_at: at,
      })),
    );
    for (let i = 0; i < messages.length; i += 500)
      await db
        .insertInto('messages')
        .values(messages.slice(i, i + 500))
        .execute();

    await migrateTo(t.database.db, THIS, t.schema);
    const moved = await db.selectFrom('conversations').selectAll().orderBy('client_id').execute();
    const withState = ids.filter((_, k) => k % 4 > 0 || k % 3 === 0);
    expect(moved.map((c) => c.client_id)).toEqual(withState);
    for (const c of moved) {
      const k = ids.indexOf(c.client_id);
      expect(c, `client ${k}`).toMatchObject({
        company_id: company.id,
        status: 'open',
        assignee_user_id: null,
        channel_id: null,
        unread_count: rows[k]!.unread_messages_count,
        last_message_content: rows[k]!.last_message_content,
        bot_paused: k % 3 === 0 ? 1 : 0,
        messages_count: k % 4,
      });
      expect(c.last_message_at && new Date(c.last_message_at).toISOString()).toBe(rows[k]!.last_message_date);
      // The customer wrote the first message of each conversation.
      expect(c.customer_last_message_at && new Date(c.customer_last_message_at).toISOString()).toBe(
        k % 4 > 0 ? '2026-11-21T09:00:00.000Z' : null,
      );
    }

    // From now on the trigger keeps the count and the customer's newest message, and makes the
    // conversation of a client's first message.
    const fresh = ids.find((_, k) => k % 4 === 0 && k % 3 !== 0)!;
    const written = ids[1]!;
    await db
      .insertInto('messages')
      .values([
        {
          ...messages[0]!,
          client_id: written,
          sender_type: 'client',
          created_at: '2026-11-25T09:00:00.000Z',
        },
        { ...messages[0]!, client_id: written, sender_type: 'bot', created_at: '2026-11-26T09:00:00.000Z' },
        { ...messages[0]!, client_id: fresh, sender_type: 'admin', created_at: '2026-11-26T09:00:00.000Z' },
      ])
      .execute();
    const after = await db
      .selectFrom('conversations')
      .select(['client_id', 'messages_count', 'customer_last_message_at'])
      .where('client_id', 'in', [written, fresh])
      .orderBy('client_id')
      .execute();
    expect(
      after.map((c: { client_id: number; messages_count: number; customer_last_message_at: unknown }) => [
        c.client_id,
        Number(c.messages_count),
        c.customer_last_message_at && new Date(String(c.customer_last_message_at)).toISOString(),
      ]),
    ).toEqual(
      [
        [written, 3, '2026-11-25T09:00:00.000Z'],
        [fresh, 1, null],
      ].sort((a, b) => Number(a[0]) - Number(b[0])),
    );
    // Deleting a client deletes its conversation.
    await db.deleteFrom('clients').where('id', '=', written).execute();
    expect(
      await db.selectFrom('conversations').select('id').where('client_id', '=', written).execute(),
    ).toEqual([]);

    // And back: the state returns to the client rows, the client's count trigger counts again.
    await migrateTo(t.database.db, BEFORE, t.schema);
    const back = await db
      .selectFrom('clients')
      .select(['id', 'mode_bot', 'unread_messages_count', 'messages_count'])
      .where('id', 'in', [ids[3]!, fresh])
      .orderBy('id')
      .execute();
    expect(
      back.map((c: Record<string, unknown>) => [c.mode_bot, c.unread_messages_count, c.messages_count]),
    ).toEqual([
      [0, 2, 3],
      [1, 0, 1],
    ]);
    await expect(sql`select id from conversations`.execute(db)).rejects.toThrow();
    await migrateToLatest(t.database.db, t.schema);
    await migrateDown(t.database.db, t.schema);
  });
});
