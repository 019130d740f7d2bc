import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { emptyDatabaseForFile, engine } from '../../../test/migration-database';
import { isUniqueViolation } from '../errors';
import { migrateTo, migrateToLatest } from '../migrate';

const THIS = '20261126100000_settings_whatsapp_owner';

describe(`migration 20261126100000_settings_whatsapp_owner (${engine})`, () => {
  const t = emptyDatabaseForFile();

  it('keeps a shared WhatsApp id with the lowest company, clears it in the others, then refuses a second owner', async () => {
    // biome-ignore lint/suspicious/noExplicitAny: the settings table as it was before channels (20261127010100)
    const db = t.database.db as unknown as Kysely<any>;
    await migrateTo(t.database.db, '20261126000000_clients_messages_count', t.schema);
    const at = '2026-11-01T00:00:00.000Z';
    const companies = await db
      .insertInto('companies')
      .values(
        ['Primera', 'Segunda', 'Tercera', 'Cuarta'].map((name) => ({ name, created_at: at, updated_at: at })),
      )
      .returning('id')
      .execute();
    const [first, second, third, fourth] = companies.map((c: { id: number }) => c.id) as [
      number,
      number,
      number,
      number,
    ];
    // The third's row is the oldest; the second shares the first's number, the third and fourth share a
    // business account, the fourth has its own number.
    const rows = [
      { company: third, phone: '300', waba: '900', created: '2026-01-01T00:00:00.000Z' },
      { company: first, phone: '100', waba: '800', created: '2026-02-01T00:00:00.000Z' },
      { company: second, phone: '100', waba: null, created: '2026-03-01T00:00:00.000Z' },
      { company: fourth, phone: '400', waba: '900', created: '2026-04-01T00:00:00.000Z' },
    ];
    for (const r of rows)
      await db
        .insertInto('settings')
        .values({
          company_id: r.company,
          whatsapp_phone_id: r.phone,
          whatsapp_business_account_id: r.waba,
          facebook_messages_api_url: 'https://graph.facebook.com/v23.0',
          openai_chat_endpoint: 'https://api.openai.com/v1/chat/completions',
          created_at: r.created,
          updated_at: r.created,
        })
        .execute();

    await migrateTo(t.database.db, THIS, t.schema);
    const after = await db
      .selectFrom('settings')
      .select(['company_id', 'whatsapp_phone_id', 'whatsapp_business_account_id', 'updated_at'])
      .orderBy('company_id')
      .execute();
    expect(
      after.map((r: Record<string, unknown>) => [
        r.company_id,
        r.whatsapp_phone_id,
        r.whatsapp_business_account_id,
      ]),
    ).toEqual([
      [first, '100', '800'],
      [second, null, null],
      [third, '300', '900'],
      [fourth, '400', null],
    ]);
    const changed = after.filter(
      (r: { updated_at: string }) => new Date(r.updated_at).toISOString() > '2026-11-01',
    );
    expect(changed.map((r: { company_id: number }) => r.company_id)).toEqual([second, fourth]);

    // From now on the database itself refuses a second owner of either id; empty ones never collide.
    for (const values of [{ whatsapp_phone_id: '100' }, { whatsapp_business_account_id: '900' }]) {
      const error = await db
        .updateTable('settings')
        .set(values)
        .where('company_id', '=', second)
        .execute()
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(isUniqueViolation(error), JSON.stringify(values)).toBe(true);
    }
    await db
      .updateTable('settings')
      .set({ whatsapp_phone_id: null, whatsapp_business_account_id: null })
      .where('company_id', 'in', [third, fourth])
      .execute();

    // And back down and up again.
    await migrateTo(t.database.db, '20261126000000_clients_messages_count', t.schema);
    await migrateToLatest(t.database.db, t.schema);
  });
});
