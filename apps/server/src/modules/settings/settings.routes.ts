import { routes } from '@hablabot/contract/routes';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Guards, companyIdOf } from '../../platform/auth';
import { translate } from '../../platform/locale';
import type { RateLimitStore } from '../../platform/rate-limit';
import { route } from '../../platform/route';
import { limitConnectionTests } from './settings-connection';
import type { SettingsService } from './settings.service';

const declared = routes.settings;

/** The address the caller reached us at ('https://chat.example.com'), for the webhook URL. */
export function requestOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

const SAVE_DESCRIPTION = [
  "Creates or updates the company's settings.",
  'Secrets (whatsAppApiKey, whatsAppAppSecret, openaiApiKey, wordpress_secret_key): left out, null or "" keep',
  'the stored value; a value replaces it; naming the field in `clear` (e.g. {"clear":["openaiApiKey"]}) removes it.',
  'Other fields: left out keeps the stored value; null or "" clears it (the two URLs go back to their defaults).',
  'Answers never carry a secret: its field is null and `secrets` says whether one is stored and its last four characters.',
].join(' ');

export function settingsRoutes(deps: {
  settings: SettingsService;
  guards: Guards;
  rateLimits: RateLimitStore;
}) {
  const { settings, guards, rateLimits } = deps;

  // Shared with "Probar bot" (settings-connection.ts): each one calls an outside service.
  const limitTests = (companyId: number) => limitConnectionTests(rateLimits, companyId);

  return async (app: FastifyInstance) => {
    // Company admins only; 401/403 come before the body is read.
    app.addHook('onRequest', guards.requireCompanyAdmin);
    const tags = ['settings'];

    route(app, declared.get, {
      schema: { tags, summary: "The company's settings (secrets never in clear)" },
      handler: async (request) => settings.get(companyIdOf(request), requestOrigin(request)),
    });

    route(app, declared.save, {
      bodyLimit: 64 * 1024,
      schema: { tags, summary: "Saves the company's settings", description: SAVE_DESCRIPTION },
      handler: async (request) => ({
        message: translate(request.lang, 'settings.updated'),
        data: await settings.save(companyIdOf(request), request.body, requestOrigin(request)),
      }),
    });

    route(app, declared.generate, {
      schema: {
        tags,
        summary: 'A fresh hub verify token, WordPress key or WordPress secret (not saved)',
        description:
          'hub_verify_token: 32 characters; wordpress_api_key and wordpress_secret_key: 64 characters starting with HB-. ' +
          'Characters a-z A-Z 0-9 - _ from a cryptographic random source. The value is saved only when posted to /admin/setting.',
      },
      handler: async (request) => ({
        field: request.body.field,
        value: settings.generate(request.body.field),
      }),
    });

    route(app, declared.testWhatsApp, {
      schema: {
        tags,
        summary: 'Reads the phone number from the WhatsApp Cloud API (display name and quality)',
        description:
          'Uses the values in the body, else the stored ones. A failed connection is still a 200: `success` is false, ' +
          '`problem` names it (bad_token, unknown_phone_id, unreachable, timeout …) and `message` says it in words.',
      },
      handler: async (request) => {
        const companyId = companyIdOf(request);
        await limitTests(companyId);
        return settings.testWhatsApp(companyId, request.body, request.lang);
      },
    });

    route(app, declared.testOpenAi, {
      schema: {
        tags,
        summary: 'Asks the chat endpoint for one tiny completion',
        description:
          'Uses the values in the body, else the stored ones. A failed connection is still a 200: `success` is false, ' +
          '`problem` names it (bad_token, unknown_model, no_quota, unreachable, timeout …) and `message` says it in words.',
      },
      handler: async (request) => {
        const companyId = companyIdOf(request);
        await limitTests(companyId);
        return settings.testOpenAi(companyId, request.body, request.lang);
      },
    });
  };
}
