import { MESSAGE_STATUS } from '@hablabot/contract';
import type { WithTransaction } from '../../repositories';
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
  withTransaction: WithTransaction;
  massMessagesRepository: Pick<MassMessagesRepository, 'recipientStatus'>;
}): OnSent {
  const { withTransaction, massMessagesRepository } = deps;
  return async (send, recipient, sent) => {
    const clientId = recipient.client_id;
    if (clientId === null) return;
    const companyId = send.company_id;
    const at = new Date().toISOString();
    const kept = await withTransaction(async (tx) => {
      const message = await tx.messagesRepository.insertMessage(companyId, {
        clientId,
        wamid: sent.wamid,
        sender: 'admin',
        messageType: 'text',
        waType: 'template',
        content: sent.text,
        phone: recipient.phone,
        status: MESSAGE_STATUS.sent,
        createdAt: at,
        author: { kind: 'campaign', massMessageId: send.id },
        outboundRequest: JSON.stringify({ content: sent.content }),
      });
      if (!message) return false;
      await tx.clientsRepository.noteOutgoingMessage(companyId, clientId, { content: sent.text, date: at });
      tx.events.emit('message.sent', { companyId, clientId, messageId: message.id });
      return true;
    });
    if (!kept) return;
    const caught = await massMessagesRepository.recipientStatus(recipient.id);
    if (caught && (caught.status === 'delivered' || caught.status === 'read' || caught.status === 'failed')) {
      await withTransaction(async (tx) => {
        const updated = await tx.messagesRepository.applyStatus(companyId, sent.wamid, {
          status: MESSAGE_STATUS[caught.status as 'delivered' | 'read' | 'failed'],
          at: new Date().toISOString(),
          errorCode: caught.error_code,
          errorMessage: caught.error_message,
        });
        if (updated)
          tx.events.emit('message.status_changed', {
            companyId,
            clientId,
            messageId: updated.id,
            status: updated.status,
          });
      });
    }
  };
}
