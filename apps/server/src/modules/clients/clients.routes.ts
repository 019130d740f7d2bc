import { routes } from '@hablabot/contract/routes';
import type { FastifyInstance } from 'fastify';
import { type Guards, companyIdOf } from '../../platform/auth';
import { translate } from '../../platform/locale';
import type { AnswerCache } from '../../platform/answer-cache';
import { route } from '../../platform/route';
import type { ConversationAccess } from '../conversations/conversation-access';
import { adminsOrMembers, conversationGuard, forTeamMembers } from '../conversations/conversation-guard';
import { chatListKey } from './chat-list-cache';
import type { ClientImportService } from './clients-import.service';
import type { ClientsService } from './clients.service';

const declared = routes.clients;

/** 10,000 CSV rows with long project notes stay well under this; the app-wide default is smaller. */
export const IMPORT_BODY_LIMIT = 32 * 1024 * 1024;

export function clientsRoutes(deps: {
  clients: ClientsService;
  clientImport: ClientImportService;
  conversationAccess: ConversationAccess;
  guards: Guards;
  chatListCache: AnswerCache;
}) {
  const { clients, clientImport, guards } = deps;
  const visible = conversationGuard(deps.conversationAccess);
  return async (app: FastifyInstance) => {
    // onRequest, not preHandler: a stranger's body is never read, and 401/403 come before any 422.
    // Admins only, except the chat's reads of a client and its bot switch, which agents use too (for
    // the conversations they may see: modules/conversations/conversation-access.ts).
    app.addHook('onRequest', adminsOrMembers(guards));
    const schema = { tags: ['clients'] };

    route(app, declared.list, {
      schema,
      handler: async (request) => ({
        ...(await clients.list(companyIdOf(request), request.query)),
        message: translate(request.lang, 'clients.listed'),
        title: translate(request.lang, 'clients.title'),
        subtitle: translate(request.lang, 'clients.subtitle'),
      }),
    });

    // Kept serialised per company, viewer and query until something in it changes (chat-list-cache.ts).
    const summaryAnswer = declared.messagesSummary.responses[200];
    route(app, declared.messagesSummary, {
      ...forTeamMembers,
      schema,
      handler: async (request, reply) => {
        const companyId = companyIdOf(request);
        const onlyFor = await visible.onlyFor(request);
        const body = await deps.chatListCache.answer(
          companyId,
          chatListKey(onlyFor, request.query),
          async () =>
            // What the route's serialiser would write: the answer as its schema reads it, as JSON.
            JSON.stringify(
              summaryAnswer.parse(await clients.messagesSummary(companyId, request.query, onlyFor)),
            ),
        );
        // Bytes already serialised: Fastify sends a Buffer as it is.
        return reply.type('application/json; charset=utf-8').send(body as never);
      },
    });

    route(app, declared.get, {
      ...forTeamMembers,
      schema,
      handler: async (request) => {
        await visible.assertVisible(request, request.params.id);
        return { client: await clients.get(companyIdOf(request), request.params.id) };
      },
    });

    route(app, declared.create, {
      schema,
      handler: async (request, reply) => {
        const client = await clients.create(companyIdOf(request), request.body);
        return reply.status(201).send({ client, message: translate(request.lang, 'clients.created') });
      },
    });

    route(app, declared.update, {
      schema,
      handler: async (request) => ({
        client: await clients.update(companyIdOf(request), request.params.id, request.body),
        message: translate(request.lang, 'clients.updated'),
      }),
    });

    route(app, declared.remove, {
      schema,
      handler: async (request) => {
        await clients.remove(companyIdOf(request), request.body.ids);
        return { message: translate(request.lang, 'clients.deleted') };
      },
    });

    route(app, declared.toggleBotMode, {
      ...forTeamMembers,
      schema,
      handler: async (request) => {
        await visible.assertVisible(request, request.params.id);
        const client = await clients.setBotMode(companyIdOf(request), request.params.id, request.body.mode);
        return {
          client,
          message: translate(
            request.lang,
            client.mode_bot === 1 ? 'clients.bot_mode_on' : 'clients.bot_mode_off',
          ),
        };
      },
    });

    route(app, declared.import, {
      bodyLimit: IMPORT_BODY_LIMIT,
      schema,
      handler: async (request) => {
        const result = await clientImport.importClients(
          companyIdOf(request),
          request.body.clients,
          request.lang,
        );
        return {
          data: { error: result.error, success: result.success },
          message: translate(request.lang, 'clients.import_done', {
            created: result.created,
            updated: result.updated,
            failed: result.error.length,
          }),
        };
      },
    });
  };
}
