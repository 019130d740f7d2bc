import { type ColumnDataType, type CreateTableBuilder, type Kysely, PostgresAdapter, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not the current types
export type MigrationDb = Kysely<any>;

export function isPostgres(db: MigrationDb): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Integer primary key that the database fills in: serial on PostgreSQL, rowid alias on SQLite. */
// biome-ignore lint/suspicious/noExplicitAny: generic over any table builder
export function withId<T extends CreateTableBuilder<any, any>>(db: MigrationDb, table: T): T {
  return (
    isPostgres(db)
      ? table.addColumn('id', 'serial', (c) => c.primaryKey())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
  ) as T;
}

/** timestamptz on PostgreSQL; ISO 8601 text on SQLite (fixed width, so it sorts in time order). */
export function timestampType(db: MigrationDb): ColumnDataType {
  return isPostgres(db) ? 'timestamptz' : 'text';
}

/** created_at and updated_at, both required. */
// biome-ignore lint/suspicious/noExplicitAny: generic over any table builder
export function withTimestamps<T extends CreateTableBuilder<any, any>>(db: MigrationDb, table: T): T {
  const type = timestampType(db);
  return table
    .addColumn('created_at', type, (c) => c.notNull())
    .addColumn('updated_at', type, (c) => c.notNull()) as T;
}

export const now = () => new Date().toISOString();
export { sql };
