import { routes } from '@hablabot/contract/routes';
import type { FastifyInstance } from 'fastify';
import { type Guards, companyIdOf, userOf } from '../../platform/auth';
import { translate } from '../../platform/locale';
import { route } from '../../platform/route';
import type { InboxSettingsRepository } from './inbox-settings.repository';
import type { TeamService } from './team.service';

/** The company's team and its inbox settings: its admins only (agents and everyone else: 403). */
export function teamRoutes(deps: {
  team: TeamService;
  inboxSettings: InboxSettingsRepository;
  guards: Guards;
}) {
  const { team, inboxSettings, guards } = deps;
  return async (app: FastifyInstance) => {
    app.addHook('onRequest', guards.requireCompanyAdmin);
    const schema = { tags: ['team'] };

    route(app, routes.team.list, {
      schema,
      handler: async (request) => ({ data: await team.list(companyIdOf(request)) }),
    });

    route(app, routes.team.create, {
      schema,
      handler: async (request, reply) => {
        const data = await team.create(companyIdOf(request), request.body, request.lang);
        return reply.status(201).send({ message: translate(request.lang, 'team.created'), data });
      },
    });

    route(app, routes.team.update, {
      schema,
      handler: async (request) => {
        const data = await team.update(companyIdOf(request), request.params.id, request.body);
        return { message: translate(request.lang, 'team.updated'), data };
      },
    });

    route(app, routes.team.remove, {
      schema,
      handler: async (request) => {
        await team.remove(companyIdOf(request), request.params.id, userOf(request).id);
        return { message: translate(request.lang, 'team.deleted') };
      },
    });

    route(app, routes.inboxSettings.get, {
      schema: { tags: ['inbox-settings'] },
      handler: async (request) => ({ data: await inboxSettings.get(companyIdOf(request)) }),
    });

    route(app, routes.inboxSettings.save, {
      schema: { tags: ['inbox-settings'] },
      handler: async (request) => {
        const data = await inboxSettings.save(companyIdOf(request), request.body);
        return { message: translate(request.lang, 'inbox_settings.saved'), data };
      },
    });
  };
}
