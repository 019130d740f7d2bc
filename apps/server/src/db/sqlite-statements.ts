import type SQLite from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/** SQL longer than this (multi-row inserts of an import, long IN lists) is rarely run twice: not kept. */
const MAX_KEPT_SQL = 4096;

/**
 * The SQLite database as Kysely sees it, keeping its prepared statements: Kysely's driver prepares every
 * query it runs, and preparing costs about as much as running a small query. A statement is found by its
 * SQL text (values are bound separately), up to `max` of them are kept, and one that is still being
 * iterated (a streamed query) is never handed out twice — a fresh one is prepared instead. SQLite
 * re-prepares a kept statement by itself after a schema change.
 */
export function withStatementCache(sqlite: SQLite.Database, max = 256): SqliteDatabase {
  const kept = new Map<string, SQLite.Statement>();
  return {
    prepare(sql: string) {
      const found = kept.get(sql);
      if (found && !found.busy) return found;
      const statement = sqlite.prepare(sql);
      if (!found && sql.length <= MAX_KEPT_SQL) {
        // An application runs a bounded set of statements; should more ever turn up, start again.
        if (kept.size >= max) kept.clear();
        kept.set(sql, statement);
      }
      return statement;
    },
    close() {
      kept.clear();
      sqlite.close();
    },
  };
}
