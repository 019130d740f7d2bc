import { ZAdminHomeSummaryResponse } from '@hablabot/contract';
import type { FastifyInstance } from 'fastify';
import { companyIdOf, type Guards } from '../../platform/auth';
import { errorResponses, typed } from '../../platform/http';
import type { AdminHomeService } from './admin-home.service';

/** GET /admin/home-summary: the admin home's figures, for the signed-in admin's company only. */
export function adminHomeRoutes(deps: { adminHome: AdminHomeService; guards: Guards }) {
  const { adminHome, guards } = deps;
  return async (instance: FastifyInstance) => {
    const app = typed(instance);
    app.addHook('onRequest', guards.requireCompanyAdmin);
    app.get(
      '/admin/home-summary',
      { schema: { tags: ['admin-home'], response: { 200: ZAdminHomeSummaryResponse, ...errorResponses } } },
      async (request) => ({ data: await adminHome.summary(companyIdOf(request)) }),
    );
  };
}
