import type { ContainerOptions } from './container-options';
import type { Executor } from './db/transactions';
import { accountFromSettings, createCloudApiClient } from './integrations/whatsapp/cloud-api';
import { createNumberLimits } from './modules/settings/number-limits';
import { createSettingsRepository } from './modules/settings/settings.repository';
import { createSettingsService } from './modules/settings/settings.service';
import { createTokenHealth } from './modules/settings/token-health';
import { createWordPressAuth } from './modules/wordpress-api/wordpress.service';
import type { JobQueue } from './platform/jobs/jobs';
import type { Outbox } from './platform/outbox/outbox';
import type { RateLimitStore } from './platform/rate-limit';
import type { SecretBox } from './platform/secrets';

/**
 * A company's settings and what they connect to: the stored settings (WhatsApp, OpenAI, WordPress), the
 * health of its WhatsApp token, its number's limits, the WordPress key check and the Cloud API client that
 * sends with the company's account. Each is a module of its own; this only builds them in the order they
 * refer to each other.
 */
export function createSettingsWiring(deps: {
  db: Executor;
  secrets: SecretBox;
  outbox: Outbox;
  jobs: JobQueue;
  rateLimits: RateLimitStore;
  options: Pick<
    ContainerOptions,
    'publicUrl' | 'connectionTimeoutMs' | 'wordpressLimits' | 'cloudApiTimeoutMs'
  >;
}) {
  const { db, secrets, options } = deps;
  const settingsRepository = createSettingsRepository(db);
  // Whether WhatsApp accepts each company's token: a 190 on any call marks it, an accepted call clears it.
  const tokenHealth = createTokenHealth({ db, outbox: deps.outbox });
  // Meta's throughput, limit tier and quality of the company's number: read at the connection test and daily.
  const numberLimits = createNumberLimits({
    db,
    credentials: (companyId) => settings.credentials(companyId),
    jobs: deps.jobs,
    timeoutMs: options.connectionTimeoutMs,
  });
  const settings = createSettingsService({
    settingsRepository,
    secrets,
    publicUrl: options.publicUrl,
    connectionTimeoutMs: options.connectionTimeoutMs,
    outbox: deps.outbox,
    onPhoneRead: numberLimits.save,
    tokens: tokenHealth,
  });
  const wordpressAuth = createWordPressAuth({
    settingsRepository,
    secrets,
    rateLimits: deps.rateLimits,
    limits: options.wordpressLimits,
  });
  const cloudApi = createCloudApiClient({
    account: accountFromSettings(settings),
    timeoutMs: options.cloudApiTimeoutMs,
    tokens: tokenHealth,
  });
  return { settingsRepository, tokenHealth, numberLimits, settings, wordpressAuth, cloudApi };
}
