import type { Kysely } from 'kysely';
import type { DB } from './db/schema';
import type { Executor } from './db/transactions';
import { createClientsRepository } from './modules/clients/clients.repository';
import { createSegmentsRepository } from './modules/clients/segments.repository';
import { createCompaniesRepository } from './modules/identity/companies.repository';
import { createRolesRepository } from './modules/identity/roles.repository';
import { createTokensRepository } from './modules/identity/tokens.repository';
import { createUsersRepository } from './modules/identity/users.repository';
import { createInboxRepository } from './modules/conversations/conversations.repository';
import { createMessagesRepository } from './modules/messaging/messages.repository';
import { createInboxSettingsRepository } from './modules/team/inbox-settings.repository';
import type { EventSink } from './platform/events/domain-events';
import type { Outbox } from './platform/outbox/outbox';

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
    inboxRepository: createInboxRepository(db),
    inboxSettings: createInboxSettingsRepository(db),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;

/** Repositories bound to one transaction, and the sink of the domain events the work causes. */
export type TransactionScope = Repositories & { events: EventSink };

/**
 * Runs `work` in one database transaction with repositories bound to it: everything written through
 * them commits together when `work` resolves, or not at all when it throws (the error is passed on).
 * The domain events it emits (`tx.events.emit`) go to the outbox in the same transaction, just before
 * the commit, so they are handled exactly when the change was kept.
 * Inside `work`, use only the repositories it is handed — ones built on the database would run outside
 * the transaction (PostgreSQL) or wait for it forever (SQLite has one connection).
 */
export type WithTransaction = <T>(work: (tx: TransactionScope) => Promise<T>) => Promise<T>;

export function transactionRunner(db: Kysely<DB>, outbox?: Outbox): WithTransaction {
  if (!outbox)
    return (work) =>
      db.transaction().execute((trx) =>
        work({
          ...createRepositories(trx),
          events: {
            emit() {
              throw new Error('domain events need an outbox: transactionRunner(db, outbox)');
            },
          },
        }),
      );
  return (work) => outbox.transaction((trx, events) => work({ ...createRepositories(trx), events }));
}
