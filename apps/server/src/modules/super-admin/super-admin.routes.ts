import { routes } from '@hablabot/contract/routes';
import type { FastifyInstance } from 'fastify';
import type { Guards } from '../../platform/auth';
import { translate } from '../../platform/locale';
import type { WebhookDeliveries } from '../messaging/webhook-deliveries';
import type { PlatformStatsService } from './platform-stats.service';
import type { SuperAdminService } from './super-admin.service';
import { route } from '../../platform/route';

const declared = routes.superAdmin;

export function superAdminRoutes(deps: {
  superAdmin: SuperAdminService;
  platformStats: PlatformStatsService;
  /** The webhook inbox's deliveries (the failed ones, their replay). */
  webhookDeliveries: WebhookDeliveries;
  guards: Guards;
}) {
  const { superAdmin, platformStats, guards } = deps;
  return async (app: FastifyInstance) => {
    app.addHook('onRequest', guards.requireRole('super_admin'));
    const tags = ['super-admin'];

    route(app, declared.webhookDeliveries, {
      schema: { tags },
      handler: async (request) => deps.webhookDeliveries.list(request.query),
    });

    route(app, declared.replayWebhookDelivery, {
      schema: { tags },
      handler: async (request) => ({
        message: translate(request.lang, 'webhooks.replayed'),
        data: await deps.webhookDeliveries.replay(request.params.id),
      }),
    });

    route(app, declared.users, {
      schema: { tags },
      handler: async () => ({
        data: await superAdmin.listUsers(),
      }),
    });

    route(app, declared.companies, {
      schema: { tags },
      handler: async () => ({
        data: await superAdmin.listCompanies(),
      }),
    });

    route(app, declared.companiesOverview, {
      schema: { tags },
      handler: async () => ({ data: await platformStats.companiesOverview() }),
    });

    route(app, declared.createCompany, {
      schema: { tags },
      handler: async (request, reply) => {
        const data = await superAdmin.createCompany(request.body.name);
        return reply
          .status(201)
          .send({ success: true, message: translate(request.lang, 'companies.created'), data });
      },
    });

    route(app, declared.renameCompany, {
      schema: { tags },
      handler: async (request) => {
        const data = await superAdmin.renameCompany(request.params.id, request.body.name);
        return { success: true, message: translate(request.lang, 'companies.renamed'), data };
      },
    });

    route(app, declared.overview, {
      schema: { tags },
      handler: async () => ({ data: await platformStats.overview() }),
    });

    route(app, declared.analytics, {
      schema: { tags },
      handler: async (request) => ({ data: await platformStats.messagesPerDay(request.query.company_id) }),
    });

    route(app, declared.createUser, {
      schema: { tags },
      handler: async (request, reply) => {
        const data = await superAdmin.createUser(request.body);
        return reply
          .status(201)
          .send({ success: true, message: translate(request.lang, 'users.created'), data });
      },
    });

    route(app, declared.updateUser, {
      schema: { tags },
      handler: async (request) => {
        const data = await superAdmin.updateUser(request.params.id, request.body);
        return { success: true, message: translate(request.lang, 'users.updated'), data };
      },
    });

    route(app, declared.deleteUsers, {
      schema: { tags },
      handler: async (request) => {
        await superAdmin.deleteUsers(request.body.ids, request.auth!.user.id);
        return { success: true, message: translate(request.lang, 'users.deleted') };
      },
    });

    route(app, declared.roles, {
      schema: { tags },
      handler: async () => ({
        success: true as const,
        data: await superAdmin.listRoles(),
      }),
    });

    route(app, declared.createRole, {
      schema: { tags },
      handler: async (request, reply) => {
        const data = await superAdmin.createRole(request.body);
        return reply
          .status(201)
          .send({ success: true, message: translate(request.lang, 'roles.created'), data });
      },
    });

    route(app, declared.updateRole, {
      schema: { tags },
      handler: async (request) => {
        const data = await superAdmin.updateRole(request.params.id, request.body);
        return { success: true, message: translate(request.lang, 'roles.updated'), data };
      },
    });

    route(app, declared.deleteRole, {
      schema: { tags },
      handler: async (request) => {
        await superAdmin.deleteRole(request.params.id);
        return { success: true, message: translate(request.lang, 'roles.deleted') };
      },
    });
  };
}
