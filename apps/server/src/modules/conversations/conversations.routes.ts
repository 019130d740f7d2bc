import { routes } from '@hablabot/contract/routes';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type AuthContext, type Guards, companyIdOf } from '../../platform/auth';
import { unauthenticated } from '../../platform/errors';
import { route } from '../../platform/route';
import type { ConversationsService } from './conversations.service';

const declared = routes.conversations;

/**
 * The inbox's conversations: admins and agents of the company (requireCompanyMember); which
 * conversations an agent may see and change is the service's rule (conversation-access.ts).
 */
export function conversationsRoutes(deps: { conversations: ConversationsService; guards: Guards }) {
  const { conversations, guards } = deps;
  return async (app: FastifyInstance) => {
    // onRequest, not preHandler: a stranger's body is never read, and 401/403 come before any 422.
    app.addHook('onRequest', guards.requireCompanyMember);
    const schema = { tags: ['conversations'] };
    const authOf = (request: FastifyRequest): AuthContext => {
      if (!request.auth) throw unauthenticated();
      return request.auth;
    };

    route(app, declared.list, {
      schema,
      handler: async (request) => conversations.list(authOf(request), companyIdOf(request), request.query),
    });

    route(app, declared.assign, {
      schema,
      handler: async (request) => ({
        data: await conversations.assign(
          authOf(request),
          companyIdOf(request),
          request.params.id,
          request.body.user_id,
        ),
      }),
    });

    route(app, declared.resolve, {
      schema,
      handler: async (request) => ({
        data: await conversations.resolve(authOf(request), companyIdOf(request), request.params.id),
      }),
    });

    route(app, declared.reopen, {
      schema,
      handler: async (request) => ({
        data: await conversations.reopen(authOf(request), companyIdOf(request), request.params.id),
      }),
    });

    route(app, declared.addNote, {
      schema,
      handler: async (request, reply) => {
        const note = await conversations.addNote(
          authOf(request),
          companyIdOf(request),
          request.params.id,
          request.body.text,
        );
        return reply.status(201).send({ data: note });
      },
    });
  };
}
