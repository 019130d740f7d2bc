import type SQLite from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/**
 * SQL longer than this is not kept: a one-off statement as long as an import's multi-row insert. The
 * webhook's chunks (up to 100 messages or conversations in one insert, ~10–20 KB of SQL) are kept: a
 * burst runs the same full chunk again and again.
 */
const MAX_KEPT_SQL = 65_536;

/**
 * The SQLite database as Kysely sees it, keeping its prepared statements: Kysely's driver prepares every
 * query it runs, and preparing costs about as much as running a small query (a multi-row insert of 100
 * rows, several times more). A statement is found by its SQL text (values are bound separately); the
 * `max` used most recently are kept, and one that is still being iterated (a streamed query) is never
 * handed out twice — a fresh one is prepared instead. SQLite re-prepares a kept statement by itself
 * after a schema change.
 */
export function withStatementCache(sqlite: SQLite.Database, max = 256): SqliteDatabase {
  // A Map iterates in insertion order: a statement used again moves to the end, the first is the oldest.
  const kept = new Map<string, SQLite.Statement>();
  return {
    prepare(sql: string) {
      const found = kept.get(sql);
      if (found && !found.busy) {
        kept.delete(sql);
        kept.set(sql, found);
        return found;
      }
      const statement = sqlite.prepare(sql);
      if (!found && sql.length <= MAX_KEPT_SQL) {
        if (kept.size >= max) kept.delete(kept.keys().next().value!);
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
