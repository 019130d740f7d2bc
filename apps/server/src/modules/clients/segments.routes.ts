import { routes } from '@hablabot/contract/routes';
import type { FastifyInstance } from 'fastify';
import { type Guards, companyIdOf } from '../../platform/auth';
import { translate } from '../../platform/locale';
import type { AnswerCache } from '../../platform/answer-cache';
import { route } from '../../platform/route';
import type { SegmentsService } from './segments.service';

const declared = routes.segments;

export function segmentsRoutes(deps: { segments: SegmentsService; guards: Guards; answers: AnswerCache }) {
  const { segments, guards, answers } = deps;
  const listAnswer = declared.list.responses[200];
  return async (app: FastifyInstance) => {
    app.addHook('onRequest', guards.requireCompanyAdmin);
    const schema = { tags: ['segments'] };

    // Kept serialised per company and language, dropped with the company's chat list pages: what changes
    // a segment's clients count (a client written, imported or created by a customer's first message)
    // drops those too (chat-list-cache.ts).
    route(app, declared.list, {
      schema,
      handler: async (request, reply) => {
        const companyId = companyIdOf(request);
        const body = await answers.answer(companyId, `segments|${request.lang}`, async () =>
          JSON.stringify(
            listAnswer.parse({
              segments: await segments.list(companyId),
              message: translate(request.lang, 'segments.listed'),
            }),
          ),
        );
        // Bytes already serialised: Fastify sends a Buffer as it is.
        return reply.type('application/json; charset=utf-8').send(body as never);
      },
    });

    route(app, declared.create, {
      schema,
      handler: async (request, reply) => {
        const segment = await segments.create(companyIdOf(request), request.body);
        return reply.status(201).send({ segment, message: translate(request.lang, 'segments.created') });
      },
    });

    route(app, declared.update, {
      schema,
      handler: async (request) => ({
        segment: await segments.update(companyIdOf(request), request.params.id, request.body),
        message: translate(request.lang, 'segments.updated'),
      }),
    });

    route(app, declared.remove, {
      schema,
      handler: async (request) => {
        await segments.remove(companyIdOf(request), request.params.id);
        return { message: translate(request.lang, 'segments.deleted') };
      },
    });
  };
}
