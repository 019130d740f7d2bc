import { ZErrorResponse, ZValidationErrorResponse } from '@hablabot/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { forbidden } from '../../platform/errors';
import type { Metrics } from '../../platform/metrics';
import { typed } from '../../platform/http';
import type { SettingsRepository } from '../settings/settings.repository';
import type { TemplateStatusReceiver } from '../templates/template-status';
import type { InboundService } from './inbound.service';
import type { WebhookInbox } from './webhook-inbox';

/** WhatsApp's notifications are a few KB; a megabyte leaves room for a batch and refuses floods early. */
export const WEBHOOK_BODY_LIMIT = 1024 * 1024;

const ZHandshakeQuery = z.object({
  'hub.mode': z.string().max(64).optional(),
  'hub.verify_token': z.string().max(256).optional(),
  'hub.challenge': z.string().max(1024).optional(),
});

/**
 * The WhatsApp Cloud API webhook (Meta calls it; no bearer token). GET is the verification handshake;
 * POST delivers customers' messages and delivery statuses, checked against X-Hub-Signature-256, kept
 * in the webhook inbox (one insert) before the 200; they are processed from there (webhook-inbox.ts).
 */
export function webhookRoutes(deps: {
  settingsRepository: Pick<SettingsRepository, 'findCompanyIdByHubVerifyToken'>;
  inbound: Pick<InboundService, 'accept'>;
  /** Meta's review of the company's templates (its own fields of the same webhook). */
  templateStatus?: Pick<TemplateStatusReceiver, 'check'>;
  webhookInbox: Pick<WebhookInbox, 'take'>;
  metrics?: Pick<Metrics, 'webhook'>;
}) {
  const { settingsRepository, inbound } = deps;
  return async (instance: FastifyInstance) => {
    const app = typed(instance);
    // The signature covers the exact bytes Meta sent: keep them whole instead of parsing JSON here.
    instance.removeAllContentTypeParsers();
    instance.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT },
      (_req, body, done) => done(null, body),
    );
    const tags = ['webhooks'];

    app.get(
      '/webhooks/whatsapp',
      {
        schema: {
          tags,
          security: [],
          summary: "WhatsApp's verification handshake",
          description:
            'Answers hub.challenge as plain text when hub.mode is "subscribe" and hub.verify_token is a company\'s hub verify token; 403 otherwise.',
          querystring: ZHandshakeQuery,
          response: { 200: z.string(), 403: ZErrorResponse },
        },
        // Whatever the query holds, a failed handshake is the same 403 (nothing to learn from a 422).
        attachValidation: true,
      },
      async (request, reply) => {
        const q = request.validationError ? {} : request.query;
        const token = q['hub.verify_token'];
        const challenge = q['hub.challenge'];
        const owner =
          q['hub.mode'] === 'subscribe' && token && challenge !== undefined
            ? await settingsRepository.findCompanyIdByHubVerifyToken(token)
            : undefined;
        if (owner === undefined) {
          request.log.warn('whatsapp webhook handshake refused');
          throw forbidden();
        }
        request.log.info({ companyId: owner }, 'whatsapp webhook handshake accepted');
        return reply
          .status(200)
          .type('text/plain; charset=utf-8')
          .send(challenge ?? '');
      },
    );

    app.post(
      '/webhooks/whatsapp',
      {
        bodyLimit: WEBHOOK_BODY_LIMIT,
        schema: {
          tags,
          security: [],
          summary: 'Messages and delivery statuses from the WhatsApp Cloud API',
          response: {
            200: z.object({ success: z.literal(true) }),
            401: ZErrorResponse,
            422: ZValidationErrorResponse,
          },
        },
      },
      async (request) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const header = request.headers['x-hub-signature-256'];
        const signature = typeof header === 'string' ? header : undefined;
        const accepted = await inbound.accept(raw, signature, request.log);
        const templateCompanies =
          (await deps.templateStatus?.check(accepted.body, raw, signature, request.log)) ?? [];
        const companyIds = [...new Set([...accepted.companyIds, ...templateCompanies])];
        // Nothing for a company of ours: nothing to keep (WhatsApp stops retrying on the 200).
        if (companyIds.length === 0) {
          const ignored = accepted.messages + accepted.statuses;
          request.log.info({ webhook: { ignored } }, 'whatsapp webhook');
          deps.metrics?.webhook({ stored: 0, duplicates: 0, statuses: 0, ignored });
          return { success: true as const };
        }
        const delivery = await deps.webhookInbox.take(raw, { companyIds });
        request.log.info(
          { delivery, messages: accepted.messages, statuses: accepted.statuses },
          'whatsapp webhook taken',
        );
        return { success: true as const };
      },
    );
  };
}
