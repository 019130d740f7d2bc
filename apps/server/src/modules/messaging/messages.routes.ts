import { routes } from '@hablabot/contract/routes';
import type { FastifyInstance } from 'fastify';
import { type Guards, companyIdOf, userOf } from '../../platform/auth';
import { translate } from '../../platform/locale';
import type { MessagesService } from './messages.service';
import { type OutboundService, outcomeText } from './outbound.service';
import { route } from '../../platform/route';

const declared = routes.messages;

/** The chat's messages: a client's conversation page by page, marking it read, and an admin's message. */
export function messagesRoutes(deps: {
  messages: MessagesService;
  outbound: OutboundService;
  guards: Guards;
}) {
  const { messages, outbound, guards } = deps;
  return async (app: FastifyInstance) => {
    app.addHook('onRequest', guards.requireCompanyAdmin);
    const tags = ['messages'];

    route(app, declared.history, {
      schema: { tags },
      handler: async (request) => messages.history(companyIdOf(request), request.params.id, request.query),
    });

    route(app, declared.get, {
      schema: {
        tags,
        description:
          'One message of the company with its author, the message it quotes and every status it went through (oldest first; for a failure, Meta’s error code and title). 404 when it is not the company’s.',
      },
      handler: async (request) => messages.detail(companyIdOf(request), request.params.id),
    });

    route(app, declared.markAsRead, {
      schema: { tags },
      handler: async (request) => ({
        ...(await messages.markAsRead(companyIdOf(request), request.params.clientId)),
        message: translate(request.lang, 'messaging.marked_read'),
      }),
    });

    route(app, declared.send, {
      schema: {
        tags,
        description:
          'Sends a text message to the client (201), or with `id` sends one of their not-sent (status 4) messages again (200). Free text needs a customer message within the last 24 hours (422 otherwise: use a template). A send WhatsApp refuses is still answered with the stored message, status 4 with the reason.',
      },
      handler: async (request, reply) => {
        const companyId = companyIdOf(request);
        const { id, client_id: clientId, content, reply_to_id: replyToId } = request.body;
        const result = id
          ? await outbound.resend({ companyId, clientId, messageId: id })
          : await outbound.send({
              companyId,
              clientId,
              sender: 'admin',
              content,
              authorUserId: userOf(request).id,
              replyToId,
            });
        return reply.status(id ? 200 : 201).send({
          data: result.message,
          message: outcomeText(request.lang, result, Boolean(id)),
        });
      },
    });
  };
}
