import type { CreateTemplateInput, MessageTemplate, TemplateComponent } from '@hablabot/contract';
import { hostOf } from '../../integrations/http/outbound';
import {
  createTemplate,
  deleteTemplate,
  type TemplateWriteFailure,
} from '../../integrations/whatsapp/template-admin';
import { uploadTemplateSample } from '../../integrations/whatsapp/resumable-upload';
import { AppError, type FieldError, invalid, notFound } from '../../platform/errors';
import type { Outbox } from '../../platform/outbox/outbox';
import type { FileStorage } from '../../platform/storage';
import type { MediaRepository } from '../media/media.repository';
import type { Credentials } from '../settings/settings.service';
import { graphCallError } from './graph-errors';
import { createTemplatesRepository, type TemplatesRepository } from './templates.repository';

/** How long one create or delete on Meta may take. */
export const TEMPLATE_WRITE_TIMEOUT_MS = 15_000;

/**
 * Meta's subcodes of a taken name: content in that language already exists (2388024), or a template of
 * that name was deleted lately and its name cannot be used yet (2388023).
 */
const NAME_TAKEN: Record<number, string> = {
  2388024: 'templates.duplicate',
  2388023: 'templates.name_deleted_recently',
};

/** Settings a create or delete needs, by the settings form's field names. */
const WRITE_SETTINGS = ['whatsAppApiKey', 'whatsAppBusinessAccountId'] as const;

/** The library file kind each media header takes. */
const HEADER_KINDS: Record<string, string> = { IMAGE: 'image', VIDEO: 'video', DOCUMENT: 'document' };
/** The file types Meta takes as a header's sample. */
const SAMPLE_TYPES = ['image/jpeg', 'image/png', 'video/mp4', 'application/pdf'];

/** Meta's refusal as an answer the admin can act on: 409/422 for what to fix here, 502/503 for WhatsApp. */
function writeError(failure: TemplateWriteFailure, credentials: Credentials): AppError {
  const host = hostOf(credentials.facebookMessagesApiUrl);
  const detail = (failure.detail ?? '').slice(0, 300);
  const common = graphCallError(failure.problem, credentials);
  if (common) return common;
  switch (failure.problem) {
    case 'refused':
      if (failure.subcode !== undefined && NAME_TAKEN[failure.subcode]) {
        const key = NAME_TAKEN[failure.subcode]!;
        return new AppError(409, key, undefined, { name: [key] });
      }
      // Meta refused the template's content: the admin changes it and tries again.
      return new AppError(
        422,
        'templates.meta_refused',
        { detail },
        {
          components: [{ key: 'templates.meta_refused', params: { detail } }],
        },
      );
    default:
      return new AppError(502, 'templates.unexpected_answer', { host, status: failure.status ?? 0 });
  }
}

/** The parts of a new template as the stored list shows them (Meta's listing shape, no examples). */
function storedComponents(components: CreateTemplateInput['components']): TemplateComponent[] {
  return components.map((c) => {
    switch (c.type) {
      case 'HEADER':
        return {
          type: 'HEADER',
          format: c.format,
          text: c.format === 'TEXT' ? (c.text ?? null) : null,
          buttons: [],
        };
      case 'BODY':
      case 'FOOTER':
        return { type: c.type, format: null, text: c.text, buttons: [] };
      default:
        return {
          type: 'BUTTONS',
          format: null,
          text: null,
          buttons: c.buttons.map((b) => ({
            type: b.type,
            text: b.text,
            url: b.type === 'URL' ? (b.url ?? null) : null,
            phone_number: b.type === 'PHONE_NUMBER' ? (b.phone_number ?? null) : null,
          })),
        };
    }
  });
}

/**
 * Templates written in HablaBot: created on the company's WhatsApp Business Account and stored as Meta
 * answered (PENDING while it reviews them; its status webhook brings the verdict, template-status.ts),
 * and deleted there and here. The request was checked with Meta's rules before (the contract's
 * ZCreateTemplateRequest), so nothing broken reaches Meta.
 */
export function createTemplateAuthoring(deps: {
  templatesRepository: Pick<TemplatesRepository, 'findTemplate' | 'metaIdOf'>;
  settings: { credentials(companyId: number): Promise<Credentials> };
  outbox: Pick<Outbox, 'transaction'>;
  /** The media library, where a media header's sample comes from. */
  mediaRepository: Pick<MediaRepository, 'findMedia'>;
  storage: Pick<FileStorage, 'get'>;
  timeoutMs?: number;
}) {
  const timeoutMs = deps.timeoutMs ?? TEMPLATE_WRITE_TIMEOUT_MS;

  async function account(companyId: number) {
    const credentials = await deps.settings.credentials(companyId);
    const absent = WRITE_SETTINGS.filter((field) => !credentials[field]);
    if (absent.length > 0) {
      const fieldErrors: Record<string, FieldError[]> = {};
      for (const field of absent) fieldErrors[field] = ['templates.setting_required'];
      throw new AppError(422, 'templates.write_not_configured', undefined, fieldErrors);
    }
    return {
      credentials,
      account: {
        baseUrl: credentials.facebookMessagesApiUrl,
        token: credentials.whatsAppApiKey!,
        businessAccountId: credentials.whatsAppBusinessAccountId!,
        timeoutMs,
      },
    };
  }

  /**
   * The components with the media header's sample uploaded to Meta (Resumable Upload API) and its handle
   * in `example.header_handle`: the library file must be the company's (422), of the header's kind and
   * a type Meta takes (JPG, PNG, MP4, PDF). Unchanged when there is no media header.
   */
  async function withSample(
    companyId: number,
    components: CreateTemplateInput['components'],
    mediaId: number,
    target: Awaited<ReturnType<typeof account>>,
  ): Promise<CreateTemplateInput['components']> {
    const at = components.findIndex((c) => c.type === 'HEADER' && c.format !== 'TEXT');
    const header = components[at];
    if (header?.type !== 'HEADER') return components;
    const media = await deps.mediaRepository.findMedia(companyId, mediaId);
    if (!media) throw invalid('header_media_id', 'templates.header_media_unknown');
    if (media.kind !== HEADER_KINDS[header.format])
      throw invalid('header_media_id', 'templates.header_media_kind');
    if (!SAMPLE_TYPES.includes(media.mime_type))
      throw invalid('header_media_id', 'templates.header_media_type');
    const file = await deps.storage.get(media.storage_key);
    if (!file) throw invalid('header_media_id', 'templates.header_media_unknown');
    const uploaded = await uploadTemplateSample(target.account, {
      name: media.file_name,
      mimeType: media.mime_type,
      size: file.size,
      stream: () => file.stream(),
    }).finally(() => file.close().catch(() => undefined));
    if (!uploaded.ok) throw writeError(uploaded, target.credentials);
    return components.map((c, i) =>
      i === at ? { ...header, example: { header_handle: [uploaded.handle] } } : c,
    );
  }

  return {
    /**
     * Creates the template on Meta and stores it (PENDING until Meta's review answers); a media header's
     * sample named by `header_media_id` is uploaded to Meta first.
     */
    async create(companyId: number, input: CreateTemplateInput): Promise<MessageTemplate> {
      const target = await account(companyId);
      const { credentials } = target;
      const { header_media_id: mediaId, ...template } = input;
      const components =
        mediaId === undefined
          ? template.components
          : await withSample(companyId, template.components, mediaId, target);
      const created = await createTemplate(target.account, { ...template, components });
      if (!created.ok) throw writeError(created, credentials);
      return deps.outbox.transaction(async (trx, events) => {
        const template = await createTemplatesRepository(trx).insertTemplate(companyId, {
          meta_id: created.metaId,
          name: input.name,
          language: input.language,
          status: created.status,
          category: created.category ?? input.category,
          components: storedComponents(input.components),
        });
        events.emit('template.changed', { companyId, templateId: template.id, deleted: null });
        return template;
      });
    },

    /**
     * Deletes one of the company's templates on Meta, then here (404 when it is not the company's).
     * One Meta no longer knows is deleted here all the same.
     */
    async remove(companyId: number, id: number): Promise<MessageTemplate> {
      const template = await deps.templatesRepository.findTemplate(companyId, id);
      const metaId = await deps.templatesRepository.metaIdOf(companyId, id);
      if (!template || metaId === undefined) throw notFound('templates.not_found');
      const { credentials, account: target } = await account(companyId);
      const deleted = await deleteTemplate(target, { name: template.name, metaId });
      const gone =
        !deleted.ok &&
        deleted.problem === 'refused' &&
        /not found|does not exist/i.test(deleted.detail ?? '');
      if (!deleted.ok && !gone) throw writeError(deleted, credentials);
      await deps.outbox.transaction(async (trx, events) => {
        if (!(await createTemplatesRepository(trx).deleteTemplate(companyId, id))) return;
        events.emit('template.changed', {
          companyId,
          templateId: id,
          deleted: { name: template.name, language: template.language },
        });
      });
      return template;
    },
  };
}

export type TemplateAuthoring = ReturnType<typeof createTemplateAuthoring>;
