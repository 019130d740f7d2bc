import { describe, expect, it } from 'vitest';
import { emptyDatabaseForFile, engine } from '../../../test/migration-database';
import { migrateTo } from '../migrate';

describe(`migration 20261127000000_outbox (${engine})`, () => {
  const t = emptyDatabaseForFile();

  it('adds an empty outbox whose rows start pending, unhandled, untried', async () => {
    const { db } = t.database;
    await migrateTo(db, '20261127000000_outbox', t.schema);
    expect(await db.selectFrom('outbox').selectAll().execute()).toEqual([]);
    const at = '2026-11-27T00:00:00.000Z';
    const { id } = await db
      .insertInto('outbox')
      .values({
        type: 'message.received',
        company_id: 1,
        payload: '{}',
        state: 'pending',
        available_at: at,
        created_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(await db.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirst()).toMatchObject({
      attempts: 0,
      handled: '',
      locked_by: null,
      locked_until: null,
      done_at: null,
    });
  });
});
