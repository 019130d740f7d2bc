import { type Compilable, type CompiledQuery, PostgresAdapter, type QueryResult } from 'kysely';
import type { Executor } from './transactions';

/** What a stand-in value looks like while the query is compiled: never a value a caller would send. */
const MARK = '\u0000hablabot-value:';

interface Compiled<R> {
  template: CompiledQuery<R>;
  /** For each parameter of the SQL, the name of the value that fills it; undefined for a constant. */
  slots: (string | undefined)[];
}

/**
 * A query built and compiled once per engine, then run again with other values. Kysely builds an
 * immutable tree of nodes and compiles it to SQL for every call; on the webhook's path, where a handful
 * of small statements run for each customer message, that cost as much as SQLite running them.
 *
 * `build` gets a stand-in for each value (`v.companyId`) and must use each one as it is, as a value of
 * the query (not in a computation, not to choose a shape): the SQL must be the same whatever the
 * values. A query whose SQL depends on a value needs one prepared query per shape. A stand-in that does
 * not reach the SQL as a parameter is an error when the query is first compiled, not a wrong query.
 *
 * The result runs on any executor — the database or the caller's transaction — of either engine.
 */
export function prepared<V extends Record<string, unknown>, R>(
  build: (db: Executor, v: V) => Compilable<R>,
): (db: Executor, values: V) => Promise<QueryResult<R>> {
  const byEngine = new Map<boolean, Compiled<R>>();

  function compile(db: Executor): Compiled<R> {
    const used = new Set<string>();
    const standIns = new Proxy({} as V, {
      get: (_target, name) => {
        used.add(String(name));
        return `${MARK}${String(name)}`;
      },
    });
    const template = build(db, standIns).compile();
    const slots = template.parameters.map((p) =>
      typeof p === 'string' && p.startsWith(MARK) ? p.slice(MARK.length) : undefined,
    );
    const lost = [...used].filter((name) => !slots.includes(name));
    if (lost.length || template.sql.includes(MARK))
      throw new Error(`prepared query: values not used as parameters: ${lost.join(', ') || 'inline'}`);
    return { template, slots };
  }

  return async (db, values) => {
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    let compiled = byEngine.get(postgres);
    if (!compiled) {
      compiled = compile(db);
      byEngine.set(postgres, compiled);
    }
    const { template, slots } = compiled;
    const parameters = template.parameters.map((constant, i) => {
      const name = slots[i];
      return name === undefined ? constant : values[name];
    });
    return db.executeQuery<R>({ ...template, parameters });
  };
}
