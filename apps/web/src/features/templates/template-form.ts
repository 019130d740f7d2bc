import {
  type CreateTemplateComponent,
  type CreateTemplateRequest,
  TEMPLATE_LIMITS,
  templatePlaceholders,
  ZCreateTemplateRequest,
} from '@hablabot/contract';

/**
 * The 'Nueva plantilla' form as plain values, turned into Meta's shape for POST /templates, and checked
 * with the contract's own schema (ZCreateTemplateRequest: Meta's rules), so the form refuses exactly what
 * the server would. An issue's path in Meta's shape ('components.1.text') is put back on the form's
 * field ('body'); the server's 422 keys are the same paths.
 */

export type HeaderKind = 'NONE' | 'TEXT' | 'IMAGE' | 'VIDEO' | 'DOCUMENT';
export type ButtonKind = 'QUICK_REPLY' | 'URL' | 'PHONE_NUMBER';

export interface FormButton {
  type: ButtonKind;
  text: string;
  url: string;
  phone_number: string;
}

export interface TemplateFormValues {
  name: string;
  language: string;
  category: 'MARKETING' | 'UTILITY' | 'AUTHENTICATION';
  header: HeaderKind;
  headerText: string;
  headerExample: string;
  /** The sample from the media library: its id (the server uploads it to Meta), address and name. */
  headerMedia: { id: number; url: string; name: string } | null;
  body: string;
  /** The example of placeholder n at index n - 1. */
  bodyExamples: string[];
  footer: string;
  buttons: FormButton[];
}

export const EMPTY_TEMPLATE: TemplateFormValues = {
  name: '',
  language: 'es',
  category: 'UTILITY',
  header: 'NONE',
  headerText: '',
  headerExample: '',
  headerMedia: null,
  body: '',
  bodyExamples: [],
  footer: '',
  buttons: [],
};

export { TEMPLATE_LIMITS };

/** The distinct placeholder numbers of a text, in order (what needs an example). */
export function placeholderNumbers(text: string): number[] {
  return [...new Set(templatePlaceholders(text))].sort((a, b) => a - b);
}

/** The form's values in Meta's shape, as POST /templates takes them. */
export function toCreateRequest(values: TemplateFormValues): CreateTemplateRequest {
  const components: CreateTemplateComponent[] = [];
  if (values.header === 'TEXT') {
    const example = placeholderNumbers(values.headerText).length > 0 ? [values.headerExample] : undefined;
    components.push({
      type: 'HEADER',
      format: 'TEXT',
      text: values.headerText,
      ...(example ? { example: { header_text: example } } : {}),
    });
  } else if (values.header !== 'NONE') {
    components.push({ type: 'HEADER', format: values.header });
  }
  const numbers = placeholderNumbers(values.body);
  const count = numbers.length ? Math.max(...numbers) : 0;
  const examples = Array.from({ length: count }, (_, i) => values.bodyExamples[i] ?? '');
  components.push({
    type: 'BODY',
    text: values.body,
    ...(count > 0 ? { example: { body_text: [examples] } } : {}),
  });
  if (values.footer.trim()) components.push({ type: 'FOOTER', text: values.footer });
  if (values.buttons.length) {
    components.push({
      type: 'BUTTONS',
      buttons: values.buttons.map((b) =>
        b.type === 'URL'
          ? { type: 'URL', text: b.text, url: b.url }
          : b.type === 'PHONE_NUMBER'
            ? { type: 'PHONE_NUMBER', text: b.text, phone_number: b.phone_number }
            : { type: 'QUICK_REPLY', text: b.text },
      ),
    });
  }
  // A media header's sample: the library file, which the server uploads to Meta for its handle.
  const sample =
    values.header !== 'NONE' && values.header !== 'TEXT' && values.headerMedia
      ? { header_media_id: values.headerMedia.id }
      : {};
  return { name: values.name, language: values.language, category: values.category, components, ...sample };
}

/**
 * The form's field an issue path of the request names: 'name', 'headerText', 'headerExample',
 * 'headerMedia', 'body', 'bodyExamples.0', 'footer', 'buttons', 'buttons.1.url' …
 */
export function fieldOfPath(path: readonly PropertyKey[], request: CreateTemplateRequest): string {
  const [first, index, ...rest] = path.map(String);
  if (first === 'header_media_id') return 'headerMedia';
  if (first !== 'components') return first ?? 'form';
  if (index === undefined) return 'body';
  const component = request.components[Number(index)];
  switch (component?.type) {
    case 'HEADER':
      if (rest[0] === 'example') return component.format === 'TEXT' ? 'headerExample' : 'headerMedia';
      return 'headerText';
    case 'BODY':
      // components.n.example.body_text.0.<i>
      if (rest[0] === 'example') return rest[3] === undefined ? 'body' : `bodyExamples.${rest[3]}`;
      return 'body';
    case 'FOOTER':
      return 'footer';
    case 'BUTTONS':
      // components.n.buttons.<i>.<field>
      if (rest[1] === undefined) return 'buttons';
      return `buttons.${rest[1]}.${rest[2] === 'example' ? 'url' : (rest[2] ?? 'text')}`;
    default:
      return 'form';
  }
}

/** One broken rule, on its field: the contract's key ('templates.body_too_long') and its numbers. */
export interface FormIssue {
  key: string;
  params: Record<string, string | number>;
}

/** Every broken rule of the form's values, by field (the first one of each field); empty when valid. */
export function templateFormIssues(values: TemplateFormValues): Record<string, FormIssue> {
  const request = toCreateRequest(values);
  const result = ZCreateTemplateRequest.safeParse(request);
  if (result.success) return {};
  const issues: Record<string, FormIssue> = {};
  for (const issue of result.error.issues) {
    const field = fieldOfPath(issue.path, request);
    if (issues[field]) continue;
    const params = (issue as { params?: Record<string, string | number> }).params ?? {};
    issues[field] = { key: issue.message, params };
  }
  return issues;
}

/** The server's 422 field errors (keys are the request's paths) put on the form's fields. */
export function serverIssuesByField(
  errors: Record<string, string[]>,
  values: TemplateFormValues,
): Record<string, string> {
  const request = toCreateRequest(values);
  const out: Record<string, string> = {};
  for (const [key, messages] of Object.entries(errors)) {
    const field = fieldOfPath(key.split('.'), request);
    if (!out[field] && messages[0]) out[field] = messages[0];
  }
  return out;
}

/** The body as the customer will read it: each placeholder shows its example, or stays {{n}} without one. */
export function fillExamples(text: string, examples: readonly string[]): string {
  return text.replace(/\{\{\s*(\d+)\s*\}\}/g, (whole, n: string) => examples[Number(n) - 1]?.trim() || whole);
}
