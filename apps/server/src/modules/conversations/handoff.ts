import { DEFAULT_LANGUAGE, type HandoffReason, type InboxSettings, type Message } from '@hablabot/contract';
import { byCompany, onMany } from '../../platform/events/domain-events';
import type { WithTransaction } from '../../repositories';
import type { BotsService } from '../bots/bots.service';
import type { BusinessHoursService } from '../business-hours/business-hours.service';
import type { ClientsRepository } from '../clients/clients.repository';
import type { MessagesRepository } from '../messaging/messages.repository';
import type { InboxSettingsRepository } from '../team/inbox-settings.repository';
import { isConsentKeyword } from '../clients/consent';
import { onlineSince } from '../team/presence';
import { chooseAgent } from './auto-assign';
import { matchesHandoffPhrase } from './handoff-phrases';

/**
 * The hand-off to a person. A customer the company's live bot answers asks for a person — their text
 * message holds one of the inbox settings' `handoff_phrases` — or the bot itself says so (its answer
 * starts with the prompt's HANDOFF_MARKER). Then, once: the bot is paused for that client (as the chat's
 * bot switch does); the conversation stays with its assignee when it has one, otherwise goes through
 * auto-assign when that is on, otherwise waits in 'Sin asignar'; the customer gets `handoff_message` (with,
 * outside business hours, when the team answers); and the inbox gets a live notice
 * (`conversation.handoff`, for those who may see the conversation). A customer the bot does not answer
 * (bot paused, or no live bot) is already with the team: nothing happens.
 */
export function createHandoff(deps: {
  withTransaction: WithTransaction;
  inboxSettings: Pick<InboxSettingsRepository, 'get'>;
  messagesRepository: Pick<MessagesRepository, 'findMessage' | 'findMessages'>;
  clientsRepository: Pick<ClientsRepository, 'conversationStates'>;
  bots: Pick<BotsService, 'hasLiveBot'>;
  businessHours: Pick<BusinessHoursService, 'status' | 'whenTeamAnswers'>;
  /** Sends a text to the customer as the bot, as an automatic text (the outbound service's send). */
  send: (input: {
    companyId: number;
    clientId: number;
    sender: 'bot';
    content: string;
    automatic: true;
  }) => Promise<unknown>;
  /** The presence clock: who is online for auto-assign. */
  now?: () => number;
  log?: { warn(obj: object, msg: string): void };
}) {
  const { withTransaction, inboxSettings, bots } = deps;
  const now = deps.now ?? Date.now;

  /**
   * Whether the customer's message asks for a person (a text holding one of the company's phrases). A
   * consent word (STOP, ALTA…) never does, even when a phrase is in it: it is consent's alone.
   */
  async function asksForPerson(companyId: number, messageId: number): Promise<boolean> {
    const message = await deps.messagesRepository.findMessage(companyId, messageId);
    return message ? asks(message, await inboxSettings.get(companyId)) : false;
  }

  /** Whether this stored message asks for a person under these settings (see `asksForPerson`). */
  function asks(message: Message, settings: InboxSettings): boolean {
    if (message.sender_type !== 'client' || message.message_type !== 'text') return false;
    if (isConsentKeyword(settings, message.content)) return false;
    return matchesHandoffPhrase(message.content, settings.handoff_phrases);
  }

  /** Hands the client to the team; false when the bot was not answering them (nothing done). */
  async function handOff(companyId: number, clientId: number, reason: HandoffReason): Promise<boolean> {
    if (!(await bots.hasLiveBot(companyId))) return false;
    const settings = await inboxSettings.get(companyId);
    const handed = await withTransaction(async (tx) => {
      // Pausing is the claim: only the call that turns the bot off hands over, once.
      if (!(await tx.clientsRepository.pauseBot(companyId, clientId))) return false;
      tx.events.emit('conversation.updated', { companyId, clientId, changed: ['bot_mode'] });
      const conversation = await tx.inboxRepository.findConversationByClient(companyId, clientId);
      if (conversation && conversation.assignee === null && settings.auto_assign) {
        const at = now();
        const agent = chooseAgent(
          await tx.inboxRepository.onlineAgents(companyId, onlineSince(at)),
          settings.agent_capacity,
        );
        if (agent) {
          await tx.inboxRepository.setAssignee(companyId, conversation.id, agent.userId);
          await tx.inboxRepository.recordTurn(companyId, agent.userId, new Date(at).toISOString());
          tx.events.emit('conversation.changed', {
            companyId,
            clientId,
            changed: ['assignee'],
            previousAssigneeId: null,
            wasUnassigned: true,
          });
        }
      }
      tx.events.emit('conversation.handoff', { companyId, clientId, reason });
      return true;
    });
    if (!handed) return false;
    const status = await deps.businessHours.status(companyId);
    const when = deps.businessHours.whenTeamAnswers(status, DEFAULT_LANGUAGE);
    const content = when ? `${settings.handoff_message} ${when}` : settings.handoff_message;
    try {
      await deps.send({ companyId, clientId, sender: 'bot', content, automatic: true });
    } catch (err) {
      // Refused before anything was stored (the client was deleted meanwhile): the team still knows.
      deps.log?.warn({ companyId, clientId, err }, 'hand-off: message refused');
    }
    return true;
  }

  return {
    asksForPerson,
    handOff,
    /**
     * After customers' messages (a dispatch's, in the order they came): hands over each customer whose
     * message asks for a person while the company's live bot answers them. Per company: nothing is read
     * without a live bot; else one read of the conversations' bot modes, of the messages and of the
     * settings. A second such message of one customer finds the bot already paused: nothing more.
     */
    async afterCustomerMessages(
      messages: { companyId: number; clientId: number; messageId: number }[],
    ): Promise<void> {
      for (const [companyId, list] of byCompany(messages)) {
        if (!(await bots.hasLiveBot(companyId))) continue;
        const states = await deps.clientsRepository.conversationStates(companyId, [
          ...new Set(list.map((m) => m.clientId)),
        ]);
        const answered = list.filter((m) => states.get(m.clientId)?.mode_bot === 1);
        if (!answered.length) continue;
        const found = await deps.messagesRepository.findMessages(
          companyId,
          answered.map((m) => m.messageId),
        );
        const byId = new Map(found.map((m) => [m.id, m]));
        const settings = await inboxSettings.get(companyId);
        for (const { clientId, messageId } of answered) {
          const message = byId.get(messageId);
          if (message && asks(message, settings)) await handOff(companyId, clientId, 'phrase');
        }
      }
    },
  };
}

export type Handoff = ReturnType<typeof createHandoff>;

/** A customer's message asking for a person hands the conversation to the team. */
export const handoffSubscriber = (handoff: Pick<Handoff, 'afterCustomerMessages'>) =>
  onMany('message.received', 'conversations.handoff', (events) => handoff.afterCustomerMessages(events));
