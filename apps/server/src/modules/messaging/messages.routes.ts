import {
  ZClientIdParams,
  ZClientMessagesQuery,
  ZClientMessagesResponse,
  ZIdParams,
  ZMarkAsReadResponse,
} from '@hablabot/contract';
import type { FastifyInstance } from 'fastify';
import { type Guards, companyIdOf } from '../../platform/auth';
import { errorResponses, typed } from '../../platform/http';
import { translate } from '../../platform/locale';
import type { MessagesService } from './messages.service';

/** The chat's messages: a client's conversation page by page, and marking it read. */
export function messagesRoutes(deps: { messages: MessagesService; guards: Guards }) {
  const { messages, guards } = deps;
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
  };
}
