import type { MassMessageStatus, ServerEvent } from '@hablabot/contract';
import { type Subscriber, on } from '../../platform/events/domain-events';
import type { EventBus } from '../../platform/events/events';
import type { ClientsRepository } from '../clients/clients.repository';
import { toMassMessage, type MassMessagesRepository } from '../mass-messages/mass-messages.repository';
import type { MessagesRepository } from '../messaging/messages.repository';

/**
 * The real-time module: the only place domain events become the live events of a company's stream
 * (GET /api/v1/admin/events, see packages/contract events.schema.ts). Each reads what it shows as it is
 * now, so a screen never gets an older state than the database holds. A message event carries the same
 * `Message` as the history API.
 *
 *   message.received, message.sent → message.created     message.updated → message.updated
 *   message.status_changed → message.status               bot.failed → bot.failed
 *   conversation.updated → client.unread / client.bot_mode mass_send.progress → mass_message.progress
 */
export function realtimeSubscribers(deps: {
  events: Pick<EventBus, 'publish'>;
  messagesRepository: Pick<MessagesRepository, 'findMessage'>;
  clientsRepository: Pick<ClientsRepository, 'findClient'>;
  massMessagesRepository: Pick<MassMessagesRepository, 'findById'>;
}): Subscriber[] {
  const { events, messagesRepository, clientsRepository, massMessagesRepository } = deps;
  const publish = (companyId: number, event: ServerEvent) => events.publish(companyId, event).then(() => {});

  const messageEvent =
    (type: 'message.created' | 'message.updated') => async (e: { companyId: number; messageId: number }) => {
      const message = await messagesRepository.findMessage(e.companyId, e.messageId);
      if (message) await publish(e.companyId, { type, data: { client_id: message.client_id, message } });
    };

  return [
    on('message.received', 'realtime.message-received', messageEvent('message.created')),
    on('message.sent', 'realtime.message-sent', messageEvent('message.created')),
    on('message.updated', 'realtime.message-updated', messageEvent('message.updated')),
    // Each change in the order it happened (a screen shows delivered, then read), with the reason kept.
    on('message.status_changed', 'realtime.message-status', async (e) => {
      const m = await messagesRepository.findMessage(e.companyId, e.messageId);
      if (!m) return;
      await publish(e.companyId, {
        type: 'message.status',
        data: { client_id: m.client_id, message_id: m.id, status: e.status, error: m.error_message },
      });
    }),
    on('conversation.updated', 'realtime.conversation', async (e) => {
      const client = await clientsRepository.findClient(e.companyId, e.clientId);
      if (!client) return;
      if (e.changed.includes('unread') || e.changed.includes('last_message'))
        await publish(e.companyId, {
          type: 'client.unread',
          data: {
            client_id: client.id,
            unread_messages_count: client.unread_messages_count,
            last_message_content: client.last_message_content,
            last_message_date: client.last_message_date,
          },
        });
      if (e.changed.includes('bot_mode'))
        await publish(e.companyId, {
          type: 'client.bot_mode',
          data: { client_id: client.id, mode_bot: client.mode_bot },
        });
    }),
    on('bot.failed', 'realtime.bot-failed', (e) =>
      publish(e.companyId, {
        type: 'bot.failed',
        data: { client_id: e.clientId, reason: e.reason, message_id: e.messageId },
      }),
    ),
    on('mass_send.progress', 'realtime.mass-send-progress', async (e) => {
      const row = await massMessagesRepository.findById(e.massMessageId);
      if (!row || row.company_id !== e.companyId) return;
      const send = toMassMessage(row);
      await publish(e.companyId, {
        type: 'mass_message.progress',
        data: { mass_message_id: send.id, status: send.status as MassMessageStatus, counts: send.counts },
      });
    }),
  ];
}
