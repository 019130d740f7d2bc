import {
  type Conversation,
  type ConversationsQueryParams,
  type ConversationsResponse,
  type ConversationStatus,
  MESSAGE_STATUS,
  type Message,
} from '@hablabot/contract';
import type { AuthContext } from '../../platform/auth';
import { isAgentOnly } from '../../platform/auth';
import { forbidden, invalid, notFound } from '../../platform/errors';
import type { TransactionScope, WithTransaction } from '../../repositories';
import { NOTE_TYPE } from '../messaging/message-rows';
import { type ConversationAccess, mayReceive, type Visibility } from './conversation-access';
import type { InboxRepository } from './conversations.repository';

/**
 * The inbox's conversations: the views, assigning, resolving and reopening, and internal notes. Every
 * call names the caller and their company; a conversation the caller may not see (conversation-access.ts)
 * answers 404 as if it did not exist.
 */
export function createConversationsService(deps: {
  inboxRepository: InboxRepository;
  conversationAccess: Pick<ConversationAccess, 'visibilityOf'>;
  withTransaction: WithTransaction;
}) {
  const { inboxRepository, conversationAccess, withTransaction } = deps;

  /** The conversation's state in the transaction, when the caller may see it; 404 otherwise. */
  async function visibleState(tx: TransactionScope, visibility: Visibility, companyId: number, id: number) {
    const state = await tx.inboxRepository.state(companyId, id);
    if (!state || !mayReceive(visibility, state.assigneeId)) throw notFound('conversations.not_found');
    return state;
  }

  async function changeStatus(
    auth: AuthContext,
    companyId: number,
    id: number,
    status: ConversationStatus,
  ): Promise<Conversation> {
    const visibility = await conversationAccess.visibilityOf(auth, companyId);
    return withTransaction(async (tx) => {
      const state = await visibleState(tx, visibility, companyId, id);
      // An unassigned conversation was in every agent's list ('Sin asignar' or 'Resueltos'): all hear of it.
      if (await tx.inboxRepository.setStatus(companyId, id, status))
        tx.events.emit('conversation.changed', {
          companyId,
          clientId: state.clientId,
          changed: ['status'],
          wasUnassigned: state.assigneeId === null,
        });
      return (await tx.inboxRepository.findConversation(companyId, id))!;
    });
  }

  return {
    /**
     * One view's page, latest activity first, with the tabs' counts. The counts ignore the search (they
     * are the views' sizes); the page's total is the view's size, or with a search its matches counted up to
     * the end of the next page (`searchTotalBound`).
     */
    async list(
      auth: AuthContext,
      companyId: number,
      query: ConversationsQueryParams,
    ): Promise<ConversationsResponse> {
      const visibility = await conversationAccess.visibilityOf(auth, companyId);
      const userId = auth.user.id;
      const options = {
        view: query.view,
        userId,
        visibility,
        search: query.search,
        limit: query.per_page,
        offset: (query.page - 1) * query.per_page,
      };
      // The views' sizes (the tabs) first: a search's plan depends on its view's size.
      const sizes = await inboxRepository.sizes(companyId, userId, visibility);
      const searched = query.search?.trim()
        ? await inboxRepository.searchView(companyId, { ...options, viewSize: sizes[query.view] })
        : undefined;
      let data: Conversation[];
      let total: number;
      if (searched) {
        ({ rows: data, total } = searched);
      } else {
        // Without a search the view's size is known already.
        total = sizes[query.view];
        data = total > options.offset ? await inboxRepository.listPage(companyId, options) : [];
      }
      const counts = { mine: sizes.mine, unassigned: sizes.unassigned, all: sizes.all };
      return {
        data,
        pagination: {
          current_page: query.page,
          per_page: query.per_page,
          total,
          last_page: Math.max(1, Math.ceil(total / query.per_page)),
        },
        counts,
        sees_all: visibility.kind === 'all',
      };
    },

    /**
     * Assigns the conversation to a user of the company, or to nobody. An admin assigns to any admin or
     * agent of the company (anyone else: 422 on `user_id`); an agent may only take an unassigned
     * conversation for themself or give back their own (anything else: 403).
     */
    async assign(
      auth: AuthContext,
      companyId: number,
      id: number,
      userId: number | null,
    ): Promise<Conversation> {
      const visibility = await conversationAccess.visibilityOf(auth, companyId);
      const self = auth.user.id;
      return withTransaction(async (tx) => {
        const state = await visibleState(tx, visibility, companyId, id);
        if (isAgentOnly(auth)) {
          const takes = userId === self && (state.assigneeId === null || state.assigneeId === self);
          const givesBack = userId === null && (state.assigneeId === self || state.assigneeId === null);
          if (!takes && !givesBack) throw forbidden('conversations.agent_assign_forbidden');
        } else if (userId !== null && !(await tx.inboxRepository.isTeamMember(companyId, userId))) {
          throw invalid('user_id', 'conversations.assignee_not_member');
        }
        if (state.assigneeId !== userId) {
          await tx.inboxRepository.setAssignee(companyId, id, userId);
          tx.events.emit('conversation.changed', {
            companyId,
            clientId: state.clientId,
            changed: ['assignee'],
            previousAssigneeId: state.assigneeId,
            wasUnassigned: state.assigneeId === null,
          });
        }
        return (await tx.inboxRepository.findConversation(companyId, id))!;
      });
    },

    resolve: (auth: AuthContext, companyId: number, id: number) =>
      changeStatus(auth, companyId, id, 'resolved'),

    reopen: (auth: AuthContext, companyId: number, id: number) => changeStatus(auth, companyId, id, 'open'),

    /**
     * An internal note in the conversation: a message row of kind `note` (sender admin, author the
     * caller, status sent) that is never sent to WhatsApp, never unread, and leaves the chat list's last
     * message and order as they were (the list shows what the customer and the company said to each
     * other). `message.sent` lets the live streams that may see the conversation show it.
     */
    async addNote(auth: AuthContext, companyId: number, id: number, text: string): Promise<Message> {
      const visibility = await conversationAccess.visibilityOf(auth, companyId);
      return withTransaction(async (tx) => {
        const state = await visibleState(tx, visibility, companyId, id);
        const phone = await tx.inboxRepository.clientPhone(companyId, state.clientId);
        const note = await tx.messagesRepository.insertMessage(companyId, {
          clientId: state.clientId,
          wamid: null,
          sender: 'admin',
          messageType: 'text',
          waType: NOTE_TYPE,
          content: text,
          phone: phone ?? '',
          author: { type: 'user', userId: auth.user.id },
          status: MESSAGE_STATUS.sent,
          createdAt: new Date().toISOString(),
        });
        if (!note) throw new Error('the note was not stored');
        tx.events.emit('message.sent', { companyId, clientId: state.clientId, messageId: note.id });
        return (await tx.messagesRepository.findMessage(companyId, note.id)) ?? note;
      });
    },
  };
}

export type ConversationsService = ReturnType<typeof createConversationsService>;
