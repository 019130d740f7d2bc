import { randomUUID } from 'node:crypto';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Container } from './container';
import { authRoutes, csrfCookieRoute } from './modules/auth/auth.routes';
import { botsRoutes } from './modules/bots/bots.routes';
import { businessHoursRoutes } from './modules/business-hours/business-hours.routes';
import { invalidateChatListOn } from './modules/clients/chat-list-cache';
import { clientsRoutes } from './modules/clients/clients.routes';
import { conversationsRoutes } from './modules/conversations/conversations.routes';
import { segmentsRoutes } from './modules/clients/segments.routes';
import { wordpressRoutes } from './modules/wordpress-api/wordpress.routes';
import { settingsRoutes } from './modules/settings/settings.routes';
import { mediaRoutes } from './modules/media/media.routes';
import { massMessagesRoutes } from './modules/mass-messages/mass-messages.routes';
import { filesRoutes } from './modules/messaging/files.routes';
import { messagesRoutes } from './modules/messaging/messages.routes';
import { localizeErrors } from './modules/messaging/whatsapp-errors';
import { webhookRoutes } from './modules/messaging/webhook.routes';
import { storageRoutes } from './modules/media/storage.routes';
import { superAdminRoutes } from './modules/super-admin/super-admin.routes';
import { adminHomeRoutes } from './modules/admin-home/admin-home.routes';
import { systemRoutes } from './modules/system/system.routes';
import { templatesRoutes } from './modules/templates/templates.routes';
import { quickRepliesRoutes } from './modules/team/quick-replies.routes';
import { teamRoutes } from './modules/team/team.routes';
import { eventsRoutes } from './platform/events/events.routes';
import { createAnswerCache } from './platform/answer-cache';
import { installErrorHandling } from './platform/error-handler';
import { resolveLanguage } from './platform/locale';
import { withRequestId } from './platform/request-context';
import { lazyChildLogger, OneLinePerRequest } from './platform/request-log';
import { securityHeaders } from './platform/security-headers';
import { serveWebApp } from './platform/web';
import './platform/zod-config';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route's method and URL pattern, in the order they were registered. */
    routeTable: { method: string; url: string }[];
  }
}

export interface AppOptions {
  container: Container;
  logger?: FastifyServerOptions['logger'];
  /** false, a hop count, or the trusted proxies' addresses/CIDRs (see config/env.ts). */
  trustProxy?: boolean | number | string[];
  timeouts?: Partial<ServerTimeouts>;
  /** The bearer token that reads GET /api/v1/metrics; unset, that route answers 404. */
  metricsToken?: string;
  /** Folder of the built web app; unset serves only the API. */
  webDist?: string;
  bodyLimit?: number;
}

/**
 * How long a connection may take, in milliseconds. A client that sends half a request and stops is cut
 * off: the headers must arrive within `headers`, the whole request within `request`, a silent socket is
 * closed after `idle`, and an idle keep-alive connection after `keepAlive` (longer than the usual 60 s of
 * load balancers, so they close first).
 */
export interface ServerTimeouts {
  headers: number;
  request: number;
  idle: number;
  keepAlive: number;
}
export const DEFAULT_TIMEOUTS: ServerTimeouts = {
  headers: 15_000,
  request: 60_000,
  idle: 70_000,
  keepAlive: 65_000,
};

/** A request id the caller may choose: short and plain, so it is safe to echo and to log. */
const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

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
  '*.whatsAppAppSecret',
  '*.wordpress_secret_key',
  'req.headers["x-hablabot-secret"]',
];

/** A hop count becomes "trust that many proxies next to us"; lists and booleans pass as they are. */
function trustedProxies(
  trust: AppOptions['trustProxy'],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust ?? false;
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { container } = options;
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const app = Fastify({
    logger: options.logger ?? false,
    logController: new OneLinePerRequest(),
    childLoggerFactory: lazyChildLogger,
    trustProxy: trustedProxies(options.trustProxy),
    bodyLimit: options.bodyLimit ?? 10 * 1024 * 1024,
    // The caller's X-Request-Id is kept only when it is a short plain id; otherwise a fresh one.
    requestIdHeader: false,
    genReqId: (req) => {
      const sent = req.headers['x-request-id'];
      return typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : randomUUID();
    },
    requestTimeout: timeouts.request,
    connectionTimeout: timeouts.idle,
    keepAliveTimeout: timeouts.keepAlive,
    http: {
      headersTimeout: timeouts.headers,
      // How often Node looks for requests past their time; by default only every 30 s.
      connectionsCheckingInterval: Math.min(1000, timeouts.headers, timeouts.request),
    },
  });
  // Every route as registered (method and pattern), so tests can walk the whole API: a route added
  // later is in the authorization matrix without anyone remembering to add it.
  const routeTable: { method: string; url: string }[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routeTable.push({ method, url: route.url });
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.decorateRequest('auth', null);
  app.decorateRequest('lang', 'es');
  // One synchronous hook for what every answer carries: the caller's language, the security headers
  // (worked out once, see platform/security-headers.ts) and the request id.
  const headers = securityHeaders();
  app.addHook('onRequest', (request, reply, done) => {
    request.lang = resolveLanguage(request.headers['accept-language']);
    reply.headers(headers);
    reply.header('x-request-id', request.id);
    // The rest of the request runs as part of it: jobs it queues carry its id into their logs. Reads
    // queue no job, and entering the context costs a small read about a twentieth of its CPU, so they
    // skip it.
    if (request.method === 'GET' || request.method === 'HEAD') done();
    else withRequestId(request.id, done);
  });

  // The chat list's kept pages and segment lists (modules/clients/chat-list-cache.ts): the domain events drop them in
  // whichever instance handles them, and every write through the API drops the writer's company's
  // before it is answered (a write by no company user, such as the WordPress API's or the super admin's,
  // drops every company's). Reads, signing in and out, and the webhook's deliveries (they reach the chat
  // through events) pass.
  const chatListCache = createAnswerCache({
    redis: container.infra.redis,
    channel: `${container.infra.authCache.channel}:answers`,
  });
  const stopInvalidating = invalidateChatListOn(container.outbox, chatListCache);
  app.addHook('onClose', async () => {
    stopInvalidating();
    await chatListCache.close();
  });
  await chatListCache.ready();
  app.addHook('onSend', (request, _reply, payload, done) => {
    const method = request.method;
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return done(null, payload);
    const companyId = request.auth?.user.company_id;
    if (companyId !== null && companyId !== undefined)
      chatListCache.invalidate([companyId]).then(() => done(null, payload), done);
    else if (request.url.startsWith('/api/v1/webhooks/') || request.url.startsWith('/api/v1/auth/'))
      done(null, payload);
    else chatListCache.invalidateAll().then(() => done(null, payload), done);
  });

  // Every answer's time, by route pattern (a request no route matched counts as one pattern).
  app.addHook('onResponse', (request, reply, done) => {
    container.metrics.observeRequest(
      request.method,
      request.routeOptions.url ?? 'unmatched',
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'HablaBot API', version: '1.0.0', description: 'HTTP API of HablaBot.' },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          // The WordPress connection signs its calls with the key and secret from the settings screen.
          hablabotKey: { type: 'apiKey', in: 'header', name: 'X-HablaBot-Key' },
          hablabotSecret: { type: 'apiKey', in: 'header', name: 'X-HablaBot-Secret' },
        },
      },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });

  const fallback = options.webDist ? await serveWebApp(app, options.webDist) : undefined;
  installErrorHandling(app, fallback);

  await app.register(csrfCookieRoute);
  await app.register(storageRoutes(container));
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
            webhookLagSeconds: () => container.webhookInbox.lagSeconds(),
          },
          metrics: container.metrics,
          metricsToken: options.metricsToken,
        }),
      );
      await api.register(authRoutes(container));
      await api.register(superAdminRoutes(container));
      await api.register(adminHomeRoutes(container));
      await api.register(clientsRoutes({ ...container, chatListCache }));
      await api.register(segmentsRoutes({ ...container, answers: chatListCache }));
      await api.register(settingsRoutes({ ...container, rateLimits: container.infra.rateLimits }));
      await api.register(wordpressRoutes(container));
      await api.register(botsRoutes({ ...container, rateLimits: container.infra.rateLimits }));
      await api.register(businessHoursRoutes(container));
      await api.register(mediaRoutes(container));
      await api.register(
        eventsRoutes({
          events: container.events,
          guards: container.guards,
          authCache: container.infra.authCache,
          heartbeatMs: container.eventsHeartbeatMs,
          streamAccess: container.streamAccess,
          metrics: container.metrics,
          presence: container.streamPresence,
          localize: localizeErrors,
        }),
      );
      await api.register(webhookRoutes(container));
      await api.register(messagesRoutes(container));
      await api.register(templatesRoutes(container));
      await api.register(filesRoutes(container));
      await api.register(massMessagesRoutes(container));
      await api.register(conversationsRoutes(container));
      await api.register(teamRoutes(container));
      await api.register(quickRepliesRoutes(container));
    },
    { prefix: '/api/v1' },
  );

  return app;
}
