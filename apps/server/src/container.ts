import type { Redis } from 'ioredis';
import type { Database } from './db/database';
import { createAuthService, type LoginLimits, type RegisterLimits } from './modules/auth/auth.service';
import { createClientImportService } from './modules/clients/clients-import.service';
import { createClientsRepository } from './modules/clients/clients.repository';
import { createClientsService } from './modules/clients/clients.service';
import { createSegmentsRepository } from './modules/clients/segments.repository';
import { createSegmentsService } from './modules/clients/segments.service';
import { createCompaniesRepository } from './modules/identity/companies.repository';
import { createRolesRepository } from './modules/identity/roles.repository';
import { createTokensRepository } from './modules/identity/tokens.repository';
import { createUsersRepository } from './modules/identity/users.repository';
import { createSuperAdminService } from './modules/super-admin/super-admin.service';
import { createGuards } from './platform/auth';
import type { AuthCache } from './platform/auth-cache';
import type { RateLimitStore } from './platform/rate-limit';
import { createSecretBox } from './platform/secrets';

export interface Infrastructure {
  database: Database;
  rateLimits: RateLimitStore;
  authCache: AuthCache;
  appKey: Buffer;
  redis?: Redis;
}

export interface ContainerOptions {
  loginLimits?: LoginLimits;
  registerLimits?: RegisterLimits;
}

/** Wires repositories into services by hand: every dependency is visible here. */
export function createContainer(infra: Infrastructure, options: ContainerOptions = {}) {
  const { db } = infra.database;
  const users = createUsersRepository(db);
  const roles = createRolesRepository(db);
  const companies = createCompaniesRepository(db);
  const tokens = createTokensRepository(db);
  /** All four identity repositories as one object (start-up, test factories). */
  const identity = { ...users, ...roles, ...companies, ...tokens };
  const guards = createGuards(identity, infra.authCache);
  const secrets = createSecretBox(infra.appKey);
  const auth = createAuthService({
    users,
    roles,
    tokens,
    rateLimits: infra.rateLimits,
    authCache: infra.authCache,
    limits: options.loginLimits,
    registerLimits: options.registerLimits,
  });
  const superAdmin = createSuperAdminService({ users, roles, companies, authCache: infra.authCache });
  const clientsRepository = createClientsRepository(db);
  const segmentsRepository = createSegmentsRepository(db);
  const clients = createClientsService({ clientsRepository, segmentsRepository });
  const segments = createSegmentsService({ segmentsRepository });
  const clientImport = createClientImportService({ clientsRepository, segmentsRepository });
  return {
    infra,
    db,
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
