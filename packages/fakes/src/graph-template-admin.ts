import { checkGraphToken, type FakeGraphApi, GRAPH_ERRORS, graphError } from './graph-api';
import type { FakeTemplate } from './graph-templates';
import { installUploads } from './graph-uploads';
import type { FakeResponse } from './http';
import { createWebhookEmitter } from './webhook-emitter';

/**
 * Writing templates on the fake Graph API, as Meta does it: `POST /{version}/{waba_id}/message_templates`
 * creates one (PENDING, listed first from then on) or refuses it with Meta's error bodies; `DELETE
 * /{version}/{waba_id}/message_templates?name=…[&hsm_id=…]` deletes one language (with hsm_id) or all of
 * them. Meta's review is played by the tests: `reviewTemplate` sets the verdict and delivers the signed
 * `message_template_status_update` webhook to `fake.webhook`, as Meta would.
 */

/** Meta's review verdicts a test can give. */
export type TemplateVerdict =
  | 'APPROVED'
  | 'REJECTED'
  | 'PAUSED'
  | 'DISABLED'
  | 'PENDING_DELETION'
  | 'FLAGGED';

declare module './graph-api' {
  interface FakeGraphApi {
    /** Names deleted per account: Meta refuses a new template by a deleted name for weeks. */
    deletedTemplateNames: Map<string, Set<string>>;
    /**
     * Meta's review of a template (by id, or by name and language): its status becomes `verdict` and
     * the status webhook is delivered, signed, to `fake.webhook`. The webhook's answers' statuses.
     */
    reviewTemplate(
      which: { id: string } | { name: string; language: string },
      verdict: TemplateVerdict,
      options?: { reason?: string; title?: string; description?: string },
    ): Promise<number[]>;
  }
}

const NAME = /^[a-z0-9_]+$/;
const CATEGORIES = ['MARKETING', 'UTILITY', 'AUTHENTICATION'];

/** Meta's answer to a template it will not take: code 100 with the words it shows its own users. */
function invalidTemplate(userMessage: string, subcode?: number, title = 'Invalid parameter'): FakeResponse {
  const body = graphError(100, 'Invalid parameter', {
    type: 'OAuthException',
    ...(subcode === undefined ? {} : { error_subcode: subcode }),
  });
  Object.assign(body.error, { is_transient: false, error_user_title: title, error_user_msg: userMessage });
  return { status: 400, body };
}

/** Meta's own checks of a new template's parts (the ones our server also makes, so it never sees them). */
function contentRefusal(components: Record<string, unknown>[]): FakeResponse | null {
  const body = components.find((c) => String(c.type).toUpperCase() === 'BODY');
  if (!body || typeof body.text !== 'string' || body.text === '')
    return invalidTemplate('The BODY component is required.');
  if (body.text.length > 1024) return invalidTemplate('Body text is too long: 1024 characters at most.');
  const numbers = [...new Set([...body.text.matchAll(/\{\{(\d+)\}\}/g)].map((m) => Number(m[1])))].sort(
    (a, b) => a - b,
  );
  if (numbers.some((n, i) => n !== i + 1))
    return invalidTemplate('Variable parameters must be sequential, starting with {{1}}.', 2388043);
  const examples = (body.example as { body_text?: unknown[][] } | undefined)?.body_text?.[0] ?? [];
  if (numbers.length > 0 && examples.length !== numbers.length)
    return invalidTemplate('Add a sample for each variable in the body.', 2388043);
  return null;
}

let nextId = 2_000_000_000_000;

/** Adds template creation, deletion and the review webhook to a fake Graph API (installTemplates calls it). */
export function installTemplateAdmin(fake: FakeGraphApi): void {
  fake.deletedTemplateNames = new Map();
  installUploads(fake);

  fake.route('POST', '/:version/:waba/message_templates', (request, { waba }) => {
    const refused = checkGraphToken(fake, request);
    if (refused) return refused;
    const all = fake.templates.get(waba);
    if (!all) return GRAPH_ERRORS.unknownObject(waba);
    const b = (request.body ?? {}) as Record<string, unknown>;
    const name = typeof b.name === 'string' ? b.name : '';
    const language = typeof b.language === 'string' ? b.language : '';
    const category = typeof b.category === 'string' ? b.category.toUpperCase() : '';
    if (!NAME.test(name) || name.length > 512)
      return invalidTemplate('Template name can only contain lowercase characters, numbers and underscores.');
    if (!language) return invalidTemplate('The parameter language is required.');
    if (!CATEGORIES.includes(category)) return invalidTemplate('The category is not valid.');
    const components = Array.isArray(b.components) ? (b.components as Record<string, unknown>[]) : [];
    const content = contentRefusal(components);
    if (content) return content;
    if (fake.deletedTemplateNames.get(waba)?.has(name))
      return invalidTemplate(
        `${name} was deleted recently: a new template cannot use this name yet.`,
        2388023,
        'Message template language is being deleted',
      );
    if (all.some((t) => t.name === name && t.language === language))
      return invalidTemplate(
        `There is already ${language} content for this template. Create a new template and try again.`,
        2388024,
        'Content in this language already exists',
      );
    const template: FakeTemplate = {
      id: String(++nextId),
      name,
      language,
      status: 'PENDING',
      category,
      components,
    };
    all.unshift(template);
    return { status: 200, body: { id: template.id, status: template.status, category } };
  });

  fake.route('DELETE', '/:version/:waba/message_templates', (request, { waba }) => {
    const refused = checkGraphToken(fake, request);
    if (refused) return refused;
    const all = fake.templates.get(waba);
    if (!all) return GRAPH_ERRORS.unknownObject(waba);
    const name = request.query.get('name');
    const hsmId = request.query.get('hsm_id');
    if (!name) return invalidTemplate('The parameter name is required.');
    const doomed = all.filter((t) => t.name === name && (!hsmId || t.id === hsmId));
    if (doomed.length === 0)
      return invalidTemplate(`Message template "${name}" not found.`, 2593002, 'Template not found');
    fake.templates.set(
      waba,
      all.filter((t) => !doomed.includes(t)),
    );
    const names = fake.deletedTemplateNames.get(waba) ?? new Set<string>();
    names.add(name);
    fake.deletedTemplateNames.set(waba, names);
    return { status: 200, body: { success: true } };
  });

  fake.reviewTemplate = async (which, verdict, options = {}) => {
    if (!fake.webhook) throw new Error('fake.webhook is not set: nowhere to deliver the review');
    let found: { waba: string; template: FakeTemplate } | undefined;
    for (const [waba, list] of fake.templates) {
      const template = list.find((t) =>
        'id' in which ? t.id === which.id : t.name === which.name && t.language === which.language,
      );
      if (template) found = { waba, template };
    }
    if (!found) throw new Error(`no fake template ${JSON.stringify(which)}`);
    found.template.status = verdict;
    const reason = options.reason ?? (verdict === 'REJECTED' ? 'INVALID_FORMAT' : 'NONE');
    found.template.rejected_reason = verdict === 'REJECTED' ? reason : 'NONE';
    const body = {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: found.waba,
          time: Math.floor(Date.now() / 1000),
          changes: [
            {
              field: 'message_template_status_update',
              value: {
                event: verdict,
                message_template_id: Number(found.template.id),
                message_template_name: found.template.name,
                message_template_language: found.template.language,
                reason,
                ...(options.title || options.description
                  ? { other_info: { title: options.title ?? '', description: options.description ?? '' } }
                  : {}),
              },
            },
          ],
        },
      ],
    };
    const emitter = createWebhookEmitter({
      url: fake.webhook.url,
      appSecret: fake.webhook.appSecret,
      phoneNumberId: '',
    });
    return emitter.post(body);
  };
}
