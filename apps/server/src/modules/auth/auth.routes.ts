import { routes } from '@hablabot/contract/routes';
import { randomBytes } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import type { Guards } from '../../platform/auth';
import { translate } from '../../platform/locale';
import type { AuthService } from './auth.service';
import { route } from '../../platform/route';

const declared = routes.auth;

/** Public auth routes take small JSON bodies only: an anonymous caller cannot make the server parse megabytes. */
export const PUBLIC_AUTH_BODY_LIMIT = 16 * 1024;

export function authRoutes(deps: { auth: AuthService; guards: Guards }) {
  const { auth, guards } = deps;
  return async (app: FastifyInstance) => {
    route(app, declared.login, {
      bodyLimit: PUBLIC_AUTH_BODY_LIMIT,
      schema: { tags: ['auth'] },
      handler: async (request) => {
        const result = await auth.login(request.body, request.ip);
        return { ...result, message: translate(request.lang, 'auth.login_ok') };
      },
    });

    route(app, declared.register, {
      bodyLimit: PUBLIC_AUTH_BODY_LIMIT,
      schema: { tags: ['auth'] },
      handler: async (request, reply) => {
        await auth.register(request.body, request.lang, request.ip);
        return reply
          .status(201)
          .send({ success: true, message: translate(request.lang, 'auth.register_ok') });
      },
    });

    route(app, declared.logout, {
      onRequest: guards.requireAuth,
      schema: { tags: ['auth'] },
      handler: async (request) => {
        await auth.logout(request.auth!.tokenId, request.auth!.user.id);
        return { success: true, message: translate(request.lang, 'auth.logout_ok') };
      },
    });

    route(app, declared.account, {
      onRequest: guards.requireAuth,
      schema: { tags: ['auth'] },
      handler: async (request) => {
        const user = await auth.updateAccount(request.auth!.user.id, request.auth!.tokenId, request.body);
        const key = request.body.password ? 'account.password_changed' : 'account.updated';
        return { success: true as const, message: translate(user.language, key), user };
      },
    });

    route(app, declared.setLanguage, {
      bodyLimit: PUBLIC_AUTH_BODY_LIMIT,
      onRequest: guards.optionalAuth,
      schema: { tags: ['auth'] },
      handler: async (request) => {
        const { language } = request.body;
        if (request.auth) {
          await auth.setLanguage(request.auth.user.id, language);
          return { success: true, message: translate(language, 'language.updated') };
        }
        return { success: true, message: translate(language, 'language.temporary') };
      },
    });
  };
}

/**
 * Laravel Sanctum's handshake, kept because the web app calls it before login; bearer tokens carry the auth.
 * The cookie plugin is registered here, for this route alone: no other route reads or sets cookies, so
 * the rest of the API does not pay for its hooks.
 */
export async function csrfCookieRoute(instance: FastifyInstance) {
  await instance.register(fastifyCookie);
  instance.get(
    '/sanctum/csrf-cookie',
    { schema: { tags: ['auth'], hide: true } },
    async (_request, reply) => {
      reply.setCookie('XSRF-TOKEN', randomBytes(32).toString('base64url'), {
        path: '/',
        sameSite: 'lax',
        secure: false,
        httpOnly: false,
        maxAge: 2 * 60 * 60,
      });
      return reply.status(204).send();
    },
  );
}
