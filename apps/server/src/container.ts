import type { Redis } from 'ioredis';
import type { Database } from './db/database';
import { createAuthService, type LoginLimits } from './modules/auth/auth.service';
import { createClientImportService } from './modules/clients/clients-import.service';
import { createClientsRepository } from './modules/clients/clients.repository';
import { createClientsService } from './modules/clients/clients.service';
import { createSegmentsRepository } from './modules/clients/segments.repository';
import { createSegmentsService } from './modules/clients/segments.service';
import { createIdentityRepository } from './modules/identity/identity.repository';
import { createSuperAdminService } from './modules/super-admin/super-admin.service';
import { createGuards } from './platform/auth';
import type { RateLimitStore } from './platform/rate-limit';
import { createSecretBox } from './platform/secrets';

export interface Infrastructure {
  database: Database;
  rateLimits: RateLimitStore;
  appKey: Buffer;
  redis?: Redis;
}

export interface ContainerOptions {
  loginLimits?: LoginLimits;
}

/** Wires repositories into services by hand: every dependency is visible here. */
export function createContainer(infra: Infrastructure, options: ContainerOptions = {}) {
  const { db } = infra.database;
  const identity = createIdentityRepository(db);
  const guards = createGuards(identity);
  const secrets = createSecretBox(infra.appKey);
  const auth = createAuthService({ identity, rateLimits: infra.rateLimits, limits: options.loginLimits });
  const superAdmin = createSuperAdminService({ identity });
  const clientsRepository = createClientsRepository(db);
  const segmentsRepository = createSegmentsRepository(db);
  const clients = createClientsService({ clientsRepository, segmentsRepository });
  const segments = createSegmentsService({ segmentsRepository });
  const clientImport = createClientImportService({ clientsRepository, segmentsRepository });
  return {
    infra,
    db,
    identity,
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
