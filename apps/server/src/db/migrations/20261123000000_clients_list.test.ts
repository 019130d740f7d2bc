import { describe, expect, it } from 'vitest';
import { emptyDatabaseForFile, engine } from '../../../test/migration-database';
import { derivedColumns } from '../../modules/clients/clients.repository';
import { migrateDown, migrateTo, migrateToLatest } from '../migrate';

describe(`migration 20261123000000_clients_list (${engine})`, () => {
  const t = emptyDatabaseForFile();

  it('fills name_sort and search_text of existing clients, in batches, as the repository would', async () => {
    const { db } = t.database;
    await migrateTo(db, '20261122010100_clients_chat_order', t.schema);
    const at = new Date().toISOString();
    const company = await db
      .insertInto('companies')
      .values({ name: 'Before', created_at: at, updated_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    const names = ['Ángel', 'NÚÑEZ', 'Ana  María', 'Zoë'];
    // More rows than one batch of the backfill, some without an email.
    const rows = Array.from({ length: 1234 }, (_, i) => ({
      company_id: company.id,
      name: `${names[i % names.length]} ${i}`,
      last_names: i % 2 ? 'García Peña' : 'López',
      whatsapp_cellphone: `34600${String(i).padStart(6, '0')}`,
      email: i % 5 === 0 ? null : `Person${i}@example.test`,
      created_at: at,
      updated_at: at,
    }));
    for (let i = 0; i < rows.length; i += 300) {
      // The new columns do not exist yet: only the older ones are written.
      await db
        .insertInto('clients')
        .values(rows.slice(i, i + 300))
        .execute();
    }

    await migrateToLatest(db, t.schema);
    const stored = await db
      .selectFrom('clients')
      .select(['name', 'last_names', 'email', 'name_sort', 'search_text'])
      .orderBy('id')
      .execute();
    expect(stored).toHaveLength(rows.length);
    for (const r of stored)
      expect({ name_sort: r.name_sort, search_text: r.search_text }).toEqual(derivedColumns(r));
    expect(stored[0]).toMatchObject({ name_sort: 'angel 0\u0001lopez', search_text: 'angel 0 lopez' });
    expect(stored[1].search_text).toBe('nunez 1 garcia pena person1@example.test');

    // And back: the columns and indexes go, the older chat index returns.
    await migrateTo(db, '20261122010100_clients_chat_order', t.schema);
    await migrateToLatest(db, t.schema);
    await migrateDown(db, t.schema);
  });
});
