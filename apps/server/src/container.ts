import type { Redis } from 'ioredis';
import type { Database } from './db/database';
import { type ChatCompletionsClient, createChatCompletionsClient } from './integrations/ai/chat-completions';
import { createAuthService, type LoginLimits, type RegisterLimits } from './modules/auth/auth.service';
import { type BotModelSettingsSource, noBotModelSettings } from './modules/bots/bot-model-settings';
import { createBotsRepository } from './modules/bots/bots.repository';
import { createBotsService } from './modules/bots/bots.service';
import { createClientImportService } from './modules/clients/clients-import.service';
import { createClientsRepository } from './modules/clients/clients.repository';
import { createClientsService } from './modules/clients/clients.service';
import { createSegmentsRepository } from './modules/clients/segments.repository';
import { createSegmentsService } from './modules/clients/segments.service';
import { createCompaniesRepository } from './modules/identity/companies.repository';
import { createRolesRepository } from './modules/identity/roles.repository';
import { createTokensRepository } from './modules/identity/tokens.repository';
import { createUsersRepository } from './modules/identity/users.repository';
import { createWordPressAuth, type WordPressLimits } from './modules/integrations/wordpress.service';
import { createSettingsRepository } from './modules/settings/settings.repository';
import { createSettingsService } from './modules/settings/settings.service';
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
  registerLimits?: RegisterLimits;
  /** PUBLIC_URL when it is set: the base of the webhook and WordPress addresses shown in the settings. */
  publicUrl?: string;
  /** How long a settings connection test waits for WhatsApp or OpenAI (10 s by default). */
  connectionTimeoutMs?: number;
  wordpressLimits?: WordPressLimits;
  /** Where "Probar bot" reads a company's OpenAI settings (none by default). */
  botModelSettings?: BotModelSettingsSource;
  /** The chat-completions client (tests pass one with short retries). */
  chatCompletions?: ChatCompletionsClient;
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
  const clientsRepository = createClientsRepository(db);
  const segmentsRepository = createSegmentsRepository(db);
  const clients = createClientsService({ clientsRepository, segmentsRepository });
  const segments = createSegmentsService({ segmentsRepository });
  const clientImport = createClientImportService({ clientsRepository, segmentsRepository });
  const settingsRepository = createSettingsRepository(db);
  const settings = createSettingsService({
    settingsRepository,
    secrets,
    publicUrl: options.publicUrl,
    connectionTimeoutMs: options.connectionTimeoutMs,
  });
  const wordpressAuth = createWordPressAuth({
    settingsRepository,
    secrets,
    rateLimits: infra.rateLimits,
    limits: options.wordpressLimits,
  });
  const botsRepository = createBotsRepository(db);
  const bots = createBotsService({
    botsRepository,
    segmentsRepository,
    clientsRepository,
    modelSettings: options.botModelSettings ?? noBotModelSettings,
    // An admin waits on the screen for "Probar bot": one quick retry, never a minute-long wait.
    chatCompletions:
      options.chatCompletions ?? createChatCompletionsClient({ maxRetries: 1, maxRetryDelayMs: 2000 }),
  });
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
    settingsRepository,
    settings,
    wordpressAuth,
    botsRepository,
    bots,
  };
}

export type Container = ReturnType<typeof createContainer>;
