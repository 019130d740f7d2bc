import { routes } from '@hablabot/contract/routes';
import type { FastifyInstance } from 'fastify';
import { type Guards, companyIdOf } from '../../platform/auth';
import { translate } from '../../platform/locale';
import { route } from '../../platform/route';
import type { SegmentsService } from './segments.service';

const declared = routes.segments;

export function segmentsRoutes(deps: { segments: SegmentsService; guards: Guards }) {
  const { segments, guards } = deps;
  return async (app: FastifyInstance) => {
    app.addHook('onRequest', guards.requireCompanyAdmin);
    const schema = { tags: ['segments'] };

    route(app, declared.list, {
      schema,
      handler: async (request) => ({
        segments: await segments.list(companyIdOf(request)),
        message: translate(request.lang, 'segments.listed'),
      }),
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
