import { createChatCompletionsClient } from './integrations/ai/chat-completions';
import { registerServerTexts } from './i18n';
import { createAuthService } from './modules/auth/auth.service';
import { botModelSettingsFrom } from './modules/bots/bot-model-settings';
import { createBotsRepository } from './modules/bots/bots.repository';
import { createBotsService } from './modules/bots/bots.service';
import { createBusinessHoursRepository } from './modules/business-hours/business-hours.repository';
import { createBusinessHoursService } from './modules/business-hours/business-hours.service';
import { handoffSubscribers } from './modules/realtime/handoff-events';
import { awayMessageSubscriber } from './modules/business-hours/away-message';
import { handoffSubscriber } from './modules/conversations/handoff';
import { botReplySubscriber } from './modules/messaging/bot-reply';
import { createAutomations } from './container-automations';
import { createWebhookPath } from './container-webhooks';
import { createSettingsWiring } from './container-settings';
import { HANDOFF_MARKER } from './modules/bots/prompt';
import { createClientImportService } from './modules/clients/clients-import.service';
import { consentSubscribers } from './modules/clients/consent.subscriber';
import { createClientsService } from './modules/clients/clients.service';
import { createSegmentsService } from './modules/clients/segments.service';
import { createMediaRepository } from './modules/media/media.repository';
import { createMediaService } from './modules/media/media.service';
import { createMessagesService } from './modules/messaging/messages.service';
import { createLibraryMedia } from './modules/messaging/library-media';
import { mediaDownloadSubscriber } from './modules/messaging/media-download';
import { readReceiptSubscriber } from './modules/messaging/read-receipts';
import { createOutboundService } from './modules/messaging/outbound.service';
import { realtimeSubscribers } from './modules/realtime/realtime.subscribers';
import { createStreamPresence } from './modules/realtime/stream-presence';
import { createAudiences } from './modules/realtime/audience';
import { createClientLists } from './modules/mass-messages/client-lists';
import { createMassMessagesRepository } from './modules/mass-messages/mass-messages.repository';
import { createMassMessagesService } from './modules/mass-messages/mass-messages.service';
import { keepInConversation } from './modules/mass-messages/in-conversation';
import { massMessageStatusSubscriber } from './modules/mass-messages/status.subscriber';
import { createMassSender } from './modules/mass-messages/mass-sender';
import { createAdminHomeRepository } from './modules/admin-home/admin-home.repository';
import { createAdminHomeService } from './modules/admin-home/admin-home.service';
import { createPlatformStatsRepository } from './modules/super-admin/platform-stats.repository';
import { createPlatformStatsService } from './modules/super-admin/platform-stats.service';
import { createSuperAdminService } from './modules/super-admin/super-admin.service';
import { createTemplatesRepository } from './modules/templates/templates.repository';
import { createTemplatesService } from './modules/templates/templates.service';
import { createTemplateAuthoring } from './modules/templates/template-authoring';
import { createTemplateSendComponents } from './modules/templates/template-send-components';
import { templateSubscribers } from './modules/realtime/template-events';
import { channelSubscribers } from './modules/realtime/channel-events';
import { createInboxSettingsRepository } from './modules/team/inbox-settings.repository';
import { createQuickRepliesRepository } from './modules/team/quick-replies.repository';
import { createQuickRepliesService } from './modules/team/quick-replies.service';
import { createTeamRepository } from './modules/team/team.repository';
import { createTeamService } from './modules/team/team.service';
import { createConversationAccess } from './modules/conversations/conversation-access';
import { createInboxRepository } from './modules/conversations/conversations.repository';
import { createConversationsService } from './modules/conversations/conversations.service';
import { createGuards } from './platform/auth';
import { createMemoryEventBus } from './platform/events/events';
import { createOutbox } from './platform/outbox/outbox';
import { metricsSubscribers } from './platform/metrics-subscribers';
import { jobDefinitions } from './jobs';
import { templatesSyncSubscriber } from './modules/templates/templates.jobs';
import { createDatabaseJobQueue } from './platform/jobs/database-jobs';
import { withDefinitions } from './platform/jobs/definitions';
import { type JobLogger, silentLogger } from './platform/jobs/jobs';
import { createMetrics } from './platform/metrics';
import { currentRequestId } from './platform/request-context';
import { createSecretBox } from './platform/secrets';
import type { ContainerOptions, Infrastructure } from './container-options';
import { createRepositories, transactionRunner } from './repositories';

export type { ContainerOptions, Infrastructure } from './container-options';

/**
 * Wires repositories into services by hand: every dependency is visible here. Loads the server's texts
 * first (`registerServerTexts`). `withTransaction` runs a
 * piece of work in one transaction with repositories bound to it; services that write through two
 * repositories take it (see "Database on two engines and transactions" in docs/architecture.md).
 */
export function createContainer(infra: Infrastructure, options: ContainerOptions = {}) {
  // Every process that works — the HTTP app, a worker — builds a container, so its texts load here.
  registerServerTexts();
  const { db } = infra.database;
  const { users, roles, companies, tokens, clientsRepository, segmentsRepository, messagesRepository } =
    createRepositories(db);
  // Domain events: written in the transaction of their change, handed to the subscribers after it.
  const outbox = createOutbox({ db, engine: infra.database.engine, ...options.outbox });
  const withTransaction = transactionRunner(db, outbox);
  // Modules register their job handlers on it here, so the HTTP server and `npm run worker` know the same
  // jobs; the entry points decide whether to start it.
  // Only defined jobs are queued and run, their payloads checked (src/jobs.ts has them all).
  const jobs = withDefinitions(infra.jobs ?? createDatabaseJobQueue({ db, engine: infra.database.engine }));
  const events = infra.events ?? createMemoryEventBus();
  const metrics = createMetrics({
    jobCounts: () => jobs.counts(),
    // The webhook inbox is wired further down; the gauge asks it when Prometheus reads.
    webhookLagSeconds: () => webhookInbox.lagSeconds(),
  });
  /** Where background work logs: silent until `startBackgroundWork` names the process's logger. */
  let workLogger: JobLogger = silentLogger;
  // Each line names the request the work belongs to (the one that queued the job), when there is one.
  const withRequest = (obj: object) => {
    const requestId = currentRequestId();
    return requestId ? { requestId, ...obj } : obj;
  };
  const workLog: JobLogger = {
    warn: (obj, msg) => workLogger.warn(withRequest(obj), msg),
    error: (obj, msg) => workLogger.error(withRequest(obj), msg),
  };
  /** All four identity repositories as one object (start-up, test factories). */
  const identity = { ...users, ...roles, ...companies, ...tokens };
  const guards = createGuards(identity, infra.authCache);
  const secrets = createSecretBox(infra.appKey, infra.previousAppKeys);
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
  const platformStats = createPlatformStatsService({ stats: createPlatformStatsRepository(db), companies });
  const adminHome = createAdminHomeService({ repository: createAdminHomeRepository(db) });
  // The team inbox: its settings and who may see which conversation (used by every chat route).
  const inboxSettings = createInboxSettingsRepository(db);
  const conversationAccess = createConversationAccess({ db, inboxSettings });
  const inboxRepository = createInboxRepository(db);
  const conversations = createConversationsService({ inboxRepository, conversationAccess, withTransaction });
  const streamPresence = createStreamPresence({ db, ...options.presence, log: workLog });
  // Online is judged on the presence clock, as auto-assign does (tests pass a fake one).
  const team = createTeamService({
    teamRepository: createTeamRepository(db),
    users,
    authCache: infra.authCache,
    clock: options.presence?.clock,
  });
  const clients = createClientsService({ clientsRepository, segmentsRepository, withTransaction });
  const segments = createSegmentsService({ segmentsRepository, withTransaction });
  const clientImport = createClientImportService({
    clientsRepository,
    segmentsRepository,
    withTransaction,
    claims: infra.rateLimits,
  });
  // Settings, token health, number limits, WordPress keys, the Cloud API client (container-settings.ts).
  const { settingsRepository, tokenHealth, numberLimits, settings, wordpressAuth, cloudApi } =
    createSettingsWiring({ db, secrets, outbox, jobs, rateLimits: infra.rateLimits, options });
  const botsRepository = createBotsRepository(db);
  // Business hours: the away message, and what the bot's prompt says about being open.
  const businessHoursRepository = createBusinessHoursRepository(db);
  const businessHours = createBusinessHoursService({
    repository: businessHoursRepository,
    clock: options.hoursClock,
  });
  const bots = createBotsService({
    promptContext: async (companyId) => ({
      hours: await businessHours.promptHours(companyId),
      handoffMarker: HANDOFF_MARKER,
    }),
    botsRepository,
    segmentsRepository,
    clientsRepository,
    modelSettings: options.botModelSettings ?? botModelSettingsFrom(settings),
    // An admin waits on the screen for "Probar bot": one quick retry, never a minute-long wait.
    chatCompletions:
      options.chatCompletions ?? createChatCompletionsClient({ maxRetries: 1, maxRetryDelayMs: 2000 }),
  });
  const mediaRepository = createMediaRepository(db);
  const media = createMediaService({ mediaRepository, storage: infra.storage });
  // Library files sent in the chat (POST /admin/message with media_id).
  const libraryMedia = createLibraryMedia({
    mediaRepository,
    storage: infra.storage,
    privateFiles: infra.privateFiles,
  });
  const quickReplies = createQuickRepliesService({
    quickRepliesRepository: createQuickRepliesRepository(db),
    mediaRepository,
    storage: infra.storage,
  });
  const outbound = createOutboundService({
    clientsRepository,
    messagesRepository,
    cloudApi,
    jobs,
    withTransaction,
    retry: options.outboundRetry,
    metrics,
  });
  // The bot's reply, the away message, consent words and the hand-off (container-automations.ts).
  const { consent, handoff, botReplies, awayMessages } = createAutomations({
    db,
    outbox,
    withTransaction,
    jobs,
    inboxSettings,
    messagesRepository,
    clientsRepository,
    bots,
    businessHours,
    businessHoursRepository,
    outbound,
    modelSettings: options.botModelSettings ?? botModelSettingsFrom(settings),
    // The customer is not watching a spinner: the client's full retries (twice, honouring retry-after).
    chatCompletions: options.chatCompletions ?? createChatCompletionsClient(),
    botReplyDelayMs: options.botReplyDelayMs,
    clock: options.presence?.clock,
    log: workLog,
  });
  const clientLists = createClientLists({ db });
  const massMessagesRepository = createMassMessagesRepository(db);
  const massSender = createMassSender({
    db,
    repository: massMessagesRepository,
    cloudApi,
    jobs,
    outbox,
    metrics,
    onSent: keepInConversation({ outbox, massMessagesRepository }),
    options: options.massSender,
  });
  const massMessages = createMassMessagesService({
    db,
    repository: massMessagesRepository,
    clientLists,
    mediaRepository,
    storage: infra.storage,
    sender: massSender,
    settings,
  });
  const messages = createMessagesService({
    withTransaction,
    clientsRepository,
    messagesRepository,
  });
  const templatesRepository = createTemplatesRepository(db);
  const templates = createTemplatesService({
    templatesRepository,
    clientsRepository,
    settings,
    outbound,
    ...options.templateSync,
    tokens: tokenHealth,
    sendComponents: createTemplateSendComponents({ mediaRepository, storage: infra.storage }),
  });
  const templateAuthoring = createTemplateAuthoring({
    templatesRepository,
    settings,
    outbox,
    mediaRepository,
    storage: infra.storage,
    timeoutMs: options.templateSync?.timeoutMs,
  });
  // WhatsApp's webhook: the inbox, customers' messages, template status, media downloads (container-webhooks.ts).
  const { inbound, templateStatus, webhookInbox, webhookDeliveries, mediaDownloads } = createWebhookPath({
    database: infra.database,
    settings,
    withTransaction,
    messagesRepository,
    jobs,
    outbox,
    metrics,
    tokens: tokenHealth,
    privateFiles: infra.privateFiles,
    log: workLog,
    options,
  });
  const audiences = createAudiences({ db, inboxSettings });
  jobs.define(jobDefinitions({ botReplies, mediaDownloads, outbound, massSender, templates, numberLimits }));
  // What reacts to the domain events; each module's subscribers say what they react to.
  outbox.subscribe(
    ...realtimeSubscribers({
      events,
      messagesRepository,
      clientsRepository,
      massMessagesRepository,
      audiences,
      conversations: inboxRepository,
    }),
    botReplySubscriber(botReplies),
    ...consentSubscribers(consent),
    awayMessageSubscriber(awayMessages),
    handoffSubscriber(handoff),
    ...handoffSubscribers({ events, audiences }),
    mediaDownloadSubscriber(mediaDownloads),
    readReceiptSubscriber(outbound),
    massMessageStatusSubscriber({ repository: massMessagesRepository, sender: massSender, withTransaction }),
    templatesSyncSubscriber(jobs),
    ...templateSubscribers({ events, templatesRepository }),
    ...channelSubscribers({ events, tokenHealth }),
    ...metricsSubscribers(metrics),
    ...(options.subscribers ?? []),
  );
  return {
    /**
     * Runs the background work in this process — the jobs and the sweeper of sends a dead process left
     * pending — logging to `logger` (the HTTP server unless RUN_JOBS=false, or `npm run worker`).
     */
    async startBackgroundWork(logger: JobLogger) {
      workLogger = logger;
      outbox.start({ logger });
      webhookInbox.start({ logger });
      await jobs.start({ logger });
      outbound.startSweeper(logger);
      // Mass messages a stopped process left running, and scheduled ones whose time came meanwhile.
      massSender.setLogger(logger);
      await massSender.resumeAll();
      massSender.startWatchdog();
      await numberLimits.startDaily();
    },
    infra,
    db,
    withTransaction,
    outbox,
    jobs,
    events,
    eventsHeartbeatMs: options.eventsHeartbeatMs,
    streamAccess: options.streamAccess,
    streamPresence,
    metrics,
    identity,
    users,
    roles,
    companies,
    tokens,
    guards,
    secrets,
    auth,
    superAdmin,
    platformStats,
    adminHome,
    clientsRepository,
    segmentsRepository,
    messagesRepository,
    inboxSettings,
    conversationAccess,
    inboxRepository,
    conversations,
    team,
    quickReplies,
    clients,
    segments,
    clientImport,
    settingsRepository,
    settings,
    wordpressAuth,
    botsRepository,
    bots,
    businessHours,
    mediaRepository,
    handoff,
    media,
    libraryMedia,
    inbound,
    messages,
    templatesRepository,
    templates,
    templateAuthoring,
    templateStatus,
    webhookInbox,
    webhookDeliveries,
    mediaDownloads,
    botReplies,
    cloudApi,
    outbound,
    clientLists,
    massMessagesRepository,
    massSender,
    massMessages,
    numberLimits,
    publicUrl: options.publicUrl,
  };
}

export type Container = ReturnType<typeof createContainer>;
