import type { BotModelSettingsSource } from './modules/bots/bot-model-settings';
import type { BotsService } from './modules/bots/bots.service';
import type { BusinessHoursRepository } from './modules/business-hours/business-hours.repository';
import type { BusinessHoursService } from './modules/business-hours/business-hours.service';
import { createAwayMessages } from './modules/business-hours/away-message';
import type { ClientsRepository } from './modules/clients/clients.repository';
import { createConsent } from './modules/clients/consent';
import { createHandoff } from './modules/conversations/handoff';
import { createBotReplies } from './modules/messaging/bot-reply';
import type { MessagesRepository } from './modules/messaging/messages.repository';
import type { OutboundService } from './modules/messaging/outbound.service';
import type { InboxSettingsRepository } from './modules/team/inbox-settings.repository';
import type { ChatCompletionsClient } from './integrations/ai/chat-completions';
import type { Clock } from './platform/clock';
import type { JobLogger, JobQueue } from './platform/jobs/jobs';
import type { WithTransaction } from './repositories';
import type { Executor } from './db/transactions';
import type { Outbox } from './platform/outbox/outbox';

/**
 * What answers a customer without a person: the bot's reply, the away message outside business hours,
 * the consent words (opt-out / opt-in) and the hand-off to a person. Each is a module of its own with its
 * subscriber; this only builds them with what they share, in the order they refer to each other.
 */
export function createAutomations(deps: {
  db: Executor;
  /** Where consent writes its `client.consent_changed` events. */
  outbox?: Pick<Outbox, 'transaction'>;
  withTransaction: WithTransaction;
  jobs: JobQueue;
  inboxSettings: InboxSettingsRepository;
  messagesRepository: MessagesRepository;
  clientsRepository: ClientsRepository;
  bots: BotsService;
  businessHours: BusinessHoursService;
  businessHoursRepository: BusinessHoursRepository;
  outbound: OutboundService;
  modelSettings: BotModelSettingsSource;
  /** The model the bot answers customers with (the client's full retries by default). */
  chatCompletions: ChatCompletionsClient;
  botReplyDelayMs?: number;
  /** The clock hand-offs are dated with (the presence clock; tests pass a fake one). */
  clock?: Clock;
  log: JobLogger;
}) {
  const { withTransaction, inboxSettings, messagesRepository, clientsRepository, bots, log } = deps;
  const send: OutboundService['send'] = (input) => deps.outbound.send(input);
  const consent = createConsent({ db: deps.db, outbox: deps.outbox, inboxSettings, send, log });
  // A customer who asks for a person, or whom the bot hands over, goes to the team.
  const handoff = createHandoff({
    withTransaction,
    inboxSettings,
    messagesRepository,
    clientsRepository,
    bots,
    businessHours: deps.businessHours,
    send,
    now: deps.clock?.now,
    log,
  });
  const botReplies = createBotReplies({
    onHandoff: (companyId, clientId) => handoff.handOff(companyId, clientId, 'bot'),
    jobs: deps.jobs,
    clientsRepository,
    messagesRepository,
    bots,
    modelSettings: deps.modelSettings,
    chatCompletions: deps.chatCompletions,
    withTransaction,
    delayMs: deps.botReplyDelayMs,
    log,
    send,
    inboxSettings,
  });
  const awayMessages = createAwayMessages({
    businessHours: deps.businessHours,
    isHandoff: (companyId, _clientId, messageId) => handoff.asksForPerson(companyId, messageId),
    isConsentKeyword: (companyId, messageId) => consent.isKeywordMessage(companyId, messageId),
    repository: deps.businessHoursRepository,
    bots,
    clientsRepository,
    send,
    log,
  });
  return { consent, handoff, botReplies, awayMessages };
}
