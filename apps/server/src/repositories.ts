import type { Kysely } from 'kysely';
import type { DB } from './db/schema';
import type { Executor } from './db/transactions';
import { createClientsRepository } from './modules/clients/clients.repository';
import { createSegmentsRepository } from './modules/clients/segments.repository';
import { createCompaniesRepository } from './modules/identity/companies.repository';
import { createRolesRepository } from './modules/identity/roles.repository';
import { createTokensRepository } from './modules/identity/tokens.repository';
import { createUsersRepository } from './modules/identity/users.repository';
import { createMessagesRepository } from './modules/messaging/messages.repository';

/** Every repository, built on one executor: the database, or one transaction of it. */
export function createRepositories(db: Executor) {
  return {
    users: createUsersRepository(db),
    roles: createRolesRepository(db),
    companies: createCompaniesRepository(db),
    tokens: createTokensRepository(db),
    clientsRepository: createClientsRepository(db),
    segmentsRepository: createSegmentsRepository(db),
    messagesRepository: createMessagesRepository(db),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;

/**
 * Runs `work` in one database transaction with repositories bound to it: everything written through
 * them commits together when `work` resolves, or not at all when it throws (the error is passed on).
 * Inside `work`, use only the repositories it is handed — ones built on the database would run outside
 * the transaction (PostgreSQL) or wait for it forever (SQLite has one connection).
 */
export type WithTransaction = <T>(work: (tx: Repositories) => Promise<T>) => Promise<T>;

export function transactionRunner(db: Kysely<DB>): WithTransaction {
  return (work) => db.transaction().execute((trx) => work(createRepositories(trx)));
}
