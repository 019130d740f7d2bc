import { routes } from '@hablabot/contract/routes';
import type { FastifyInstance } from 'fastify';
import { type Guards, companyIdOf, userOf } from '../../platform/auth';
import { translate } from '../../platform/locale';
import type { ConversationAccess } from '../conversations/conversation-access';
import { conversationGuard } from '../conversations/conversation-guard';
import { originOf } from '../media/media.routes';
import type { LibraryMedia } from './library-media';
import type { MessagesService } from './messages.service';
import { type OutboundService, outcomeText } from './outbound.service';
import { route } from '../../platform/route';
import { localizeErrors } from './whatsapp-errors';

const declared = routes.messages;

/**
 * The chat's messages: a client's conversation page by page, marking it read, and a team member's message.
 * Admins and agents of the company; a conversation an agent may not see answers 404 on every route
 * (modules/conversations/conversation-access.ts).
 */
export function messagesRoutes(deps: {
  messages: MessagesService;
  outbound: OutboundService;
  libraryMedia: LibraryMedia;
  conversationAccess: ConversationAccess;
  guards: Guards;
  publicUrl?: string;
}) {
  const { messages, outbound, libraryMedia, guards } = deps;
  const visible = conversationGuard(deps.conversationAccess);
  return async (app: FastifyInstance) => {
    app.addHook('onRequest', guards.requireCompanyMember);
    // A failed message's explanation in the caller's language.
    app.addHook('preSerialization', async (request, _reply, payload) =>
      localizeErrors(payload, request.lang),
    );
    const tags = ['messages'];

    route(app, declared.history, {
      schema: { tags },
      handler: async (request) => {
        await visible.assertVisible(request, request.params.id);
        return messages.history(companyIdOf(request), request.params.id, request.query);
      },
    });

    route(app, declared.get, {
      schema: {
        tags,
        description:
          'One message of the company with its author, the message it quotes and every status it went through (oldest first; for a failure, Meta’s error code and title). 404 when it is not the company’s.',
      },
      handler: async (request) => {
        const detail = await messages.detail(companyIdOf(request), request.params.id);
        await visible.assertVisible(request, detail.data.client_id, 'messaging.message_not_found');
        return detail;
      },
    });

    route(app, declared.markAsRead, {
      schema: { tags },
      handler: async (request) => {
        await visible.assertVisible(request, request.params.clientId);
        return {
          ...(await messages.markAsRead(companyIdOf(request), request.params.clientId)),
          message: translate(request.lang, 'messaging.marked_read'),
        };
      },
    });

    route(app, declared.send, {
      schema: {
        tags,
        description:
          'Sends a text message to the client (201; with `send_at`, stored as scheduled, status 5, and sent by a job at that time) — or, with `media_id`, a file of the media library with `content` as its caption; with `reply_to_id`, quoting a message of the same conversation — or with `id` sends one of their not-sent (status 4) messages again (200). Free text needs a customer message within the last 24 hours (422 otherwise: use a template). A send WhatsApp refuses is still answered with the stored message, status 4 with the reason.',
      },
      handler: async (request, reply) => {
        const companyId = companyIdOf(request);
        const { id, client_id: clientId, content, reply_to_id: replyToId, media_id: mediaId } = request.body;
        const sendAt = request.body.send_at;
        await visible.assertVisible(request, clientId);
        const toSend =
          mediaId && !id
            ? await libraryMedia.content(companyId, mediaId, content, originOf(request, deps.publicUrl))
            : content;
        const result = id
          ? await outbound.resend({ companyId, clientId, messageId: id })
          : await libraryMedia.sending(toSend, () =>
              outbound.send({
                companyId,
                clientId,
                sender: 'admin',
                content: toSend,
                authorUserId: userOf(request).id,
                replyToId,
                sendAt,
              }),
            );
        return reply.status(id ? 200 : 201).send({
          data: result.message,
          message: outcomeText(request.lang, result, Boolean(id)),
        });
      },
    });

    route(app, declared.updateScheduled, {
      schema: {
        tags,
        description:
          'Changes a scheduled message (status 5) before it goes out: its text (free text only) and/or its time (`send_at`, ISO 8601 with offset, future, at most 30 days ahead). 409 once it was sent, failed or cancelled.',
      },
      handler: async (request) => {
        const companyId = companyIdOf(request);
        const found = await messages.detail(companyId, request.params.id);
        await visible.assertVisible(request, found.data.client_id, 'messaging.message_not_found');
        const { content, send_at: sendAt } = request.body;
        const data = await outbound.scheduled.update(companyId, request.params.id, { content, sendAt });
        return { data, message: translate(request.lang, 'messaging.scheduled_updated') };
      },
    });

    route(app, declared.cancelScheduled, {
      schema: {
        tags,
        description:
          'Cancels a scheduled message (status 5): it leaves the conversation and is never sent. 409 once it was sent, failed or cancelled.',
      },
      handler: async (request) => {
        const companyId = companyIdOf(request);
        const found = await messages.detail(companyId, request.params.id);
        await visible.assertVisible(request, found.data.client_id, 'messaging.message_not_found');
        await outbound.scheduled.cancel(companyId, request.params.id);
        return { message: translate(request.lang, 'messaging.scheduled_cancelled') };
      },
    });
  };
}
