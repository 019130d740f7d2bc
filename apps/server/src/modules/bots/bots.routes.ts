import {
  ZBotIdParams,
  ZBotMutationResponse,
  ZBotRequest,
  ZBotTestRequest,
  ZBotTestResponse,
  ZBotsResponse,
  ZIdParams,
  ZIdsRequest,
  ZInstructionMutationResponse,
  ZInstructionRequest,
  ZInstructionsResponse,
  ZMessageResponse,
  ZToggleBotStateRequest,
} from '@hablabot/contract';
import type { FastifyInstance } from 'fastify';
import { type Guards, companyIdOf } from '../../platform/auth';
import { errorResponses, typed } from '../../platform/http';
import { translate } from '../../platform/locale';
import type { RateLimitStore } from '../../platform/rate-limit';
import { limitConnectionTests } from '../settings/settings-connection';
import type { BotsService } from './bots.service';

const errors = errorResponses;
const probeErrors = { ...errorResponses, 429: errorResponses[401] };

export function botsRoutes(deps: { bots: BotsService; guards: Guards; rateLimits: RateLimitStore }) {
  const { bots, guards, rateLimits } = deps;
  return async (instance: FastifyInstance) => {
    const app = typed(instance);
    // onRequest: 401/403 come before a body is parsed or validated.
    app.addHook('onRequest', guards.requireCompanyAdmin);
    const tags = ['bots'];
    const instructionTags = ['instructions'];

    app.get(
      '/admin/bot',
      { schema: { tags, response: { 200: ZBotsResponse, ...errors } } },
      async (request) => {
        const { bots: list, liveBotId } = await bots.list(companyIdOf(request));
        return { bots: list, live_bot_id: liveBotId, message: translate(request.lang, 'bots.listed') };
      },
    );

    app.post(
      '/admin/bot',
      { schema: { tags, body: ZBotRequest, response: { 201: ZBotMutationResponse, ...errors } } },
      async (request, reply) => {
        const bot = await bots.create(companyIdOf(request), request.body);
        return reply.status(201).send({ message: translate(request.lang, 'bots.created'), bot });
      },
    );

    app.put(
      '/admin/bot/:id',
      {
        schema: {
          tags,
          params: ZIdParams,
          body: ZBotRequest,
          response: { 200: ZBotMutationResponse, ...errors },
        },
      },
      async (request) => ({
        message: translate(request.lang, 'bots.updated'),
        bot: await bots.update(companyIdOf(request), request.params.id, request.body),
      }),
    );

    app.delete(
      '/admin/bot/:id',
      { schema: { tags, params: ZIdParams, response: { 200: ZMessageResponse, ...errors } } },
      async (request) => {
        await bots.remove(companyIdOf(request), request.params.id);
        return { message: translate(request.lang, 'bots.deleted') };
      },
    );

    app.post(
      '/admin/bot/:id/toggle-bot-state',
      {
        schema: {
          tags,
          params: ZIdParams,
          body: ZToggleBotStateRequest,
          response: { 200: ZBotMutationResponse, ...errors },
        },
      },
      async (request) => {
        const bot = await bots.setState(companyIdOf(request), request.params.id, request.body.state);
        return {
          message: translate(request.lang, bot.state === 1 ? 'bots.activated' : 'bots.deactivated'),
          bot,
        };
      },
    );

    app.post(
      '/admin/bot/:id/test',
      {
        schema: {
          tags,
          summary: 'Probar bot: the prompt a customer message would produce, and the model reply',
          params: ZIdParams,
          body: ZBotTestRequest,
          response: { 200: ZBotTestResponse, ...probeErrors },
        },
      },
      async (request) => {
        const companyId = companyIdOf(request);
        // It may call the AI provider: it counts with the settings' connection tests (20 a minute).
        await limitConnectionTests(rateLimits, companyId);
        const result = await bots.test(companyId, request.params.id, request.body);
        const { modelError, ...rest } = result;
        const message = modelError
          ? 'bots.test_model_failed'
          : result.reply !== null
            ? 'bots.test_answered'
            : 'bots.test_prompt_only';
        return {
          ...rest,
          model_error: modelError ? translate(request.lang, modelError.key, modelError.params) : null,
          message: translate(request.lang, message),
        };
      },
    );

    app.get(
      '/admin/instructions/:botId',
      {
        schema: {
          tags: instructionTags,
          params: ZBotIdParams,
          response: { 200: ZInstructionsResponse, ...errors },
        },
      },
      async (request) => ({
        data: await bots.listInstructions(companyIdOf(request), request.params.botId),
        message: translate(request.lang, 'instructions.listed'),
      }),
    );

    app.post(
      '/admin/instruction',
      {
        schema: {
          tags: instructionTags,
          body: ZInstructionRequest,
          response: { 201: ZInstructionMutationResponse, ...errors },
        },
      },
      async (request, reply) => {
        const data = await bots.createInstruction(companyIdOf(request), request.body);
        return reply.status(201).send({ message: translate(request.lang, 'instructions.created'), data });
      },
    );

    app.put(
      '/admin/instruction/:id',
      {
        schema: {
          tags: instructionTags,
          params: ZIdParams,
          body: ZInstructionRequest,
          response: { 200: ZInstructionMutationResponse, ...errors },
        },
      },
      async (request) => ({
        message: translate(request.lang, 'instructions.updated'),
        data: await bots.updateInstruction(companyIdOf(request), request.params.id, request.body),
      }),
    );

    app.delete(
      '/admin/instruction',
      {
        schema: { tags: instructionTags, body: ZIdsRequest, response: { 200: ZMessageResponse, ...errors } },
      },
      async (request) => {
        await bots.removeInstructions(companyIdOf(request), request.body.ids);
        return { message: translate(request.lang, 'instructions.deleted') };
      },
    );
  };
}
