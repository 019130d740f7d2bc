import type { Language } from '@hablabot/contract';
import { routes } from '@hablabot/contract/routes';
import type { FastifyInstance } from 'fastify';
import { type Guards, companyIdOf, userOf } from '../../platform/auth';
import { translate } from '../../platform/locale';
import type { ConversationAccess } from '../conversations/conversation-access';
import { originOf } from '../media/media.routes';
import { adminsOrMembers, conversationGuard, forTeamMembers } from '../conversations/conversation-guard';
import type { SendOutcome } from '../messaging/outbound.service';
import { WHATSAPP_ERRORS, explainError } from '../messaging/whatsapp-errors';
import type { TemplateAuthoring } from './template-authoring';
import type { TemplatesService } from './templates.service';
import { route } from '../../platform/route';

const declared = routes.templates;

/** Why WhatsApp did not take the template, in words the admin can act on. */
function failureReason(lang: Language, failure: NonNullable<SendOutcome['failure']>): string {
  if (failure.kind !== 'whatsapp') return translate(lang, `templates.reason.${failure.kind}`);
  if (failure.code !== null && WHATSAPP_ERRORS[failure.code])
    return explainError(lang, failure.code, failure.message).explanation;
  return translate(lang, 'templates.reason.other', {
    text: failure.message.slice(0, 300),
    code: failure.code ?? '-',
  });
}

/** The company's WhatsApp message templates: the stored list, the sync from WhatsApp, and sending one. */
export function templatesRoutes(deps: {
  templates: TemplatesService;
  templateAuthoring: TemplateAuthoring;
  conversationAccess: ConversationAccess;
  guards: Guards;
  /** PUBLIC_URL when set: where a template header file's public link starts. */
  publicUrl?: string;
}) {
  const { templates, templateAuthoring, guards } = deps;
  return async (app: FastifyInstance) => {
    // onRequest, not preHandler: a stranger's body is never read, and 401/403 come before any 422.
    // Admins only, except reading the list and sending one in the chat, which agents do too (to the
    // conversations they may see: modules/conversations/conversation-access.ts).
    app.addHook('onRequest', adminsOrMembers(guards));
    const tags = ['templates'];
    const visible = conversationGuard(deps.conversationAccess);

    route(app, declared.list, {
      ...forTeamMembers,
      schema: { tags },
      handler: async (request) => ({ data: await templates.list(companyIdOf(request)) }),
    });

    // A GET, as the web app calls it; it reads from WhatsApp and rewrites the stored copy.
    route(app, declared.sync, {
      schema: { tags },
      handler: async (request) => {
        const { templates: data } = await templates.sync(companyIdOf(request));
        return {
          success: true,
          message: translate(request.lang, 'templates.synced', { count: data.length }),
          data,
        };
      },
    });

    // The body was checked with Meta's rules (422 with field messages); only a valid template reaches Meta.
    route(app, declared.create, {
      schema: { tags },
      handler: async (request, reply) => {
        const data = await templateAuthoring.create(companyIdOf(request), request.body);
        return reply.status(201).send({
          message: translate(request.lang, 'templates.created', { name: data.name }),
          data,
        });
      },
    });

    route(app, declared.remove, {
      schema: { tags },
      handler: async (request) => {
        const removed = await templateAuthoring.remove(companyIdOf(request), request.params.id);
        return { message: translate(request.lang, 'templates.deleted', { name: removed.name }) };
      },
    });

    route(app, declared.send, {
      ...forTeamMembers,
      schema: { tags },
      handler: async (request, reply) => {
        await visible.assertVisible(request, request.body.client_id);
        const {
          message: data,
          outcome,
          failure,
        } = await templates.send(
          companyIdOf(request),
          request.body,
          userOf(request).id,
          originOf(request, deps.publicUrl),
        );
        // Refused: the chat keeps the message as not sent (status 4, with the reason) to resend later.
        if (outcome === 'failed') {
          return reply.status(502).send({
            message: translate(request.lang, 'templates.send_failed', {
              reason: failure ? failureReason(request.lang, failure) : '',
            }),
          });
        }
        return reply.status(201).send({
          success: true as const,
          message: translate(
            request.lang,
            outcome === 'scheduled'
              ? 'messaging.scheduled'
              : outcome === 'sent'
                ? 'templates.sent'
                : 'templates.retrying',
          ),
          data,
        });
      },
    });
  };
}
