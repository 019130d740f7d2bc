import { routes } from '@hablabot/contract/routes';
import type { FastifyInstance } from 'fastify';
import { type Guards, companyIdOf } from '../../platform/auth';
import { translate } from '../../platform/locale';
import { route } from '../../platform/route';
import type { BusinessHoursService } from './business-hours.service';

const SAVE_DESCRIPTION = [
  'Replaces the business hours. `days`: ranges { day, open, close }, day 0 (Sunday) to 6 (Saturday), times HH:MM',
  '(close may be 24:00), open before close, several a day without overlapping. `timezone`: an IANA zone.',
  '`holidays`: YYYY-MM-DD dates closed all day. Outside hours a customer’s first message of each closed period',
  'gets `away_message` once when `away_enabled`; when a live bot answers the customer, only the bot answers',
  'unless `away_with_bot`.',
].join(' ');

/** The company's business hours (company admins only; agents 403). */
export function businessHoursRoutes(deps: { businessHours: BusinessHoursService; guards: Guards }) {
  const { businessHours, guards } = deps;
  return async (app: FastifyInstance) => {
    app.addHook('onRequest', guards.requireCompanyAdmin);
    const tags = ['business-hours'];

    route(app, routes.businessHours.get, {
      schema: { tags, summary: "The company's business hours and away message" },
      handler: async (request) => ({ data: await businessHours.get(companyIdOf(request)) }),
    });

    route(app, routes.businessHours.save, {
      bodyLimit: 64 * 1024,
      schema: {
        tags,
        summary: "Saves the company's business hours and away message",
        description: SAVE_DESCRIPTION,
      },
      handler: async (request) => ({
        message: translate(request.lang, 'business_hours.saved'),
        data: await businessHours.save(companyIdOf(request), request.body),
      }),
    });
  };
}
