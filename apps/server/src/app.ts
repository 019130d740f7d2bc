import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Container } from './container';
import { authRoutes, csrfCookieRoute } from './modules/auth/auth.routes';
import { clientsRoutes } from './modules/clients/clients.routes';
import { segmentsRoutes } from './modules/clients/segments.routes';
import { superAdminRoutes } from './modules/super-admin/super-admin.routes';
import { systemRoutes } from './modules/system/system.routes';
import { installErrorHandling } from './platform/error-handler';
import { resolveLanguage } from './platform/locale';
import { serveWebApp } from './platform/web';
import './platform/zod-config';

export interface AppOptions {
  container: Container;
  logger?: FastifyServerOptions['logger'];
  trustProxy?: boolean;
  /** Folder of the built web app; unset serves only the API. */
  webDist?: string;
  bodyLimit?: number;
}

/** Log lines never carry passwords, tokens or cookies. */
export const LOG_REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.token',
  '*.password_hash',
  '*.openaiApiKey',
  '*.whatsAppApiKey',
];

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { container } = options;
  const app = Fastify({
    logger: options.logger ?? false,
    trustProxy: options.trustProxy ?? false,
    bodyLimit: options.bodyLimit ?? 10 * 1024 * 1024,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.decorateRequest('auth', null);
  app.decorateRequest('lang', 'es');
  app.addHook('onRequest', async (request, reply) => {
    request.lang = resolveLanguage(request.headers['accept-language']);
    reply.header('x-request-id', request.id);
  });

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(fastifyCookie);
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'HablaBot API', version: '1.0.0', description: 'HTTP API of HablaBot (see API.md).' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });

  const fallback = options.webDist ? await serveWebApp(app, options.webDist) : undefined;
  installErrorHandling(app, fallback);

  await app.register(csrfCookieRoute);
  await app.register(
    async (api) => {
      await api.register(csrfCookieRoute);
      await api.register(
        systemRoutes({
          health: {
            engine: container.infra.database.engine,
            pingDatabase: container.infra.database.ping,
            pingQueue: container.infra.redis
              ? async () => {
                  await container.infra.redis!.ping();
                }
              : undefined,
          },
        }),
      );
      await api.register(authRoutes(container));
      await api.register(superAdminRoutes(container));
      await api.register(clientsRoutes(container));
      await api.register(segmentsRoutes(container));
    },
    { prefix: '/api/v1' },
  );

  return app;
}
