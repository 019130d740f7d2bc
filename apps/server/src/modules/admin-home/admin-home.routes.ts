import { routes } from '@hablabot/contract/routes';
import type { FastifyInstance } from 'fastify';
import { companyIdOf, type Guards } from '../../platform/auth';
import type { AdminHomeService } from './admin-home.service';
import { route } from '../../platform/route';

const declared = routes.adminHome;

/** GET /admin/home-summary: the admin home's figures, for the signed-in admin's company only. */
export function adminHomeRoutes(deps: { adminHome: AdminHomeService; guards: Guards }) {
  const { adminHome, guards } = deps;
  return async (app: FastifyInstance) => {
    app.addHook('onRequest', guards.requireCompanyAdmin);
    route(app, declared.summary, {
      schema: { tags: ['admin-home'] },
      handler: async (request) => ({ data: await adminHome.summary(companyIdOf(request)) }),
    });
  };
}
