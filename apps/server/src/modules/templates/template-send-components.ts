import type { MessageTemplate } from '@hablabot/contract';
import { AppError, type FieldError } from '../../platform/errors';
import type { FileStorage } from '../../platform/storage';
import type { MediaRepository } from '../media/media.repository';

/**
 * What a template send carries besides its body values: the file of an IMAGE, VIDEO or DOCUMENT header
 * (a media library file, fetched by WhatsApp through its public link, as a mass send's header) and the
 * suffix of each URL button whose address ends in a placeholder ('https://tienda.test/pedido/{{1}}').
 * WhatsApp refuses a send of such a template without them; here they are asked for first, and a value
 * for a part the template does not have is refused too (422 naming the field).
 */

/** The media kind a template header asks for. */
const HEADER_KINDS: Record<string, 'image' | 'video' | 'document'> = {
  IMAGE: 'image',
  VIDEO: 'video',
  DOCUMENT: 'document',
};

/** A URL with a placeholder: the button takes its suffix at send time. */
const URL_PLACEHOLDER = /\{\{\s*\d+\s*\}\}/;

/** The media kind of the template's header, if it is a media header. */
export function headerMediaKind(
  template: Pick<MessageTemplate, 'components'>,
): 'image' | 'video' | 'document' | undefined {
  const header = template.components.find((c) => c.type.toUpperCase() === 'HEADER');
  return header?.format ? HEADER_KINDS[header.format.toUpperCase()] : undefined;
}

/** The places (among the template's buttons) of the URL buttons whose address takes a suffix. */
export function urlButtonsWithParameter(template: Pick<MessageTemplate, 'components'>): number[] {
  const buttons = template.components.find((c) => c.type.toUpperCase() === 'BUTTONS')?.buttons ?? [];
  return buttons.flatMap((button, index) =>
    button.type.toUpperCase() === 'URL' && URL_PLACEHOLDER.test(button.url ?? '') ? [index] : [],
  );
}

/** WhatsApp refuses a parameter with a line break, a tab or more than four spaces in a row. */
const UNSENDABLE = /[\n\r\t]| {5,}/;

export function createTemplateSendComponents(deps: {
  mediaRepository: Pick<MediaRepository, 'findMedia'>;
  storage: Pick<FileStorage, 'publicUrl'>;
}) {
  return {
    /**
     * The header and URL button components of a send of `template`, as WhatsApp takes them; 422 with a
     * message per field when the header file or a button's value is missing, blank or not asked for.
     */
    async components(
      companyId: number,
      template: Pick<MessageTemplate, 'components'>,
      input: { media_id?: number; buttonParameters?: Record<string, string> },
      origin: string,
    ): Promise<unknown[]> {
      const fieldErrors: Record<string, FieldError[]> = {};
      const components: unknown[] = [];

      const kind = headerMediaKind(template);
      if (kind) {
        if (!input.media_id)
          fieldErrors.media_id = [{ key: 'templates.send_media_required', params: { kind } }];
        else {
          const media = await deps.mediaRepository.findMedia(companyId, input.media_id);
          if (!media) fieldErrors.media_id = ['templates.send_media_unknown'];
          else if (media.kind !== kind)
            fieldErrors.media_id = [{ key: 'templates.send_media_kind', params: { kind } }];
          else {
            const ref: Record<string, string> = {
              link: new URL(deps.storage.publicUrl(media.storage_key), origin).toString(),
            };
            if (kind === 'document') ref.filename = media.file_name;
            components.push({ type: 'header', parameters: [{ type: kind, [kind]: ref }] });
          }
        }
      } else if (input.media_id !== undefined) fieldErrors.media_id = ['templates.send_media_extra'];

      const given = input.buttonParameters ?? {};
      const wanted = urlButtonsWithParameter(template);
      for (const index of wanted) {
        const value = given[String(index)]?.trim() ?? '';
        const field = `buttonParameters.${index}`;
        if (value === '')
          fieldErrors[field] = [{ key: 'templates.button_parameter_missing', params: { n: index + 1 } }];
        else if (UNSENDABLE.test(value))
          fieldErrors[field] = [{ key: 'templates.button_parameter_format', params: { n: index + 1 } }];
        else
          components.push({
            type: 'button',
            sub_type: 'url',
            index: String(index),
            parameters: [{ type: 'text', text: value }],
          });
      }
      for (const key of Object.keys(given))
        if (!wanted.includes(Number(key)))
          fieldErrors[`buttonParameters.${key}`] = [
            { key: 'templates.button_parameter_extra', params: { n: Number(key) + 1 } },
          ];

      const fields = Object.keys(fieldErrors);
      if (fields.length > 0) {
        const first = fieldErrors[fields[0]][0];
        throw typeof first === 'string'
          ? new AppError(422, first, undefined, fieldErrors)
          : new AppError(422, first.key, first.params, fieldErrors);
      }
      return components;
    },
  };
}

export type TemplateSendComponents = ReturnType<typeof createTemplateSendComponents>;
