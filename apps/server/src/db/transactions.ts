import type { Kysely, Transaction } from 'kysely';
import type { DB } from './schema';

/**
 * What a repository is built on: the database, or one transaction of it. A repository built on a
 * transaction runs every statement in it, so what it writes commits or rolls back with the rest of the
 * caller's work (see "Database on two engines and transactions" in docs/architecture.md).
 */
export type Executor = Kysely<DB> | Transaction<DB>;

/**
 * Runs `work` as one unit on the executor: inside the executor's transaction when it is one (the
 * caller's), else in a transaction of its own. Repositories use it for their writes of several
 * statements, so each one is atomic alone and still joins a transaction it is given.
 */
export function atomically<T>(db: Executor, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db as Transaction<DB>) : db.transaction().execute(work);
}
