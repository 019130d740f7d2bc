import { z } from 'zod';
import { cleanText, hasForbiddenCharacters, zId } from './common.schema';
import { TEMPLATE_CATEGORIES } from './templates.schema';

/**
 * POST /templates: a template written in HablaBot, in Meta's own shape (the body Meta's
 * `POST /{waba-id}/message_templates` takes), checked here with Meta's rules so a broken one is refused
 * with field messages before anything is sent. The web's 'Nueva plantilla' form checks the same schema.
 *
 * Components: at most one HEADER (TEXT, or IMAGE/VIDEO/DOCUMENT with a sample), exactly one BODY, at
 * most one FOOTER and one BUTTONS (quick replies, up to two URL buttons, one phone button). Each
 * message is a key ('templates.body_too_long') worded by the server and the web; issues carry Meta's
 * path ('components.1.text').
 */

/** Meta's limits, in characters. */
export const TEMPLATE_LIMITS = {
  name: 512,
  header: 60,
  body: 1024,
  footer: 60,
  buttonText: 25,
  buttons: 10,
  urlButtons: 2,
  phoneButtons: 1,
  example: 200,
  url: 2000,
} as const;

export const TEMPLATE_HEADER_FORMATS = ['TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT'] as const;
export type TemplateHeaderFormat = (typeof TEMPLATE_HEADER_FORMATS)[number];
export const TEMPLATE_BUTTON_TYPES = ['QUICK_REPLY', 'URL', 'PHONE_NUMBER'] as const;

/** A template name: lower case letters, digits and `_`. */
export const TEMPLATE_NAME = /^[a-z0-9_]+$/;
/** WhatsApp's language codes: 'es', 'en_US', 'pt_BR', 'fil' … */
export const TEMPLATE_LANGUAGE = /^[a-z]{2,3}(_[A-Z]{2})?$/;
/** A phone button's number: '+' and 8 to 15 digits. */
const PHONE = /^\+[1-9][0-9]{7,14}$/;

/** The numbers of the `{{n}}` placeholders in a text, in the order they appear (repeats kept). */
export function templatePlaceholders(text: string): number[] {
  return [...text.matchAll(/\{\{\s*(\d+)\s*\}\}/g)].map((m) => Number(m[1]));
}

/** Loose text: the rules are checked by the request's refinement, so every broken one gets its message. */
const text = () => z.string().overwrite(cleanText);
const examples = () => z.array(text()).max(20);

const ZHeaderComponent = z.object({
  type: z.literal('HEADER'),
  format: z.enum(TEMPLATE_HEADER_FORMATS, { message: 'templates.header_format' }),
  text: text().optional(),
  example: z
    .object({
      header_text: examples().optional(),
      /** A sample of the media: Meta's upload handle (or `header_media_id` names a library file). */
      header_handle: z.array(z.string().max(TEMPLATE_LIMITS.url)).max(1).optional(),
    })
    .optional(),
});

const ZBodyComponent = z.object({
  type: z.literal('BODY'),
  text: text(),
  /** One example value per placeholder, in order: `{ body_text: [['Ana', '1234']] }`. */
  example: z.object({ body_text: z.array(examples()).max(1) }).optional(),
});

const ZFooterComponent = z.object({ type: z.literal('FOOTER'), text: text() });

const ZCreateButton = z.object({
  type: z.enum(TEMPLATE_BUTTON_TYPES, { message: 'templates.button_type' }),
  text: text(),
  url: z.string().max(TEMPLATE_LIMITS.url).optional(),
  phone_number: z.string().max(20).optional(),
  /** A URL button's example for the `{{1}}` at the end of its address. */
  example: examples().optional(),
});

const ZButtonsComponent = z.object({ type: z.literal('BUTTONS'), buttons: z.array(ZCreateButton).max(20) });

export const ZCreateTemplateComponent = z.discriminatedUnion(
  'type',
  [ZHeaderComponent, ZBodyComponent, ZFooterComponent, ZButtonsComponent],
  { message: 'templates.component_type' },
);
export type CreateTemplateComponent = z.infer<typeof ZCreateTemplateComponent>;

type Issue = { path: (string | number)[]; message: string; params?: Record<string, string | number> };

/** A text's own checks: required, no control characters, at most `max` long. */
function textIssues(value: string | undefined, path: Issue['path'], what: string, max: number): Issue[] {
  if (!value) return [{ path, message: `templates.${what}_required` }];
  if (hasForbiddenCharacters(value, what === 'body'))
    return [{ path, message: 'validation.text_characters' }];
  if (value.length > max) return [{ path, message: `templates.${what}_too_long`, params: { max } }];
  return [];
}

/** Placeholders numbered 1, 2, 3 … without gaps (each may repeat), and `allowed` at most. */
function placeholderIssues(value: string, path: Issue['path'], allowed: number): Issue[] {
  const numbers = [...new Set(templatePlaceholders(value))].sort((a, b) => a - b);
  if (numbers.length > allowed)
    return [{ path, message: 'templates.placeholders_too_many', params: { max: allowed } }];
  const gap = numbers.findIndex((n, i) => n !== i + 1);
  if (gap >= 0) return [{ path, message: 'templates.placeholders_order', params: { n: gap + 1 } }];
  return [];
}

/** One example value per placeholder, none blank, none longer than Meta takes. */
function exampleIssues(count: number, values: string[] | undefined, path: Issue['path']): Issue[] {
  const issues: Issue[] = [];
  for (let i = 0; i < count; i++) {
    const value = values?.[i] ?? '';
    if (!value)
      issues.push({ path: [...path, i], message: 'templates.example_required', params: { n: i + 1 } });
    else if (value.length > TEMPLATE_LIMITS.example || hasForbiddenCharacters(value))
      issues.push({ path: [...path, i], message: 'templates.example_invalid', params: { n: i + 1 } });
  }
  if ((values?.length ?? 0) > count) issues.push({ path, message: 'templates.example_extra' });
  return issues;
}

function headerIssues(c: z.infer<typeof ZHeaderComponent>, at: number, mediaSample: boolean): Issue[] {
  const path = ['components', at];
  if (c.format !== 'TEXT') {
    const handle = c.example?.header_handle?.[0];
    return handle || mediaSample
      ? []
      : [{ path: [...path, 'example', 'header_handle'], message: 'templates.header_sample_required' }];
  }
  const own = textIssues(c.text, [...path, 'text'], 'header', TEMPLATE_LIMITS.header);
  if (own.length) return own;
  const placeholders = placeholderIssues(c.text!, [...path, 'text'], 1);
  if (placeholders.length) return placeholders;
  const count = new Set(templatePlaceholders(c.text!)).size;
  return exampleIssues(count, c.example?.header_text, [...path, 'example', 'header_text']);
}

function bodyIssues(c: z.infer<typeof ZBodyComponent>, at: number): Issue[] {
  const path = ['components', at];
  const own = textIssues(c.text, [...path, 'text'], 'body', TEMPLATE_LIMITS.body);
  if (own.length) return own;
  const placeholders = placeholderIssues(c.text, [...path, 'text'], 100);
  if (placeholders.length) return placeholders;
  const count = new Set(templatePlaceholders(c.text)).size;
  return exampleIssues(count, c.example?.body_text?.[0], [...path, 'example', 'body_text', 0]);
}

function footerIssues(c: z.infer<typeof ZFooterComponent>, at: number): Issue[] {
  const path = ['components', at, 'text'];
  const own = textIssues(c.text, path, 'footer', TEMPLATE_LIMITS.footer);
  if (own.length) return own;
  return templatePlaceholders(c.text).length ? [{ path, message: 'templates.footer_placeholders' }] : [];
}

function buttonsIssues(c: z.infer<typeof ZButtonsComponent>, at: number): Issue[] {
  const path = ['components', at, 'buttons'];
  const issues: Issue[] = [];
  if (c.buttons.length === 0) issues.push({ path, message: 'templates.buttons_empty' });
  if (c.buttons.length > TEMPLATE_LIMITS.buttons)
    issues.push({ path, message: 'templates.buttons_too_many', params: { max: TEMPLATE_LIMITS.buttons } });
  const count = (type: string) => c.buttons.filter((b) => b.type === type).length;
  if (count('URL') > TEMPLATE_LIMITS.urlButtons)
    issues.push({
      path,
      message: 'templates.url_buttons_too_many',
      params: { max: TEMPLATE_LIMITS.urlButtons },
    });
  if (count('PHONE_NUMBER') > TEMPLATE_LIMITS.phoneButtons)
    issues.push({
      path,
      message: 'templates.phone_buttons_too_many',
      params: { max: TEMPLATE_LIMITS.phoneButtons },
    });
  c.buttons.forEach((b, i) => {
    const at = [...path, i];
    issues.push(...textIssues(b.text, [...at, 'text'], 'button_text', TEMPLATE_LIMITS.buttonText));
    if (b.type === 'URL') {
      const url = b.url ?? '';
      let ok = false;
      try {
        const parsed = new URL(url.replace(/\{\{1\}\}$/, 'x'));
        ok = parsed.protocol === 'https:' || parsed.protocol === 'http:';
      } catch {
        ok = false;
      }
      if (!ok) issues.push({ path: [...at, 'url'], message: 'templates.button_url' });
      else if (/\{\{\s*\d+\s*\}\}/.test(url.replace(/\{\{1\}\}$/, '')))
        issues.push({ path: [...at, 'url'], message: 'templates.button_url_placeholder' });
      else if (url.endsWith('{{1}}')) issues.push(...exampleIssues(1, b.example, [...at, 'example']));
    }
    if (b.type === 'PHONE_NUMBER' && !PHONE.test(b.phone_number ?? ''))
      issues.push({ path: [...at, 'phone_number'], message: 'templates.button_phone' });
  });
  return issues;
}

/**
 * Every broken rule of a template's components (an empty list: Meta's rules are met). `mediaSample`: a
 * media header's sample comes from the media library (`header_media_id`) rather than a handle.
 */
export function templateComponentIssues(
  components: CreateTemplateComponent[],
  options: { mediaSample?: boolean } = {},
): Issue[] {
  const issues: Issue[] = [];
  const seen = new Map<string, number>();
  components.forEach((c, at) => {
    const before = seen.get(c.type) ?? 0;
    seen.set(c.type, before + 1);
    if (before > 0) {
      issues.push({ path: ['components', at], message: 'templates.component_repeated' });
      return;
    }
    if (c.type === 'HEADER') issues.push(...headerIssues(c, at, options.mediaSample ?? false));
    else if (c.type === 'BODY') issues.push(...bodyIssues(c, at));
    else if (c.type === 'FOOTER') issues.push(...footerIssues(c, at));
    else issues.push(...buttonsIssues(c, at));
  });
  if (!seen.has('BODY')) issues.push({ path: ['components'], message: 'templates.body_required' });
  return issues;
}

/** The name, language and category rules (checked with the components, so every broken rule is told at once). */
function headIssues(request: { name: string; language: string; category: string }): Issue[] {
  const issues: Issue[] = [];
  if (!request.name) issues.push({ path: ['name'], message: 'templates.name_required' });
  else if (request.name.length > TEMPLATE_LIMITS.name)
    issues.push({
      path: ['name'],
      message: 'templates.name_too_long',
      params: { max: TEMPLATE_LIMITS.name },
    });
  else if (!TEMPLATE_NAME.test(request.name))
    issues.push({ path: ['name'], message: 'templates.name_format' });
  if (!TEMPLATE_LANGUAGE.test(request.language))
    issues.push({ path: ['language'], message: 'templates.language_format' });
  if (!(TEMPLATE_CATEGORIES as readonly string[]).includes(request.category))
    issues.push({ path: ['category'], message: 'templates.category' });
  return issues;
}

export const ZCreateTemplateRequest = z
  .object({
    name: z.string().max(2048).overwrite(cleanText),
    language: z.string().max(16),
    /** MARKETING, UTILITY or AUTHENTICATION. */
    category: z.string().max(32) as z.ZodType<(typeof TEMPLATE_CATEGORIES)[number]>,
    components: z.array(ZCreateTemplateComponent).max(4, { message: 'templates.component_repeated' }),
    /**
     * A file of the company's media library as the sample of an IMAGE, VIDEO or DOCUMENT header (ours,
     * not Meta's): the server uploads it to Meta and sends Meta's handle in `example.header_handle`.
     */
    header_media_id: zId().optional(),
  })
  .superRefine((request, ctx) => {
    const mediaSample = request.header_media_id !== undefined;
    for (const issue of [
      ...headIssues(request),
      ...templateComponentIssues(request.components, { mediaSample }),
    ]) {
      ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message, params: issue.params });
    }
  });
export type CreateTemplateRequest = z.input<typeof ZCreateTemplateRequest>;
export type CreateTemplateInput = z.output<typeof ZCreateTemplateRequest>;
