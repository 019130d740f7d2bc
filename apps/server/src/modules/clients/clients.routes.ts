import {
  ZClientMutationResponse,
  ZClientResponse,
  ZClientRequest,
  ZClientsQuery,
  ZClientsResponse,
  ZErrorResponse,
  ZIdParams,
  ZIdsRequest,
  ZImportClientsRequest,
  ZImportClientsResponse,
  ZMessageResponse,
  ZMessagesSummaryQuery,
  ZMessagesSummaryResponse,
  ZToggleBotModeRequest,
} from '@hablabot/contract';
import type { FastifyInstance } from 'fastify';
import { type Guards, companyIdOf } from '../../platform/auth';
import { errorResponses, typed } from '../../platform/http';
import { translate } from '../../platform/locale';
import type { ClientImportService } from './clients-import.service';
import type { ClientsService } from './clients.service';

const errors = errorResponses;

/** 10,000 CSV rows with long project notes stay well under this; the app-wide default is smaller. */
export const IMPORT_BODY_LIMIT = 32 * 1024 * 1024;

export function clientsRoutes(deps: {
  clients: ClientsService;
  clientImport: ClientImportService;
  guards: Guards;
}) {
  const { clients, clientImport, guards } = deps;
  return async (instance: FastifyInstance) => {
    const app = typed(instance);
    // onRequest, not preHandler: a stranger's body is never read, and 401/403 come before any 422.
    app.addHook('onRequest', guards.requireCompanyAdmin);
    const tags = ['clients'];

    app.get(
      '/admin/client',
      { schema: { tags, querystring: ZClientsQuery, response: { 200: ZClientsResponse, ...errors } } },
      async (request) => ({
        ...(await clients.list(companyIdOf(request), request.query)),
        message: translate(request.lang, 'clients.listed'),
        title: translate(request.lang, 'clients.title'),
        subtitle: translate(request.lang, 'clients.subtitle'),
      }),
    );

    app.get(
      '/admin/client/messages-summary',
      {
        schema: {
          tags,
          querystring: ZMessagesSummaryQuery,
          response: { 200: ZMessagesSummaryResponse, ...errors },
        },
      },
      async (request) => clients.messagesSummary(companyIdOf(request), request.query),
    );

    app.get(
      '/admin/client/:id',
      { schema: { tags, params: ZIdParams, response: { 200: ZClientResponse, ...errors } } },
      async (request) => ({ client: await clients.get(companyIdOf(request), request.params.id) }),
    );

    app.post(
      '/admin/client',
      { schema: { tags, body: ZClientRequest, response: { 201: ZClientMutationResponse, ...errors } } },
      async (request, reply) => {
        const client = await clients.create(companyIdOf(request), request.body);
        return reply.status(201).send({ client, message: translate(request.lang, 'clients.created') });
      },
    );

    app.put(
      '/admin/client/:id',
      {
        schema: {
          tags,
          params: ZIdParams,
          body: ZClientRequest,
          response: { 200: ZClientMutationResponse, ...errors },
        },
      },
      async (request) => ({
        client: await clients.update(companyIdOf(request), request.params.id, request.body),
        message: translate(request.lang, 'clients.updated'),
      }),
    );

    app.delete(
      '/admin/client',
      { schema: { tags, body: ZIdsRequest, response: { 200: ZMessageResponse, ...errors } } },
      async (request) => {
        await clients.remove(companyIdOf(request), request.body.ids);
        return { message: translate(request.lang, 'clients.deleted') };
      },
    );

    app.post(
      '/admin/client/:id/toggle-bot-mode',
      {
        schema: {
          tags,
          params: ZIdParams,
          body: ZToggleBotModeRequest,
          response: { 200: ZClientMutationResponse, ...errors },
        },
      },
      async (request) => {
        const client = await clients.setBotMode(companyIdOf(request), request.params.id, request.body.mode);
        return {
          client,
          message: translate(
            request.lang,
            client.mode_bot === 1 ? 'clients.bot_mode_on' : 'clients.bot_mode_off',
          ),
        };
      },
    );

    app.post(
      '/import/clients',
      {
        bodyLimit: IMPORT_BODY_LIMIT,
        schema: {
          tags,
          body: ZImportClientsRequest,
          // 429: another import of the company is running.
          response: { 200: ZImportClientsResponse, ...errors, 429: ZErrorResponse },
        },
      },
      async (request) => {
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
    );
  };
}
