// The prepared-statement cache of the SQLite driver, on a real in-memory database: a statement is
// prepared once while it stays among the most recently used, a long multi-row insert included.
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { withStatementCache } from './sqlite-statements';

const open: Database.Database[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

function cached(max?: number) {
  const sqlite = new Database(':memory:');
  open.push(sqlite);
  const columns = Array.from({ length: 20 }, (_, i) => `c${i} text`).join(', ');
  sqlite.exec(`create table t (a integer, ${columns})`);
  return withStatementCache(sqlite, max);
}

describe('the SQLite statement cache', () => {
  it('hands out the same statement for the same SQL, a 100-row insert of 20 columns too', () => {
    const db = cached();
    const small = 'select a from t where a = ?';
    expect(db.prepare(small)).toBe(db.prepare(small));
    const names = Array.from({ length: 20 }, (_, i) => `c${i}`);
    const row = `(${names.map(() => '?').join(', ')})`;
    const insert = `insert into t (${names.join(', ')}) values ${Array.from({ length: 100 }, () => row).join(', ')}`;
    const first = db.prepare(insert);
    expect(db.prepare(insert)).toBe(first);
  });

  it('drops the statement used least recently when full, and keeps the others', () => {
    const db = cached(2);
    const [one, two, three] = [1, 2, 3].map((n) => `select a from t where a = ${n}`);
    const first = db.prepare(one!);
    const second = db.prepare(two!);
    // `one` used again: `two` is now the least recently used, and goes when `three` comes.
    expect(db.prepare(one!)).toBe(first);
    db.prepare(three!);
    expect(db.prepare(one!)).toBe(first);
    expect(db.prepare(two!)).not.toBe(second);
  });
});
