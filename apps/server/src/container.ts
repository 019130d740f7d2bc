import type { Redis } from 'ioredis';
import type { Database } from './db/database';
import { registerServerTexts } from './i18n';
import { createAuthService, type LoginLimits, type RegisterLimits } from './modules/auth/auth.service';
import { createClientImportService } from './modules/clients/clients-import.service';
import { createClientsService } from './modules/clients/clients.service';
import { createSegmentsService } from './modules/clients/segments.service';
import { createSuperAdminService } from './modules/super-admin/super-admin.service';
import { createGuards } from './platform/auth';
import type { RateLimitStore } from './platform/rate-limit';
import { createSecretBox } from './platform/secrets';
import { createRepositories, transactionRunner } from './repositories';

export interface Infrastructure {
  database: Database;
  rateLimits: RateLimitStore;
  appKey: Buffer;
  redis?: Redis;
}

export interface ContainerOptions {
  loginLimits?: LoginLimits;
  registerLimits?: RegisterLimits;
}

/**
 * Wires repositories into services by hand: every dependency is visible here. Loads the server's texts
 * first (`registerServerTexts`). `withTransaction` runs a
 * piece of work in one transaction with repositories bound to it; services that write through two
 * repositories take it (see "Transactions" in docs/architecture.md).
 */
export function createContainer(infra: Infrastructure, options: ContainerOptions = {}) {
  // Every process that works — the HTTP app, a worker — builds a container, so its texts load here.
  registerServerTexts();
  const { db } = infra.database;
  const { users, roles, companies, tokens, clientsRepository, segmentsRepository } = createRepositories(db);
  const withTransaction = transactionRunner(db);
  /** All four identity repositories as one object (start-up, test factories). */
  const identity = { ...users, ...roles, ...companies, ...tokens };
  const guards = createGuards(identity);
  const secrets = createSecretBox(infra.appKey);
  const auth = createAuthService({
    users,
    roles,
    tokens,
    rateLimits: infra.rateLimits,
    limits: options.loginLimits,
    registerLimits: options.registerLimits,
  });
  const superAdmin = createSuperAdminService({ users, roles, companies });
  const clients = createClientsService({ clientsRepository, segmentsRepository, withTransaction });
  const segments = createSegmentsService({ segmentsRepository, withTransaction });
  const clientImport = createClientImportService({
    clientsRepository,
    segmentsRepository,
    withTransaction,
    claims: infra.rateLimits,
  });
  return {
    infra,
    db,
    withTransaction,
    identity,
    users,
    roles,
    companies,
    tokens,
    guards,
    secrets,
    auth,
    superAdmin,
    clientsRepository,
    segmentsRepository,
    clients,
    segments,
    clientImport,
  };
}

export type Container = ReturnType<typeof createContainer>;
