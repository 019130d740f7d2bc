import {
  ZClientIdParams,
  ZClientMessagesQuery,
  ZClientMessagesResponse,
  ZIdParams,
  ZMarkAsReadResponse,
  ZMessageDetailResponse,
  ZSendMessageRequest,
  ZSendMessageResponse,
} from '@hablabot/contract';
import type { FastifyInstance } from 'fastify';
import { type Guards, companyIdOf, userOf } from '../../platform/auth';
import { errorResponses, typed } from '../../platform/http';
import { translate } from '../../platform/locale';
import type { MessagesService } from './messages.service';
import { type OutboundService, outcomeText } from './outbound.service';

/** The chat's messages: a client's conversation page by page, marking it read, and an admin's message. */
export function messagesRoutes(deps: {
  messages: MessagesService;
  outbound: OutboundService;
  guards: Guards;
}) {
  const { messages, outbound, guards } = deps;
  return async (instance: FastifyInstance) => {
    const app = typed(instance);
    app.addHook('onRequest', guards.requireCompanyAdmin);
    const tags = ['messages'];

    app.get(
      '/admin/client/:id/messages',
      {
        schema: {
          tags,
          params: ZIdParams,
          querystring: ZClientMessagesQuery,
          response: { 200: ZClientMessagesResponse, ...errorResponses },
        },
      },
      async (request) => messages.history(companyIdOf(request), request.params.id, request.query),
    );

    app.get(
      '/admin/messages/:id',
      {
        schema: {
          tags,
          description:
            'One message of the company with its author, the message it quotes and every status it went through (oldest first; for a failure, Meta’s error code and title). 404 when it is not the company’s.',
          params: ZIdParams,
          response: { 200: ZMessageDetailResponse, ...errorResponses },
        },
      },
      async (request) => messages.detail(companyIdOf(request), request.params.id),
    );

    app.patch(
      '/admin/messages/:clientId/mark-as-read',
      {
        schema: { tags, params: ZClientIdParams, response: { 200: ZMarkAsReadResponse, ...errorResponses } },
      },
      async (request) => ({
        ...(await messages.markAsRead(companyIdOf(request), request.params.clientId)),
        message: translate(request.lang, 'messaging.marked_read'),
      }),
    );

    app.post(
      '/admin/message',
      {
        schema: {
          tags,
          description:
            'Sends a text message to the client (201), or with `id` sends one of their not-sent (status 4) messages again (200). Free text needs a customer message within the last 24 hours (422 otherwise: use a template). A send WhatsApp refuses is still answered with the stored message, status 4 with the reason.',
          body: ZSendMessageRequest,
          response: { 200: ZSendMessageResponse, 201: ZSendMessageResponse, ...errorResponses },
        },
      },
      async (request, reply) => {
        const companyId = companyIdOf(request);
        const { id, client_id: clientId, content, reply_to_message_id: replyToMessageId } = request.body;
        const result = id
          ? await outbound.resend({ companyId, clientId, messageId: id })
          : await outbound.send({
              companyId,
              clientId,
              sender: 'admin',
              content,
              authorUserId: userOf(request).id,
              replyToMessageId,
            });
        return reply.status(id ? 200 : 201).send({
          data: result.message,
          message: outcomeText(request.lang, result, Boolean(id)),
        });
      },
    );
  };
}
