import { routes } from '@hablabot/contract/routes';
import type { FastifyInstance } from 'fastify';
import { type Guards, companyIdOf } from '../../platform/auth';
import { translate } from '../../platform/locale';
import type { RateLimitStore } from '../../platform/rate-limit';
import { limitConnectionTests } from '../settings/settings-connection';
import type { BotsService } from './bots.service';
import { route } from '../../platform/route';

const declared = routes.bots;

export function botsRoutes(deps: { bots: BotsService; guards: Guards; rateLimits: RateLimitStore }) {
  const { bots, guards, rateLimits } = deps;
  return async (app: FastifyInstance) => {
    // onRequest: 401/403 come before a body is parsed or validated.
    app.addHook('onRequest', guards.requireCompanyAdmin);
    const tags = ['bots'];
    const instructionTags = ['instructions'];

    route(app, declared.list, {
      schema: { tags },
      handler: async (request) => {
        const { bots: list, liveBotId } = await bots.list(companyIdOf(request));
        return { bots: list, live_bot_id: liveBotId, message: translate(request.lang, 'bots.listed') };
      },
    });

    route(app, declared.create, {
      schema: { tags },
      handler: async (request, reply) => {
        const bot = await bots.create(companyIdOf(request), request.body);
        return reply.status(201).send({ message: translate(request.lang, 'bots.created'), bot });
      },
    });

    route(app, declared.update, {
      schema: { tags },
      handler: async (request) => ({
        message: translate(request.lang, 'bots.updated'),
        bot: await bots.update(companyIdOf(request), request.params.id, request.body),
      }),
    });

    route(app, declared.remove, {
      schema: { tags },
      handler: async (request) => {
        await bots.remove(companyIdOf(request), request.params.id);
        return { message: translate(request.lang, 'bots.deleted') };
      },
    });

    route(app, declared.toggleState, {
      schema: { tags },
      handler: async (request) => {
        const bot = await bots.setState(companyIdOf(request), request.params.id, request.body.state);
        return {
          message: translate(request.lang, bot.state === 1 ? 'bots.activated' : 'bots.deactivated'),
          bot,
        };
      },
    });

    route(app, declared.test, {
      schema: {
        tags,
        summary: 'Probar bot: the prompt a customer message would produce, and the model reply',
      },
      handler: async (request) => {
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
    });

    route(app, declared.listInstructions, {
      schema: { tags: instructionTags },
      handler: async (request) => ({
        data: await bots.listInstructions(companyIdOf(request), request.params.botId),
        message: translate(request.lang, 'instructions.listed'),
      }),
    });

    route(app, declared.createInstruction, {
      schema: { tags: instructionTags },
      handler: async (request, reply) => {
        const data = await bots.createInstruction(companyIdOf(request), request.body);
        return reply.status(201).send({ message: translate(request.lang, 'instructions.created'), data });
      },
    });

    route(app, declared.updateInstruction, {
      schema: { tags: instructionTags },
      handler: async (request) => ({
        message: translate(request.lang, 'instructions.updated'),
        data: await bots.updateInstruction(companyIdOf(request), request.params.id, request.body),
      }),
    });

    route(app, declared.removeInstructions, {
      schema: { tags: instructionTags },
      handler: async (request) => {
        await bots.removeInstructions(companyIdOf(request), request.body.ids);
        return { message: translate(request.lang, 'instructions.deleted') };
      },
    });
  };
}
