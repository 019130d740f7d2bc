import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, createTestDatabase } from '../../test/context';
import { migrateToLatest } from './migrate';
import { prepared } from './prepared';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

describe(`prepared queries (${engine})`, () => {
  let test: TestDatabase;

  beforeAll(async () => {
    test = await createTestDatabase();
    await migrateToLatest(test.database.db, test.schema);
    const at = new Date().toISOString();
    await test.database.db
      .insertInto('companies')
      .values([
        { name: 'Uno', created_at: at, updated_at: at },
        { name: 'Dos', created_at: at, updated_at: at },
        { name: 'Tres', created_at: at, updated_at: at },
      ])
      .execute();
  });
  afterAll(async () => {
    await test.database.destroy();
    await test.cleanup();
  });

  const byName = prepared((db, v: { name: string; above: number }) =>
    db
      .selectFrom('companies')
      .select(['id', 'name'])
      .where('name', '=', v.name)
      .where('id', '>', v.above)
      // A constant of the query stays as it was compiled.
      .where('name', '!=', 'nadie'),
  );

  it('runs with each call’s values, not the first call’s', async () => {
    const { db } = test.database;
    const uno = (await byName(db, { name: 'Uno', above: 0 })).rows;
    const dos = (await byName(db, { name: 'Dos', above: 0 })).rows;
    const none = (await byName(db, { name: 'Dos', above: 1_000 })).rows;
    expect(uno.map((r) => r.name)).toEqual(['Uno']);
    expect(dos.map((r) => r.name)).toEqual(['Dos']);
    expect(none).toEqual([]);
  });

  it('joins the caller’s transaction', async () => {
    const rename = prepared((db, v: { from: string; to: string }) =>
      db.updateTable('companies').set({ name: v.to }).where('name', '=', v.from).returning(['name']),
    );
    const { db } = test.database;
    await expect(
      db.transaction().execute(async (trx) => {
        const done = (await rename(trx, { from: 'Tres', to: 'Cuatro' })).rows;
        expect(done).toEqual([{ name: 'Cuatro' }]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect((await byName(db, { name: 'Tres', above: 0 })).rows).toHaveLength(1);
  });

  it('refuses a value that does not reach the SQL as a parameter', async () => {
    const computed = prepared((db, v: { name: string }) =>
      db.selectFrom('companies').select('id').where('name', '=', `${v.name} `.trim().toUpperCase()),
    );
    const inline = prepared((db, v: { name: string }) =>
      db.selectFrom('companies').select('id').where(sql.lit(v.name), '=', 'x'),
    );
    await expect(computed(test.database.db, { name: 'Uno' })).rejects.toThrow(/not used as parameters/);
    await expect(inline(test.database.db, { name: 'Uno' })).rejects.toThrow(/not used as parameters/);
  });
});
