import type { Conversation, MassMessageStatus, ServerEvent } from '@hablabot/contract';
import { type Subscriber, byCompany, on, onMany } from '../../platform/events/domain-events';
import type { Audience, EventBus } from '../../platform/events/events';
import type { ClientsRepository } from '../clients/clients.repository';
import { toMassMessage, type MassMessagesRepository } from '../mass-messages/mass-messages.repository';
import type { MessagesRepository } from '../messaging/messages.repository';
import { type Audiences, withAlso } from './audience';

/**
 * The real-time module: the only place domain events become the live events of a company's stream
 * (GET /api/v1/admin/events, see packages/contract events.schema.ts). Each reads what it shows as it is
 * now, so a screen never gets an older state than the database holds. A message event carries the same
 * `Message` as the history API.
 *
 *   message.received, message.sent → message.created     message.updated → message.updated
 *   message.status_changed → message.status               bot.failed → bot.failed
 *   message.deleted → message.deleted (a cancelled scheduled message)
 *   conversation.updated → client.unread / client.bot_mode   mass_message.progress → the live event of the same name
 *   conversation.changed → conversation.changed (assignee or status)
 *   client.consent_changed → client.updated (opted_out_at as it is now: the chat's 'Dado de baja' badge)
 *
 * Each live event names its audience (platform/events/events.ts): an event about a conversation is for
 * those who may see it as it is when published (its assignee, or everyone when the company lets agents
 * see all), and an assignment change also for the one who lost it; a mass message's progress is for admins.
 * Internal notes are messages (message.sent) and reach everyone who may see their conversation.
 */
export function realtimeSubscribers(deps: {
  events: Pick<EventBus, 'publish'>;
  messagesRepository: Pick<MessagesRepository, 'findMessage' | 'findMessages'>;
  clientsRepository: Pick<ClientsRepository, 'conversationStates' | 'findClient'>;
  massMessagesRepository: Pick<MassMessagesRepository, 'findById'>;
  audiences: Audiences;
  /** The inbox's reader of a conversation as the API shows it (modules/conversations). */
  conversations: {
    findConversationByClient(companyId: number, clientId: number): Promise<Conversation | undefined>;
  };
}): Subscriber[] {
  const { events, messagesRepository, clientsRepository, massMessagesRepository, audiences } = deps;
  const publish = (companyId: number, event: ServerEvent, audience: Audience) =>
    events.publish(companyId, event, audience).then(() => {});
  const audienceOf = async (companyId: number, clientId: number) =>
    (await audiences.ofClients(companyId, [clientId])).get(clientId)!;
  /** The audiences of a batch's conversations, one read per company. */
  const audiencesOf = <E extends { companyId: number }>(events: E[], clientId: (e: E) => number) =>
    readByCompany(events, clientId, (companyId, ids) => audiences.ofClients(companyId, ids));

  /** The events' items read with one query per company (a dispatch hands over a batch of events). */
  async function readByCompany<E extends { companyId: number }, K, V>(
    events: E[],
    key: (e: E) => K,
    read: (companyId: number, keys: K[]) => Promise<Map<K, V>>,
  ): Promise<(V | undefined)[]> {
    const found = new Map<number, Map<K, V>>();
    for (const [companyId, list] of byCompany(events))
      found.set(companyId, await read(companyId, [...new Set(list.map(key))]));
    return events.map((e) => found.get(e.companyId)?.get(key(e)));
  }

  const messageEvent =
    (type: 'message.created' | 'message.updated') =>
    async (events: { companyId: number; clientId: number; messageId: number }[]) => {
      const messages = await readByCompany(
        events,
        (e) => e.messageId,
        async (companyId, ids) =>
          new Map((await messagesRepository.findMessages(companyId, ids)).map((m) => [m.id, m])),
      );
      const audience = await audiencesOf(events, (e) => e.clientId);
      for (const [i, message] of messages.entries())
        if (message)
          await publish(
            events[i]!.companyId,
            { type, data: { client_id: message.client_id, message } },
            audience[i]!,
          );
    };

  return [
    onMany('message.received', 'realtime.message-received', messageEvent('message.created')),
    onMany('message.sent', 'realtime.message-sent', messageEvent('message.created')),
    onMany('message.updated', 'realtime.message-updated', messageEvent('message.updated')),
    // Each change in the order it happened (a screen shows delivered, then read), with the reason kept.
    // A cancelled scheduled message: its row is gone, so the event says only which one.
    on('message.deleted', 'realtime.message-deleted', async (e) =>
      publish(
        e.companyId,
        { type: 'message.deleted', data: { client_id: e.clientId, message_id: e.messageId } },
        await audienceOf(e.companyId, e.clientId),
      ),
    ),
    on('message.status_changed', 'realtime.message-status', async (e) => {
      const m = await messagesRepository.findMessage(e.companyId, e.messageId);
      if (!m) return;
      await publish(
        e.companyId,
        {
          type: 'message.status',
          data: {
            client_id: m.client_id,
            message_id: m.id,
            status: e.status,
            error: m.error_message,
            error_detail: m.error,
          },
        },
        await audienceOf(e.companyId, m.client_id),
      );
    }),
    onMany('conversation.updated', 'realtime.conversation', async (events) => {
      const states = await readByCompany(
        events,
        (e) => e.clientId,
        (companyId, ids) => clientsRepository.conversationStates(companyId, ids),
      );
      const audience = await audiencesOf(events, (e) => e.clientId);
      for (const [i, e] of events.entries()) {
        const client = states[i];
        if (!client) continue;
        if (e.changed.includes('unread') || e.changed.includes('last_message'))
          await publish(
            e.companyId,
            {
              type: 'client.unread',
              data: {
                client_id: e.clientId,
                unread_messages_count: client.unread_messages_count,
                last_message_content: client.last_message_content,
                last_message_date: client.last_message_date,
              },
            },
            audience[i]!,
          );
        if (e.changed.includes('bot_mode'))
          await publish(
            e.companyId,
            {
              type: 'client.bot_mode',
              data: { client_id: e.clientId, mode_bot: client.mode_bot === 0 ? 0 : 1 },
            },
            audience[i]!,
          );
      }
    }),
    // Opted out or back in: the client's mark as it is now (a later change may have followed).
    on('client.consent_changed', 'realtime.client-consent', async (e) => {
      const client = await clientsRepository.findClient(e.companyId, e.clientId);
      if (!client) return;
      await publish(
        e.companyId,
        {
          type: 'client.updated',
          data: { client_id: e.clientId, opted_out_at: client.opted_out_at ?? null },
        },
        await audienceOf(e.companyId, e.clientId),
      );
    }),
    on('bot.failed', 'realtime.bot-failed', async (e) =>
      publish(
        e.companyId,
        { type: 'bot.failed', data: { client_id: e.clientId, reason: e.reason, message_id: e.messageId } },
        await audienceOf(e.companyId, e.clientId),
      ),
    ),
    // Assigned, given back, resolved, reopened: the conversation as it is now, for those who see it now
    // and for the one it was taken from (their screen drops it).
    on('conversation.changed', 'realtime.conversation-changed', async (e) => {
      const conversation = await deps.conversations.findConversationByClient(e.companyId, e.clientId);
      if (!conversation) return;
      // The audience as the conversation just read says (its assignee), and the one who lost it; one that
      // every agent saw unassigned until now is for the whole team (it leaves their 'Sin asignar').
      const base = await audienceOf(e.companyId, e.clientId);
      const audience: Audience = e.wasUnassigned
        ? { kind: 'team' }
        : base.kind === 'conversation'
          ? { ...base, assigneeId: conversation.assignee?.id ?? null }
          : base;
      await publish(
        e.companyId,
        { type: 'conversation.changed', data: { client_id: e.clientId, conversation } },
        withAlso(audience, [e.previousAssigneeId]),
      );
    }),
    on('mass_message.progress', 'realtime.mass-message-progress', async (e) => {
      const row = await massMessagesRepository.findById(e.massMessageId);
      if (!row || row.company_id !== e.companyId) return;
      const send = toMassMessage(row);
      await publish(
        e.companyId,
        {
          type: 'mass_message.progress',
          data: { mass_message_id: send.id, status: send.status as MassMessageStatus, counts: send.counts },
        },
        { kind: 'admins' },
      );
    }),
  ];
}
