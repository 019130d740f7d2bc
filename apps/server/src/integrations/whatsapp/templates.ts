import { callOutside, type OutboundResult } from '../http/outbound';
import { graphFailure, graphUrl } from './graph-api';

/**
 * The message templates of a WhatsApp Business Account (WABA), read from the Graph API
 * (`GET {base}/{waba_id}/message_templates`) page by page, following `paging.next` until it is absent.
 * Meta's JSON stays in this file: callers get `WhatsAppTemplate`.
 */

export interface WhatsAppTemplateButton {
  type: string;
  text: string | null;
  url: string | null;
  phone_number: string | null;
}

export interface WhatsAppTemplateComponent {
  /** HEADER, BODY, FOOTER, BUTTONS (upper case). */
  type: string;
  format: string | null;
  text: string | null;
  buttons: WhatsAppTemplateButton[];
}

export interface WhatsAppTemplate {
  /** Meta's id of the template. */
  metaId: string;
  name: string;
  language: string;
  status: string;
  category: string;
  components: WhatsAppTemplateComponent[];
  /** Meta's reason for a rejection ('INVALID_FORMAT' …); null for none ('NONE'). */
  rejectedReason: string | null;
  /** Meta's quality rating (GREEN, YELLOW, RED, UNKNOWN); null when it gave none. */
  quality: string | null;
}

export type TemplatesProblem =
  | 'bad_token'
  | 'unknown_account'
  | 'rate_limited'
  | 'timeout'
  | 'unreachable'
  /** The outbound policy does not let the server call the messages API URL. */
  | 'address_refused'
  | 'provider_error'
  | 'unexpected_answer'
  | 'too_many_pages';

export type TemplatesListing =
  | { ok: true; templates: WhatsAppTemplate[] }
  | { ok: false; problem: TemplatesProblem; status?: number; detail?: string };

/** Rows asked for per page. */
export const TEMPLATES_PAGE_SIZE = 100;
/**
 * Pages read at most. A listing cut short would make a sync drop the templates it did not see, so
 * reaching the limit is a failure, never a partial answer.
 */
export const TEMPLATES_MAX_PAGES = 100;
/** One page is a few kilobytes per template: a page of 100 with long bodies stays well under this. */
const PAGE_MAX_BYTES = 4 * 1024 * 1024;

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function mapButton(raw: unknown): WhatsAppTemplateButton | null {
  if (!raw || typeof raw !== 'object') return null;
  const b = raw as Record<string, unknown>;
  if (typeof b.type !== 'string') return null;
  return { type: b.type, text: text(b.text), url: text(b.url), phone_number: text(b.phone_number) };
}

function mapComponent(raw: unknown): WhatsAppTemplateComponent | null {
  if (!raw || typeof raw !== 'object') return null;
  const c = raw as Record<string, unknown>;
  if (typeof c.type !== 'string') return null;
  const buttons = Array.isArray(c.buttons)
    ? c.buttons.map(mapButton).filter((b): b is WhatsAppTemplateButton => b !== null)
    : [];
  return { type: c.type.toUpperCase(), format: text(c.format), text: text(c.text), buttons };
}

/**
 * The fields the listing asks for: Meta leaves `rejected_reason` and `quality_score` out unless they are
 * named.
 */
export const TEMPLATE_FIELDS = 'id,name,language,status,category,components,rejected_reason,quality_score';

/** Meta's `rejected_reason` as kept: its code, null for 'NONE' or none. */
function reasonOf(raw: unknown): string | null {
  const reason = text(raw)?.trim().slice(0, 1000) ?? null;
  return reason && reason.toUpperCase() !== 'NONE' ? reason : null;
}

/** Meta's `quality_score` (`{ score, date }`, or the score alone) as GREEN, YELLOW, RED or UNKNOWN. */
function qualityOf(raw: unknown): string | null {
  const score = raw && typeof raw === 'object' ? (raw as Record<string, unknown>).score : raw;
  return typeof score === 'string' && score ? score.toUpperCase().slice(0, 16) : null;
}

/** One row of Meta's `data`; null when it lacks what identifies a template. */
function mapTemplate(raw: unknown): WhatsAppTemplate | null {
  if (!raw || typeof raw !== 'object') return null;
  const t = raw as Record<string, unknown>;
  const id = typeof t.id === 'number' ? String(t.id) : t.id;
  if (typeof id !== 'string' || !id) return null;
  if (typeof t.name !== 'string' || !t.name || typeof t.language !== 'string' || !t.language) return null;
  const components = Array.isArray(t.components)
    ? t.components.map(mapComponent).filter((c): c is WhatsAppTemplateComponent => c !== null)
    : [];
  return {
    metaId: id,
    name: t.name,
    language: t.language,
    status: typeof t.status === 'string' ? t.status.toUpperCase() : 'UNKNOWN',
    category: typeof t.category === 'string' ? t.category.toUpperCase() : 'UNKNOWN',
    components,
    rejectedReason: reasonOf(t.rejected_reason),
    quality: qualityOf(t.quality_score),
  };
}

type Failure = Extract<TemplatesListing, { ok: false }>;

/** What went wrong with one page, or the page's rows and the next page's address. */
function readPage(
  result: OutboundResult,
): Failure | { ok: true; templates: WhatsAppTemplate[]; next: string | null } {
  if (result.kind === 'timeout') return { ok: false, problem: 'timeout' };
  if (result.kind === 'unreachable') return { ok: false, problem: 'unreachable', detail: result.code };
  if (result.kind === 'refused') return { ok: false, problem: 'address_refused' };
  const failure = graphFailure(result, 'unknown_account');
  if (failure) return failure;
  const body = result.json as { data?: unknown; paging?: { next?: unknown } } | undefined;
  if (result.status !== 200 || !body || typeof body !== 'object' || !Array.isArray(body.data)) {
    if (result.status === 401) return { ok: false, problem: 'bad_token' };
    return { ok: false, problem: 'unexpected_answer', status: result.status };
  }
  const templates: WhatsAppTemplate[] = [];
  for (const row of body.data) {
    const template = mapTemplate(row);
    if (!template) return { ok: false, problem: 'unexpected_answer', status: result.status };
    templates.push(template);
  }
  const next = typeof body.paging?.next === 'string' && body.paging.next ? body.paging.next : null;
  return { ok: true, templates, next };
}

/**
 * Every template of the business account, following `paging.next` (at most `maxPages` pages). A `next`
 * address on another host than the configured API is not followed: the token would travel with it.
 */
export async function listTemplates(options: {
  baseUrl: string;
  token: string;
  businessAccountId: string;
  timeoutMs: number;
  pageSize?: number;
  maxPages?: number;
}): Promise<TemplatesListing> {
  const maxPages = options.maxPages ?? TEMPLATES_MAX_PAGES;
  const first = new URL(
    graphUrl(options.baseUrl, `${encodeURIComponent(options.businessAccountId)}/message_templates`),
  );
  first.searchParams.set('fields', TEMPLATE_FIELDS);
  first.searchParams.set('limit', String(options.pageSize ?? TEMPLATES_PAGE_SIZE));
  const origin = first.origin;
  const templates: WhatsAppTemplate[] = [];
  let url: string | null = first.toString();
  for (let page = 0; url; page++) {
    if (page >= maxPages) return { ok: false, problem: 'too_many_pages', detail: String(maxPages) };
    const result = await callOutside(url, {
      headers: { authorization: `Bearer ${options.token}` },
      timeoutMs: options.timeoutMs,
      maxBytes: PAGE_MAX_BYTES,
    });
    const read = readPage(result);
    if (!read.ok) return read;
    templates.push(...read.templates);
    url = read.next;
    if (url) {
      let nextOrigin: string | null = null;
      try {
        nextOrigin = new URL(url).origin;
      } catch {
        // An address that does not parse is treated like one on another host.
      }
      if (nextOrigin !== origin) return { ok: false, problem: 'unexpected_answer', status: 200 };
    }
  }
  return { ok: true, templates };
}
