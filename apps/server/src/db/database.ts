import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { DB } from './schema';
import { withStatementCache } from './sqlite-statements';

export type Engine = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  engine: Engine;
  /** Throws when the database does not answer. */
  ping(): Promise<void>;
  destroy(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres://… ; unset means the embedded SQLite file. */
  url?: string;
  /** SQLite file path (used when url is unset). */
  sqliteFile?: string;
  /** PostgreSQL schema to use as search_path (tests give each file its own). */
  pgSchema?: string;
  poolSize?: number;
}

const PG_TIMESTAMPTZ_OID = 1184;
const PG_TIMESTAMP_OID = 1114;
const PG_INT8_OID = 20;
const PG_NUMERIC_OID = 1700;

function pgTypes() {
  // Repositories see the same values on both engines: ISO strings for timestamps, numbers for counts.
  const toIso = (v: string) => new Date(v.includes('+') || v.endsWith('Z') ? v : `${v}Z`).toISOString();
  return {
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      if (oid === PG_TIMESTAMPTZ_OID || oid === PG_TIMESTAMP_OID) return toIso;
      if (oid === PG_INT8_OID || oid === PG_NUMERIC_OID) return (v: string) => Number(v);
      // biome-ignore lint/suspicious/noExplicitAny: pg's typing of the default parser lookup
      return (pg.types.getTypeParser as any)(oid, format);
    },
  };
}

export function createDatabase(options: DatabaseOptions): Database {
  if (options.url) {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      options: options.pgSchema ? `-c search_path=${options.pgSchema}` : undefined,
      types: pgTypes(),
    });
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      engine: 'postgres',
      ping: async () => {
        await sql`select 1`.execute(db);
      },
      destroy: () => db.destroy(),
    };
  }
  const file = options.sqliteFile ?? ':memory:';
  if (file !== ':memory:') {
    // The data folder and the database are the owner's alone (0700 and 0600); SQLite gives its -wal
    // and -shm files the database's permissions.
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    if (!fs.existsSync(file)) fs.closeSync(fs.openSync(file, 'a', 0o600));
  }
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  // The health check's query, prepared once; it runs outside Kysely's queue, as it changes nothing.
  const ping = sqlite.prepare('select 1');
  return {
    db,
    engine: 'sqlite',
    ping: async () => {
      ping.get();
    },
    destroy: () => db.destroy(),
  };
}
