import { routes } from '@hablabot/contract/routes';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { translate } from '../../platform/locale';
import type { ClientImportService } from '../clients/clients-import.service';
import type { WordPressAuth } from './wordpress.service';
import { route } from '../../platform/route';

const declared = routes.wordpress;

/** Headers a WordPress site signs its calls with. */
export const WORDPRESS_KEY_HEADER = 'x-hablabot-key';
export const WORDPRESS_SECRET_HEADER = 'x-hablabot-secret';

const header = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return typeof value === 'string' ? value.trim() : undefined;
};

const security = [{ hablabotKey: [], hablabotSecret: [] }];

/**
 * The WordPress connection: a company's site pushes contacts (a contact form, a shop's sign-ups) with
 * the key and secret from the settings screen. A contact is one CSV-import row: the same columns, the
 * same rules and the same answer.
 */
export function wordpressRoutes(deps: { wordpressAuth: WordPressAuth; clientImport: ClientImportService }) {
  const { wordpressAuth, clientImport } = deps;
  const companyOf = new WeakMap<FastifyRequest, number>();

  return async (app: FastifyInstance) => {
    // The key and secret are checked before the body is read: a stranger learns nothing from validation.
    app.addHook('onRequest', async (request) => {
      const companyId = await wordpressAuth.authenticate(
        header(request, WORDPRESS_KEY_HEADER),
        header(request, WORDPRESS_SECRET_HEADER),
        request.ip,
      );
      companyOf.set(request, companyId);
    });
    const tags = ['integrations'];

    route(app, declared.ping, {
      schema: { tags, security, summary: 'Checks the WordPress key and secret' },
      handler: async (request) => ({
        success: true as const,
        message: translate(request.lang, 'wordpress.ping_ok'),
      }),
    });

    route(app, declared.upsertClient, {
      bodyLimit: 64 * 1024,
      schema: {
        tags,
        security,
        summary: 'Creates a client by phone, or fills the empty fields of an existing one',
        description:
          'Headers X-HablaBot-Key and X-HablaBot-Secret (from the settings screen). The body is one contact keyed like ' +
          'a CSV import row: nombre/name, apellidos/last_names, celular/whatsapp/phone, correo/email, proyectos/projects, ' +
          "segmentos/segments (existing segment names separated by ',', ';' or '|'). An existing client (same phone) keeps " +
          'every non-empty name, last names, email and projects; only empty ones are filled and segments are added. ' +
          '201 when created, 200 when updated, 422 with the reasons when the row is refused. Wrong or missing key or ' +
          'secret: 401; after 10 failures from one address in 15 minutes: 429; past 600 contacts of one company in a ' +
          'minute: 429 with Retry-After.',
      },
      handler: async (request, reply) => {
        const companyId = companyOf.get(request)!;
        await wordpressAuth.countWrite(companyId);
        // A push fills what the client lacks and adds segments; what is stored (say, from WhatsApp) stays.
        const result = await clientImport.importClients(companyId, [request.body], request.lang, {
          fillEmpty: true,
        });
        const data = { error: result.error, success: result.success };
        const saved = result.success[0];
        if (saved) {
          const created = saved.action === 'created';
          return reply.status(created ? 201 : 200).send({
            data,
            message: translate(
              request.lang,
              created ? 'wordpress.client_created' : 'wordpress.client_updated',
            ),
          });
        }
        const message = result.error[0]?.message ?? translate(request.lang, 'wordpress.empty');
        return reply.status(422).send({ message, errors: { client: [message] }, data });
      },
    });
  };
}
