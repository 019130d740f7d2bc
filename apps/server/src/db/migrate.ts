import { type Kysely, type MigrationResultSet, Migrator } from 'kysely';
import { migrations } from './migrations';
import type { DB } from './schema';

function migrator(db: Kysely<DB>, schema?: string) {
  // With a schema of its own (tests on PostgreSQL), the bookkeeping tables must live in it too.
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableSchema: schema,
  });
}

export async function migrateToLatest(db: Kysely<DB>, schema?: string): Promise<string[]> {
  const m = migrator(db, schema);
  const result: MigrationResultSet = await m.migrateToLatest();
  if (result.error) throw result.error instanceof Error ? result.error : new Error(String(result.error));
  return (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Runs the migrations up or down until `name` is the last one applied (tests of one migration). */
export async function migrateTo(db: Kysely<DB>, name: string, schema?: string): Promise<void> {
  const { error } = await migrator(db, schema).migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

export async function migrateDown(db: Kysely<DB>, schema?: string): Promise<void> {
  const m = migrator(db, schema);
  for (;;) {
    const { error, results } = await m.migrateDown();
    if (error) throw error instanceof Error ? error : new Error(String(error));
    if (!results || results.length === 0) return;
  }
}
