import { routes } from '@hablabot/contract/routes';
import type { FastifyInstance } from 'fastify';
import { type Guards, companyIdOf } from '../../platform/auth';
import { translate } from '../../platform/locale';
import { route } from '../../platform/route';
import { originOf } from '../media/media.routes';
import type { QuickRepliesService } from './quick-replies.service';

const declared = routes.quickReplies;

/** Quick replies: the company's admins and agents read them (the composer), only its admins write them. */
export function quickRepliesRoutes(deps: {
  quickReplies: QuickRepliesService;
  guards: Guards;
  publicUrl?: string;
}) {
  const { quickReplies, guards, publicUrl } = deps;
  return async (app: FastifyInstance) => {
    const schema = { tags: ['quick-replies'] };
    const adminsOnly = { onRequest: guards.requireCompanyAdmin };

    route(app, declared.list, {
      schema,
      onRequest: guards.requireCompanyMember,
      handler: async (request) => ({
        data: await quickReplies.list(companyIdOf(request), originOf(request, publicUrl)),
      }),
    });

    route(app, declared.create, {
      schema,
      ...adminsOnly,
      handler: async (request, reply) => {
        const data = await quickReplies.create(
          companyIdOf(request),
          request.body,
          originOf(request, publicUrl),
        );
        return reply.status(201).send({ message: translate(request.lang, 'quick_replies.created'), data });
      },
    });

    route(app, declared.update, {
      schema,
      ...adminsOnly,
      handler: async (request) => {
        const data = await quickReplies.update(
          companyIdOf(request),
          request.params.id,
          request.body,
          originOf(request, publicUrl),
        );
        return { message: translate(request.lang, 'quick_replies.updated'), data };
      },
    });

    route(app, declared.remove, {
      schema,
      ...adminsOnly,
      handler: async (request) => {
        await quickReplies.remove(companyIdOf(request), request.params.id);
        return { message: translate(request.lang, 'quick_replies.deleted') };
      },
    });
  };
}
