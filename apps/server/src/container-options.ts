// What a container is built from (the infrastructure the entry points make) and the options tests and
// entry points pass; the wiring itself is container.ts.
import type { Redis } from 'ioredis';
import type { Database } from './db/database';
import type { WebhookInboxOptions } from './modules/messaging/webhook-inbox';
import type { ChatCompletionsClient } from './integrations/ai/chat-completions';
import type { LoginLimits, RegisterLimits } from './modules/auth/auth.service';
import type { BotModelSettingsSource } from './modules/bots/bot-model-settings';
import type { MassSenderOptions } from './modules/mass-messages/mass-sender';
import type { MediaRetryOptions } from './modules/messaging/media-retry';
import type { OutboundRetryOptions } from './modules/messaging/outbound.service';
import type { WordPressLimits } from './modules/wordpress-api/wordpress.service';
import type { AuthCache } from './platform/auth-cache';
import type { Clock } from './platform/clock';
import type { Subscriber } from './platform/events/domain-events';
import type { EventBus } from './platform/events/events';
import type { JobQueue } from './platform/jobs/jobs';
import type { RateLimitStore } from './platform/rate-limit';
import type { FileStorage } from './platform/storage';

export interface Infrastructure {
  database: Database;
  rateLimits: RateLimitStore;
  authCache: AuthCache;
  appKey: Buffer;
  /** Keys APP_KEY replaced: they still open secrets sealed before the change. */
  previousAppKeys?: Buffer[];
  redis?: Redis;
  /** Media library files, served publicly (the local folder `<DATA_DIR>/media` today). */
  storage: FileStorage;
  /**
   * Files only a company's admins may read: the media customers send on WhatsApp (the local folder
   * `<DATA_DIR>/private` today). Never served by /storage; only by GET /api/v1/admin/files/{id}.
   */
  privateFiles: FileStorage;
  /** Background jobs: BullMQ with Redis; unset, a queue in this database run in-process. */
  jobs?: JobQueue;
  /** Live events per company: Redis pub/sub with Redis; unset, in this process only. */
  events?: EventBus;
}

export interface ContainerOptions {
  loginLimits?: LoginLimits;
  registerLimits?: RegisterLimits;
  /** PUBLIC_URL when it is set: the base of the webhook and WordPress addresses shown in the settings. */
  publicUrl?: string;
  /** How long a settings connection test waits for WhatsApp or OpenAI (10 s by default). */
  connectionTimeoutMs?: number;
  wordpressLimits?: WordPressLimits;
  /** Where "Probar bot" reads a company's OpenAI settings (the company's settings by default). */
  botModelSettings?: BotModelSettingsSource;
  /** How often the live events stream sends a heartbeat (15 s by default; tests shorten it). */
  eventsHeartbeatMs?: number;
  /** Open streams per user and how often they are all checked again (platform/events/stream-access.ts). */
  streamAccess?: { maxPerUser?: number; recheckMs?: number };
  /** How presence is written while streams are open (modules/realtime/stream-presence.ts; tests pass a clock). */
  presence?: { clock?: Clock; refreshMs?: number };
  /** The clock business hours are judged on (the away message, the bot's prompt, the hand-off; tests pass a fake one). */
  hoursClock?: Clock;
  /** The chat-completions client (tests pass one with short retries). */
  chatCompletions?: ChatCompletionsClient;
  /**
   * More subscribers of the domain events, after the product's own (tests observe with them:
   * `on('message.received', 'test', ...)`).
   */
  subscribers?: Subscriber[];
  /** The webhook inbox's timings and clock (modules/messaging/webhook-inbox.ts; tests shorten them). */
  webhookInbox?: WebhookInboxOptions;
  /** The outbox dispatcher's timings (tests shorten them). */
  outbox?: { pollMs?: number; leaseMs?: number; backoffMs?: number };
  /** Template sync paging: templates per page and pages at most (tests make pages small). */
  templateSync?: { pageSize?: number; maxPages?: number; timeoutMs?: number };
  /** How long the bot waits after a customer's message before answering (2 s by default). */
  botReplyDelayMs?: number;
  /** How a customer's media is tried again: the waits, the clock the 7 days are judged on (tests). */
  mediaRetry?: MediaRetryOptions;
  /** How often and how patiently a send WhatsApp refused for now is tried again (tests shorten it). */
  outboundRetry?: OutboundRetryOptions;
  /** How long a send to WhatsApp waits for the answer (15 s by default). */
  cloudApiTimeoutMs?: number;
  /** The mass sender's timings (tests shorten them). */
  massSender?: MassSenderOptions;
  /**
   * The WhatsApp webhook: `requireSignature` refuses unsigned deliveries even for a company without an
   * app secret (production); the other values as in inbound.service.ts (tests shorten them).
   */
  webhook?: { requireSignature?: boolean; unknownLogWindowMs?: number; turnMs?: number; now?: () => number };
}
