import type { MessageTemplate, SendTemplateMessageInput } from '@hablabot/contract';
import { hostOf } from '../../integrations/http/outbound';
import type { TokenWatcher } from '../../integrations/whatsapp/cloud-api';
import { listTemplates, type TemplatesListing } from '../../integrations/whatsapp/templates';
import { AppError, type FieldError, invalid, notFound } from '../../platform/errors';
import type { ClientsRepository } from '../clients/clients.repository';
import type { OutboundService, SendOutcome } from '../messaging/outbound.service';
import type { Credentials } from '../settings/settings.service';
import { graphCallError } from './graph-errors';
import {
  bodyText,
  fillPlaceholders,
  type ParameterProblem,
  parameterProblems,
  placeholdersOf,
  quickReplyComponents,
} from './template-parameters';
import type { TemplateSendComponents } from './template-send-components';
import type { TemplatesRepository, TemplateValues } from './templates.repository';

declare module '../../platform/jobs/jobs' {
  interface JobPayloads {
    /** Copies the company's templates from its WhatsApp Business Account into the database. */
    'templates.sync': { companyId: number };
  }
}

/** How long one page of the template listing may take. */
export const TEMPLATES_SYNC_TIMEOUT_MS = 15_000;

/** Sends a template message through WhatsApp and stores it in the chat (the outbound service). */
export type TemplateSender = Pick<OutboundService, 'sendTemplate'>;

const PARAMETER_KEYS: Record<ParameterProblem, string> = {
  missing: 'templates.parameter_missing',
  empty: 'templates.parameter_empty',
  extra: 'templates.parameter_extra',
  format: 'templates.parameter_format',
};

/** Settings a sync needs, by the settings form's field names. */
const SYNC_SETTINGS = ['whatsAppApiKey', 'whatsAppBusinessAccountId'] as const;
/** Settings a send needs. */
const SEND_SETTINGS = ['whatsAppApiKey', 'whatsAppPhoneId'] as const;

/** A refused listing as an answer the admin can act on: 422 for the settings to fix, 502 for WhatsApp. */
function listingError(failure: Extract<TemplatesListing, { ok: false }>, credentials: Credentials): AppError {
  const host = hostOf(credentials.facebookMessagesApiUrl);
  const detail = (failure.detail ?? '').slice(0, 300);
  const common = graphCallError(failure.problem, credentials);
  if (common) return common;
  switch (failure.problem) {
    case 'too_many_pages':
      return new AppError(502, 'templates.too_many_pages', { pages: detail });
    case 'unexpected_answer':
      return new AppError(502, 'templates.unexpected_answer', { host, status: failure.status ?? 0 });
    default:
      return detail
        ? new AppError(502, 'templates.provider_error', { detail })
        : new AppError(502, 'templates.provider_error_plain', { status: failure.status ?? 0 });
  }
}

/**
 * The company's WhatsApp message templates: the copy in our database (listed without asking WhatsApp),
 * the sync that refreshes it from the WhatsApp Business Account, and sending one to a client once its
 * placeholders are checked.
 */
export function createTemplatesService(deps: {
  templatesRepository: TemplatesRepository;
  clientsRepository: Pick<ClientsRepository, 'findClient'>;
  settings: { credentials(companyId: number): Promise<Credentials> };
  /** The send path: stores the message in the chat and sends it through WhatsApp. */
  outbound: TemplateSender;
  timeoutMs?: number;
  /** Templates asked for per page, and pages read at most (see integrations/whatsapp/templates.ts). */
  pageSize?: number;
  maxPages?: number;
  /** Told when WhatsApp refuses the stored token (190) or accepts it (token-health.ts). */
  tokens?: TokenWatcher;
  /** The header file and URL button values a send carries (template-send-components.ts). */
  sendComponents: TemplateSendComponents;
}) {
  const { templatesRepository, clientsRepository } = deps;

  return {
    /** The company's templates by name, as the last sync stored them. */
    async list(companyId: number): Promise<MessageTemplate[]> {
      return templatesRepository.listTemplates(companyId);
    },

    /**
     * Reads every template of the company's WhatsApp Business Account and makes the stored ones match:
     * new ones added, changed ones updated, ones deleted in WhatsApp removed, all in one transaction. A
     * refused or incomplete listing changes nothing. The templates as they are now.
     */
    async sync(companyId: number): Promise<{ templates: MessageTemplate[]; removed: number }> {
      const credentials = await deps.settings.credentials(companyId);
      const absent = SYNC_SETTINGS.filter((field) => !credentials[field]);
      if (absent.length > 0) {
        const fieldErrors: Record<string, FieldError[]> = {};
        for (const field of absent) fieldErrors[field] = ['templates.setting_required'];
        const key =
          absent.length === 2
            ? 'templates.missing_settings'
            : absent[0] === 'whatsAppApiKey'
              ? 'templates.missing_token'
              : 'templates.missing_account';
        throw new AppError(422, key, undefined, fieldErrors);
      }
      const listing = await listTemplates({
        baseUrl: credentials.facebookMessagesApiUrl,
        token: credentials.whatsAppApiKey!,
        businessAccountId: credentials.whatsAppBusinessAccountId!,
        timeoutMs: deps.timeoutMs ?? TEMPLATES_SYNC_TIMEOUT_MS,
        pageSize: deps.pageSize,
        maxPages: deps.maxPages,
      });
      if (!listing.ok && listing.problem === 'bad_token') await deps.tokens?.refused(companyId);
      if (!listing.ok) throw listingError(listing, credentials);
      await deps.tokens?.accepted(companyId);

      // WhatsApp names a template by name and language; should a listing hold one twice, the first wins.
      const unique = new Map<string, TemplateValues>();
      for (const t of listing.templates) {
        const key = `${t.language}\u0000${t.name}`;
        if (unique.has(key)) continue;
        unique.set(key, {
          meta_id: t.metaId,
          name: t.name,
          language: t.language,
          status: t.status,
          category: t.category,
          components: t.components,
          rejected_reason: t.rejectedReason,
          quality: t.quality,
        });
      }
      const { deleted } = await templatesRepository.replaceTemplates(companyId, [...unique.values()]);
      return { templates: await templatesRepository.listTemplates(companyId), removed: deleted };
    },

    /**
     * Sends an approved template to one of the company's clients. Before anything is sent: the client
     * must be the company's (404), the phone (when given) the client's, the template known and
     * APPROVED, `bodyParameters` a non-blank value for each placeholder of the body and nothing else
     * (422 naming each wrong parameter), the header file of a media header and the suffix of each URL
     * button that takes one (template-send-components.ts), and the WhatsApp token and phone number id
     * set (422).
     * Templates may be sent at any time, outside the 24-hour window. WhatsApp's answer is in the
     * outcome: sent, retrying (a job tries again) or failed (kept as not sent, with the reason).
     */
    async send(
      companyId: number,
      input: SendTemplateMessageInput,
      /** The agent sending it, its author in the chat. */
      authorUserId?: number,
      /** Where a header file's public link starts (PUBLIC_URL, or the request's origin). */
      origin = 'http://localhost',
    ): Promise<SendOutcome> {
      const client = await clientsRepository.findClient(companyId, input.client_id);
      if (!client) throw notFound('clients.not_found');
      if (input.phone !== undefined && client.whatsapp_cellphone !== input.phone)
        throw invalid('phone', 'templates.phone_mismatch');
      // A customer who opted out of campaigns gets a template only when the agent confirms it.
      if (client.opted_out_at && input.confirm_opted_out !== true)
        throw new AppError(409, 'templates.client_opted_out', undefined, {
          confirm_opted_out: ['templates.client_opted_out'],
        });

      const named = await templatesRepository.findTemplatesByName(companyId, input.templateName);
      const language = input.language || undefined;
      const candidates = language ? named.filter((t) => t.language === language) : named;
      if (candidates.length === 0) {
        if (language && named.length > 0)
          throw invalid('language', 'templates.unknown_language', {
            name: input.templateName,
            languages: named.map((t) => t.language).join(', '),
          });
        throw invalid('templateName', 'templates.unknown_template', { name: input.templateName });
      }
      if (candidates.length > 1) {
        throw invalid('language', 'templates.language_required', {
          name: input.templateName,
          languages: candidates.map((t) => t.language).join(', '),
        });
      }
      const template = candidates[0];
      if (template.status !== 'APPROVED') {
        throw invalid('templateName', 'templates.not_approved', {
          name: template.name,
          status: template.status,
        });
      }

      const body = bodyText(template);
      const placeholders = placeholdersOf(body);
      const problems = parameterProblems(placeholders, input.bodyParameters);
      if (problems.length > 0) {
        const fieldErrors: Record<string, FieldError[]> = {};
        for (const { n, problem } of problems) {
          fieldErrors[`bodyParameters.${n}`] = [{ key: PARAMETER_KEYS[problem], params: { n } }];
        }
        const first = problems[0];
        throw new AppError(422, PARAMETER_KEYS[first.problem], { n: first.n }, fieldErrors);
      }

      const values = Object.fromEntries(
        placeholders.map((n) => [String(n), input.bodyParameters[String(n)].trim()]),
      );
      // A media header's file and the URL buttons' suffixes (422 on their fields when missing).
      const extra = await deps.sendComponents.components(companyId, template, input, origin);
      // Settings first: a send that cannot go out is refused here rather than stored as failed.
      const credentials = await deps.settings.credentials(companyId);
      const absent = SEND_SETTINGS.filter((field) => !credentials[field]);
      if (absent.length > 0) {
        const fieldErrors: Record<string, FieldError[]> = {};
        for (const field of absent) fieldErrors[field] = ['templates.setting_required'];
        throw new AppError(422, 'templates.send_not_configured', undefined, fieldErrors);
      }
      return deps.outbound.sendTemplate({
        companyId,
        clientId: client.id,
        template: { name: template.name, language: template.language },
        bodyParameters: placeholders.map((n) => values[String(n)]),
        // Quick replies carry their payloads, which WhatsApp hands back with the customer's answer.
        components: [...extra, ...quickReplyComponents(template)],
        content: body ? fillPlaceholders(body, values) : (input.message ?? template.name),
        authorUserId,
        sendAt: input.send_at,
      });
    },
  };
}

export type TemplatesService = ReturnType<typeof createTemplatesService>;
