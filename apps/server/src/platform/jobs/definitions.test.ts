import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestDatabase, type TestDatabase } from '../../../test/context';
import { waitFor } from '../../../test/wait';
import { migrateToLatest } from '../../db/migrate';
import { createDatabaseJobQueue } from './database-jobs';
import { type DefinedJobQueue, defineJob, withDefinitions } from './definitions';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

describe(`job definitions (${engine})`, () => {
  let t: TestDatabase;
  let queue: DefinedJobQueue;
  const ran: unknown[] = [];

  beforeAll(async () => {
    t = await createTestDatabase();
    await migrateToLatest(t.database.db, t.schema);
    queue = withDefinitions(
      createDatabaseJobQueue({ db: t.database.db, engine: t.database.engine, pollMs: 20 }),
    );
    queue.define([
      defineJob({
        name: 'templates.sync',
        schema: z.object({ companyId: z.number().int().positive() }),
        handler: async (payload) => {
          ran.push(payload);
        },
        options: { atMostOnce: true },
      }),
    ]);
    await queue.start();
  });
  afterAll(async () => {
    await queue.stop();
    await t.database.destroy();
    await t.cleanup();
  });

  const stored = () => t.database.db.selectFrom('jobs').selectAll().execute();

  it('runs a defined job with its checked payload', async () => {
    await queue.enqueue('templates.sync', { companyId: 7 });
    await waitFor(() => ran.length === 1);
    expect(ran).toEqual([{ companyId: 7 }]);
  });

  it('refuses on enqueue a payload its schema refuses, and a job without a definition; nothing is stored', async () => {
    await expect(queue.enqueue('templates.sync', { companyId: -1 })).rejects.toThrow();
    await expect(queue.enqueue('templates.sync', { companyId: 'x' } as never)).rejects.toThrow();
    await expect(queue.enqueue('messaging.mark-read', { companyId: 1, wamid: 'w' })).rejects.toThrow(
      'job messaging.mark-read has no definition',
    );
    expect(await stored()).toEqual([]);
  });

  it("fails a stored job whose payload is not the definition's, without running the handler", async () => {
    const at = new Date().toISOString();
    await t.database.db
      .insertInto('jobs')
      .values({
        name: 'templates.sync',
        payload: JSON.stringify({ company: 'old shape' }),
        state: 'pending',
        run_at: at,
        max_attempts: 1,
        backoff_ms: 10,
        dedupe_key: null,
        locked_by: null,
        locked_until: null,
        request_id: null,
        last_error: null,
        created_at: at,
        updated_at: at,
      })
      .execute();
    await waitFor(async () => (await stored()).some((j) => j.state === 'failed'));
    const [job] = await stored();
    expect(job!.last_error).toMatch(/companyId/);
    expect(ran).toHaveLength(1);
  });

  it('takes no handler registered another way', () => {
    expect(() => queue.register('templates.sync', async () => {})).toThrow(/definitions/);
  });
});
