import { MESSAGE_STATUS } from '@hablabot/contract';
import type { ClientsRepository } from '../clients/clients.repository';
import type { MessagesRepository } from '../messaging/messages.repository';
import type { MessagingEvents } from '../messaging/messaging-events';
import type { MassMessagesRepository } from './mass-messages.repository';
import type { createMassSender } from './mass-sender';

type OnSent = NonNullable<Parameters<typeof createMassSender>[0]['onSent']>;

/**
 * What a recipient of a mass send got shows in their conversation: the template as they read it, as the
 * company's message (it does not pause the bot: only a person writing does), with the send's wamid, so
 * the statuses WhatsApp reports reach it too. It becomes the client's last message in the chat list, and
 * keeps the template request, so a resend from the chat sends the template again, never its text as free
 * text. A status that came before the message was kept went to the recipient only: it is copied over.
 */
export function keepInConversation(deps: {
  messagesRepository: MessagesRepository;
  clientsRepository: Pick<ClientsRepository, 'noteOutgoingMessage'>;
  massMessagesRepository: Pick<MassMessagesRepository, 'recipientStatus'>;
  messagingEvents: Pick<MessagingEvents, 'publishMessage' | 'hooks'>;
}): OnSent {
  const { messagesRepository, clientsRepository, massMessagesRepository, messagingEvents } = deps;
  return async (send, recipient, sent) => {
    if (recipient.client_id === null) return;
    const at = new Date().toISOString();
    const message = await messagesRepository.insertMessage(send.company_id, {
      clientId: recipient.client_id,
      wamid: sent.wamid,
      sender: 'admin',
      messageType: 'text',
      waType: 'template',
      content: sent.text,
      phone: recipient.phone,
      status: MESSAGE_STATUS.sent,
      createdAt: at,
      outboundRequest: JSON.stringify({ content: sent.content }),
    });
    if (!message) return;
    await clientsRepository.noteOutgoingMessage(send.company_id, recipient.client_id, {
      content: sent.text,
      date: at,
    });
    await messagingEvents.publishMessage(send.company_id, message, 'message.created');
    const caught = await massMessagesRepository.recipientStatus(recipient.id);
    if (caught && (caught.status === 'delivered' || caught.status === 'read' || caught.status === 'failed')) {
      const updated = await messagesRepository.applyStatus(send.company_id, sent.wamid, {
        status: MESSAGE_STATUS[caught.status],
        at: new Date().toISOString(),
        errorCode: caught.error_code,
        errorMessage: caught.error_message,
      });
      if (updated) await messagingEvents.hooks.onStatus?.(send.company_id, updated);
    }
  };
}
