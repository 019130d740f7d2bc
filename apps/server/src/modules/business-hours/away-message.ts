import { byCompany, onMany } from '../../platform/events/domain-events';
import type { BotsService } from '../bots/bots.service';
import type { ClientsRepository } from '../clients/clients.repository';
import type { BusinessHoursRepository } from './business-hours.repository';
import type { BusinessHoursService } from './business-hours.service';

/**
 * The away message: outside business hours, a customer's first message of each closed period is
 * answered once with the company's away message (sent as the bot). A customer the company's live bot
 * answers gets the bot's answer instead, and the away message as well only when the company asks for
 * both (`away_with_bot`). Which closed period was answered is remembered per client (`away_replies`),
 * claimed before sending, so a second message of the same period, or this subscriber run twice, sends
 * nothing more. A consent word (STOP, ALTA…) gets no away message and leaves the period unanswered.
 */
export function createAwayMessages(deps: {
  businessHours: Pick<BusinessHoursService, 'status' | 'now'>;
  repository: Pick<BusinessHoursRepository, 'claimAwayReply'>;
  bots: Pick<BotsService, 'hasLiveBot'>;
  clientsRepository: Pick<ClientsRepository, 'conversationState'>;
  /** Sends a text to the customer as the bot (the outbound service's send). */
  send: (input: {
    companyId: number;
    clientId: number;
    sender: 'bot';
    content: string;
    automatic: true;
  }) => Promise<unknown>;
  /** Whether this customer message is a hand-off, which answers for itself. */
  isHandoff?: (companyId: number, clientId: number, messageId: number) => Promise<boolean>;
  /** Whether this customer message is a consent word (STOP, ALTA…), which consent alone answers. */
  isConsentKeyword?: (companyId: number, messageId: number) => Promise<boolean>;
  log?: { warn(obj: object, msg: string): void };
}) {
  const { businessHours, repository, bots, clientsRepository } = deps;

  /** Whether the company's live bot answers this customer (their conversation's bot is on). */
  async function botAnswers(companyId: number, clientId: number): Promise<boolean> {
    if (!(await bots.hasLiveBot(companyId))) return false;
    const conversation = await clientsRepository.conversationState(companyId, clientId);
    return conversation?.mode_bot === 1;
  }

  /** One message of a closed period: the away message, unless something else answers it or did already. */
  async function answerAway(
    companyId: number,
    clientId: number,
    messageId: number,
    status: { period: string; away_with_bot: boolean; away_message: string },
  ): Promise<void> {
    if (!status.away_with_bot && (await botAnswers(companyId, clientId))) return;
    if (await deps.isHandoff?.(companyId, clientId, messageId)) return;
    if (await deps.isConsentKeyword?.(companyId, messageId)) return;
    const at = new Date(businessHours.now()).toISOString();
    if (!(await repository.claimAwayReply(companyId, clientId, status.period, at))) return;
    try {
      await deps.send({
        companyId,
        clientId,
        sender: 'bot',
        content: status.away_message,
        automatic: true,
      });
    } catch (err) {
      // Refused before anything was stored (the client was deleted meanwhile): nothing to tell.
      deps.log?.warn({ companyId, clientId, err }, 'away message: send refused');
    }
  }

  return {
    /**
     * After customers' messages (a dispatch's, in the order they came): each may get the away message
     * (above). The company's hours are read once per company; while it is open, nothing more is read.
     */
    async afterCustomerMessages(
      messages: { companyId: number; clientId: number; messageId: number }[],
    ): Promise<void> {
      for (const [companyId, list] of byCompany(messages)) {
        const status = await businessHours.status(companyId);
        if (status.open || !status.away_enabled || !status.period) continue;
        const period = { ...status, period: status.period };
        for (const { clientId, messageId } of list) await answerAway(companyId, clientId, messageId, period);
      }
    },
  };
}

export type AwayMessages = ReturnType<typeof createAwayMessages>;

/** A customer's message outside business hours may get the away message. */
export const awayMessageSubscriber = (away: Pick<AwayMessages, 'afterCustomerMessages'>) =>
  onMany('message.received', 'business-hours.away-message', (events) => away.afterCustomerMessages(events));
