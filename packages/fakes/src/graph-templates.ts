import { checkGraphToken, type FakeGraphApi, GRAPH_ERRORS, graphError } from './graph-api';
import { installTemplateAdmin } from './graph-template-admin';
import type { FakeResponse } from './http';

/**
 * Message templates of the fake Graph API: `GET /{version}/{waba_id}/message_templates`, one WhatsApp
 * Business Account (WABA) per key of `fake.templates`. A WABA id that is not a key answers like Meta does
 * for an object that does not exist (code 100, subcode 33). Pages follow Meta's cursor paging: `data`,
 * `paging.cursors.before/after` (the first and last row of the page), `paging.previous` after the first
 * page and `paging.next` only when more rows follow.
 */

/** A template as Meta describes it. */
export interface FakeTemplate {
  id: string;
  name: string;
  /** Meta's language code: 'es', 'en_US', 'pt_BR' … */
  language: string;
  /** APPROVED, PENDING, REJECTED, PAUSED, DISABLED … */
  status: string;
  /** MARKETING, UTILITY, AUTHENTICATION. */
  category: string;
  /** HEADER, BODY (its `text` holds {{1}} …), FOOTER, BUTTONS, as Meta sends them. */
  components: Record<string, unknown>[];
  /** Meta's reason for a rejection: INVALID_FORMAT, PROMOTIONAL … ('NONE' when not rejected). */
  rejected_reason?: string;
  /** Meta's quality rating: `{ score: 'GREEN' | 'YELLOW' | 'RED' | 'UNKNOWN', date }`. */
  quality_score?: { score: string; date?: number };
}

/** The fields Meta answers when the listing names none. */
const DEFAULT_FIELDS = ['id', 'name', 'language', 'status', 'category', 'components'];

/**
 * A template as the listing answers it: the fields named in `fields` (and the id), like Meta, which
 * leaves `rejected_reason` and `quality_score` out unless they are asked for.
 */
function listed(template: FakeTemplate, fields: string | null): Record<string, unknown> {
  const names = fields ? ['id', ...fields.split(',').map((f) => f.trim())] : DEFAULT_FIELDS;
  const all: Record<string, unknown> = {
    rejected_reason: 'NONE',
    quality_score: { score: 'UNKNOWN', date: Math.floor(Date.now() / 1000) },
    ...template,
  };
  return Object.fromEntries(names.filter((n) => n in all).map((n) => [n, all[n]]));
}

declare module './graph-api' {
  interface FakeGraphApi {
    /**
     * Templates by WhatsApp Business Account id, in the order the listing answers them (Meta lists the
     * newest first). Tests and the demo set them; the send endpoint checks template sends against them.
     */
    templates: Map<string, FakeTemplate[]>;
    /**
     * The business account of each phone number id, for checking template sends; a number not in it may
     * send the templates of every account.
     */
    phoneAccounts: Map<string, string>;
  }
}

/** Rows per page when the caller gives no `limit` (Meta's default). */
export const TEMPLATES_DEFAULT_LIMIT = 25;
/** The largest page the fake answers; a larger `limit` is cut down to it. */
export const TEMPLATES_MAX_LIMIT = 1000;

const encodeCursor = (index: number) => Buffer.from(`tpl:${index}`).toString('base64url');

function decodeCursor(cursor: string): number | null {
  const match = /^tpl:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return match ? Number(match[1]) : null;
}

function invalidParameter(message: string): FakeResponse {
  return { status: 400, body: graphError(100, `(#100) ${message}`, { type: 'OAuthException' }) };
}

/** The numbered placeholders of a template's BODY, each counted once. */
function bodyPlaceholderCount(template: FakeTemplate): number {
  const body = template.components.find((c) => String(c.type).toUpperCase() === 'BODY');
  const text = typeof body?.text === 'string' ? body.text : '';
  return new Set([...text.matchAll(/\{\{\s*(\d+)\s*\}\}/g)].map((m) => m[1])).size;
}

/**
 * Meta's answer to a template send it refuses, or null: 132001 when the phone number's account has no
 * APPROVED template of that name in that language, 132000 when the body parameters are not as many as
 * the BODY's placeholders. With no templates set at all (`fake.templates` empty), every template passes.
 */
export function templateSendRefusal(
  fake: FakeGraphApi,
  phoneNumberId: string,
  template: Record<string, unknown>,
): FakeResponse | null {
  if (fake.templates.size === 0) return null;
  const account = fake.phoneAccounts.get(phoneNumberId);
  const candidates = account ? (fake.templates.get(account) ?? []) : [...fake.templates.values()].flat();
  const name = String(template.name);
  const language = String((template.language as { code?: unknown } | undefined)?.code);
  const found = candidates.find((t) => t.name === name && t.language === language && t.status === 'APPROVED');
  if (!found) {
    return {
      status: 404,
      body: graphError(132001, '(#132001) Template name does not exist in the translation', {
        error_data: {
          messaging_product: 'whatsapp',
          details: `template name (${name}) does not exist in ${language}`,
        },
      }),
    };
  }
  const components = Array.isArray(template.components)
    ? (template.components as Record<string, unknown>[])
    : [];
  const buttonRefusal = buttonParameterRefusal(found, components);
  if (buttonRefusal) return buttonRefusal;
  const body = components.find((c) => String(c.type).toLowerCase() === 'body');
  const given = Array.isArray(body?.parameters) ? body.parameters.length : 0;
  const expected = bodyPlaceholderCount(found);
  if (given !== expected) {
    return {
      status: 400,
      body: graphError(
        132000,
        '(#132000) Number of parameters does not match the expected number of params',
        {
          error_data: {
            messaging_product: 'whatsapp',
            details: `body: number of localizable_params (${given}) does not match the expected number of params (${expected})`,
          },
        },
      ),
    };
  }
  return null;
}

/**
 * Meta's check of a send's `button` components: each names a button of the template by `index`, of the
 * same kind (`sub_type` quick_reply for a QUICK_REPLY button, url for a URL one), and a quick reply's
 * parameter is a non-empty `payload`. Meta answers 131009 otherwise.
 */
function buttonParameterRefusal(
  template: FakeTemplate,
  components: Record<string, unknown>[],
): FakeResponse | null {
  const part = template.components.find((c) => String(c.type).toUpperCase() === 'BUTTONS');
  const buttons = Array.isArray(part?.buttons) ? (part.buttons as Record<string, unknown>[]) : [];
  for (const c of components.filter((x) => String(x.type).toLowerCase() === 'button')) {
    const index = Number(c.index);
    const subType = String(c.sub_type).toUpperCase();
    const button = Number.isInteger(index) ? buttons[index] : undefined;
    const parameters = Array.isArray(c.parameters) ? (c.parameters as Record<string, unknown>[]) : [];
    const payloadOk =
      subType !== 'QUICK_REPLY' ||
      (parameters.length === 1 &&
        parameters[0]?.type === 'payload' &&
        typeof parameters[0]?.payload === 'string' &&
        parameters[0].payload !== '');
    if (!button || String(button.type).toUpperCase() !== subType || !payloadOk) {
      return {
        status: 400,
        body: graphError(131009, '(#131009) Parameter value is not valid', {
          error_data: {
            messaging_product: 'whatsapp',
            details: `Button at index ${c.index} of type ${c.sub_type} does not exist or its parameter is not valid`,
          },
        }),
      };
    }
  }
  return null;
}

/** A ready-made template with a BODY text (and nothing else), for tests and the demo. */
export function fakeTemplate(values: Partial<FakeTemplate> & { name: string; body?: string }): FakeTemplate {
  const { body, ...rest } = values;
  return {
    id: String(1_000_000_000_000 + Math.floor(Math.random() * 1_000_000_000)),
    language: 'es',
    status: 'APPROVED',
    category: 'UTILITY',
    components: [{ type: 'BODY', text: body ?? 'Hola, gracias por escribirnos.' }],
    ...rest,
  };
}

/** Adds the template listing to a fake Graph API (`startFakeGraphApi` calls it). */
export function installTemplates(fake: FakeGraphApi): void {
  fake.templates = new Map();
  fake.phoneAccounts = new Map();

  fake.route('GET', '/:version/:waba/message_templates', (request, { version, waba }) => {
    const refused = checkGraphToken(fake, request);
    if (refused) return refused;
    const all = fake.templates.get(waba);
    if (!all) return GRAPH_ERRORS.unknownObject(waba);

    const limitText = request.query.get('limit');
    const limit = limitText === null ? TEMPLATES_DEFAULT_LIMIT : Number(limitText);
    if (!Number.isInteger(limit) || limit < 1)
      return invalidParameter('Param limit must be a positive integer');

    let start = 0;
    const after = request.query.get('after');
    const before = request.query.get('before');
    if (after !== null) {
      const index = decodeCursor(after);
      if (index === null) return invalidParameter('Invalid cursor');
      start = index + 1;
    } else if (before !== null) {
      const index = decodeCursor(before);
      if (index === null) return invalidParameter('Invalid cursor');
      start = Math.max(0, index - Math.min(limit, TEMPLATES_MAX_LIMIT));
    }
    const size = Math.min(limit, TEMPLATES_MAX_LIMIT);
    const page = all.slice(start, start + size);
    if (page.length === 0) return { status: 200, body: { data: [] } };

    const link = (cursor: 'after' | 'before', index: number) => {
      const url = new URL(`${fake.url}/${version}/${waba}/message_templates`);
      const fields = request.query.get('fields');
      if (fields) url.searchParams.set('fields', fields);
      url.searchParams.set('limit', String(size));
      url.searchParams.set(cursor, encodeCursor(index));
      return url.toString();
    };
    const last = start + page.length - 1;
    const paging: Record<string, unknown> = {
      cursors: { before: encodeCursor(start), after: encodeCursor(last) },
    };
    if (start > 0) paging.previous = link('before', start);
    if (last < all.length - 1) paging.next = link('after', last);
    const fields = request.query.get('fields');
    return { status: 200, body: { data: page.map((t) => listed(t, fields)), paging } };
  });
  installTemplateAdmin(fake);
}
