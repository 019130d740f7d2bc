import { afterAll, beforeAll } from 'vitest';
import { createTestDatabase, type TestDatabase } from './context';

/** The engine a migration test runs on: PostgreSQL when TEST_DATABASE_URL is set, else SQLite. */
export const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

/**
 * A fresh, empty database (no migration run) for one migration test file: made before its first test and
 * dropped after its last. The object is filled in before the first test runs.
 */
export function emptyDatabaseForFile(): TestDatabase {
  const t = {} as TestDatabase;
  beforeAll(async () => {
    Object.assign(t, await createTestDatabase());
  });
  afterAll(async () => {
    await t.database.destroy();
    await t.cleanup();
  });
  return t;
}
