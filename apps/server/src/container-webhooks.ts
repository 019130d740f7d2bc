import type { ContainerOptions } from './container-options';
import type { Database } from './db/database';
import { createConversationArrival } from './modules/conversations/auto-assign';
import { createInboundService } from './modules/messaging/inbound.service';
import { createMediaDownloads } from './modules/messaging/media-download';
import type { MessagesRepository } from './modules/messaging/messages.repository';
import { createWebhookDeliveries } from './modules/messaging/webhook-deliveries';
import { createWebhookInbox } from './modules/messaging/webhook-inbox';
import type { SettingsService } from './modules/settings/settings.service';
import type { TokenHealth } from './modules/settings/token-health';
import { createTemplateStatusReceiver } from './modules/templates/template-status';
import type { JobLogger, JobQueue } from './platform/jobs/jobs';
import type { Metrics } from './platform/metrics';
import type { Outbox } from './platform/outbox/outbox';
import type { FileStorage } from './platform/storage';
import type { WithTransaction } from './repositories';

/**
 * What WhatsApp's webhook reaches: deliveries are kept first in the webhook inbox and processed from the
 * table (modules/messaging/webhook-inbox.ts) into customers' messages (inbound.service.ts) and template
 * status changes (template-status.ts); a customer's media is then downloaded in the background
 * (media-download.ts). Each is a module of its own; this only builds them with what they share.
 */
export function createWebhookPath(deps: {
  database: Database;
  settings: SettingsService;
  withTransaction: WithTransaction;
  messagesRepository: MessagesRepository;
  jobs: JobQueue;
  outbox: Outbox;
  metrics: Metrics;
  tokens: TokenHealth;
  /** Where customers' media is kept (private files: only the company's admins read them). */
  privateFiles: FileStorage;
  log: JobLogger;
  options: Pick<ContainerOptions, 'webhook' | 'webhookInbox' | 'mediaRetry' | 'presence'>;
}) {
  const { database, settings, withTransaction, outbox, metrics, options } = deps;
  const inbound = createInboundService({
    settings,
    ...options.webhook,
    withTransaction,
    // Reopening and auto-assign; online is judged on the presence clock (tests pass a fake one).
    onCustomerMessage: createConversationArrival({ now: options.presence?.clock?.now }),
  });
  const templateStatus = createTemplateStatusReceiver({
    settings,
    outbox,
    requireSignature: options.webhook?.requireSignature,
  });
  const webhookInbox = createWebhookInbox({
    db: database.db,
    engine: database.engine,
    inbound,
    templateStatus,
    metrics,
    options: options.webhookInbox,
  });
  const webhookDeliveries = createWebhookDeliveries({ db: database.db, inbox: webhookInbox });
  const mediaDownloads = createMediaDownloads({
    jobs: deps.jobs,
    settings,
    messagesRepository: deps.messagesRepository,
    withTransaction,
    storage: deps.privateFiles,
    retry: options.mediaRetry,
    log: deps.log,
    tokens: deps.tokens,
  });
  return { inbound, templateStatus, webhookInbox, webhookDeliveries, mediaDownloads };
}
