import type { ClientMessagesResponse, MessageDetailResponse } from '@hablabot/contract';
import { notFound } from '../../platform/errors';
import type { WithTransaction } from '../../repositories';
import type { ClientsRepository } from '../clients/clients.repository';
import type { MessagesRepository } from './messages.repository';

/** A client's conversation as the chat screen reads it, and marking it read. */
export function createMessagesService(deps: {
  withTransaction: WithTransaction;
  clientsRepository: ClientsRepository;
  messagesRepository: MessagesRepository;
}) {
  const { withTransaction, clientsRepository, messagesRepository } = deps;

  return {
    /** One message of the company with every status it went through; 404 when it is not the company's. */
    async detail(companyId: number, id: number): Promise<MessageDetailResponse> {
      const message = await messagesRepository.findMessage(companyId, id);
      if (!message) throw notFound('messaging.message_not_found');
      return { data: { ...message, statuses: await messagesRepository.statusHistory(message.id) } };
    },

    /**
     * One page of the client's messages: page 1 is the newest, messages oldest first within a page, and
     * whether older ones exist; page 1 also lists the messages still scheduled, apart (they show below
     * the conversation until they go out). 404 when the client is not the company's.
     */
    async history(
      companyId: number,
      clientId: number,
      query: { page: number; per_page: number },
    ): Promise<ClientMessagesResponse> {
      // The conversation's size is kept on the client row, so a page is one index read, however long.
      const [total, messages, scheduled] = await Promise.all([
        clientsRepository.messagesCount(companyId, clientId),
        messagesRepository.listPage(companyId, clientId, { page: query.page, perPage: query.per_page }),
        query.page === 1 ? messagesRepository.listScheduled(companyId, clientId) : [],
      ]);
      if (total === undefined) throw notFound('clients.not_found');
      return {
        messages,
        scheduled,
        pagination: {
          current_page: query.page,
          per_page: query.per_page,
          total,
          has_more_messages: query.page * query.per_page < total,
        },
      };
    },

    /**
     * Marks the customer's messages read and their unread count 0, together; how many messages changed.
     * 404 when the client is not the company's. When some were unread: `conversation.read` (WhatsApp
     * shows the customer their messages were read) and `conversation.updated` (the chat list's count).
     */
    async markAsRead(companyId: number, clientId: number): Promise<{ updated: number }> {
      const result = await withTransaction(async (tx) => {
        if (!(await tx.clientsRepository.resetUnread(companyId, clientId)))
          throw notFound('clients.not_found');
        const read = await tx.messagesRepository.markClientMessagesRead(companyId, clientId);
        if (read.updated > 0) {
          tx.events.emit('conversation.read', { companyId, clientId, lastWamid: read.lastWamid });
          tx.events.emit('conversation.updated', { companyId, clientId, changed: ['unread'] });
        }
        return read;
      });
      return { updated: result.updated };
    },
  };
}

export type MessagesService = ReturnType<typeof createMessagesService>;
