import { CompiledQuery, createQueryId, type Kysely, type KyselyPlugin, type RootOperationNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_INBOX_SETTINGS } from '@hablabot/contract';
import { type TestDatabase, createTestDatabase } from '../../test/context';
import { createMessagesRepository } from '../modules/messaging/messages.repository';
import { createAudiences } from '../modules/realtime/audience';
import { migrateToLatest } from './migrate';
import type { DB } from './schema';

// The hot reads of a customer's message look rows up by their keys. SQLite's planner keeps no table
// statistics, so how a query is written decides whether it looks a few rows up or walks a company's
// million messages: these tests read the plans SQLite makes for the real queries.
describe.skipIf(!!process.env.TEST_DATABASE_URL)('reads by key (SQLite query plans)', () => {
  let test: TestDatabase;
  const seen: RootOperationNode[] = [];
  const capture: KyselyPlugin = {
    transformQuery: ({ node }) => {
      seen.push(node);
      return node;
    },
    transformResult: async ({ result }) => result,
  };

  beforeAll(async () => {
    test = await createTestDatabase();
    await migrateToLatest(test.database.db, test.schema);
  });
  afterAll(async () => {
    await test.database.destroy();
    await test.cleanup();
  });

  /** SQLite's plan of each select `run` makes, in order. */
  async function plans(run: (db: Kysely<DB>) => Promise<unknown>): Promise<string[]> {
    seen.length = 0;
    const db = test.database.db.withPlugin(capture);
    await run(db);
    const out: string[] = [];
    for (const node of seen.splice(0)) {
      if (node.kind !== 'SelectQueryNode') continue;
      const query = test.database.db.getExecutor().compileQuery(node, createQueryId());
      const { rows } = await test.database.db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
      );
      out.push(rows.map((r) => r.detail).join(' | '));
    }
    return out;
  }

  it("looks the company's messages up by their ids, never through the company's index", async () => {
    expect(await plans((db) => createMessagesRepository(db).findMessages(1, [1, 2, 3]))).toEqual([
      expect.stringContaining('USING INTEGER PRIMARY KEY'),
    ]);
    // Why: the same read written with a plain company_id walks the company's index.
    const plain = await plans((db) =>
      db
        .selectFrom('messages')
        .selectAll()
        .where('company_id', '=', 1)
        .where('id', 'in', [1, 2, 3])
        .execute(),
    );
    expect(plain).toEqual([expect.stringContaining('messages_company_client_idx (company_id=?)')]);
  });

  it("looks the conversations' assignees up by client", async () => {
    const audiences = (db: Kysely<DB>) =>
      createAudiences({ db, inboxSettings: { get: async () => DEFAULT_INBOX_SETTINGS } });
    expect(await plans((db) => audiences(db).ofClients(1, [1, 2]))).toEqual([
      expect.stringContaining('sqlite_autoindex_conversations_1 (client_id=?)'),
    ]);
    expect((await audiences(test.database.db).ofClients(1, [1])).get(1)).toMatchObject({ assigneeId: null });
  });
});
