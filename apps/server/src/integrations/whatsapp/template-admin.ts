import { callOutside, type OutboundResult } from '../http/outbound';
import { graphError, graphUrl } from './graph-api';

/**
 * Writing templates on a WhatsApp Business Account (WABA) through the Graph API: creating one
 * (`POST {base}/{waba_id}/message_templates`, Meta's own component shape) and deleting one
 * (`DELETE {base}/{waba_id}/message_templates?name=…&hsm_id=…`). Every call goes through the outbound
 * policy (callOutside). Meta's JSON stays in this file: callers get plain outcomes.
 */

export type TemplateWriteProblem =
  | 'bad_token'
  | 'unknown_account'
  | 'rate_limited'
  | 'timeout'
  | 'unreachable'
  | 'address_refused'
  /** Meta refused the template itself (a duplicate, a parameter it does not take …): `detail` says why. */
  | 'refused'
  | 'unexpected_answer';

export type TemplateWriteFailure = {
  ok: false;
  problem: TemplateWriteProblem;
  status?: number;
  /** Meta's words: `error_user_msg` when it gave one, else its message. */
  detail?: string;
  code?: number;
  subcode?: number;
};

export type TemplateCreation =
  | { ok: true; metaId: string; status: string; category: string | null }
  | TemplateWriteFailure;

export type TemplateDeletion = { ok: true } | TemplateWriteFailure;

interface Account {
  baseUrl: string;
  token: string;
  businessAccountId: string;
  timeoutMs: number;
}

/** Meta's error codes a template write tells apart (see graph-api.ts for the shared ones). */
const TOKEN_INVALID = 190;
const RATE_LIMITS = [4, 80007, 130429];

/** What went wrong with a template write (or its sample's upload), or null for a 2xx answer. */
export function failureOf(result: OutboundResult): TemplateWriteFailure | null {
  if (result.kind === 'timeout') return { ok: false, problem: 'timeout' };
  if (result.kind === 'unreachable') return { ok: false, problem: 'unreachable', detail: result.code };
  if (result.kind === 'refused') return { ok: false, problem: 'address_refused' };
  const error = graphError(result.json);
  if (!error) {
    if (result.status === 401) return { ok: false, problem: 'bad_token' };
    return result.status >= 200 && result.status < 300
      ? null
      : { ok: false, problem: 'unexpected_answer', status: result.status };
  }
  const raw = (result.json as { error?: Record<string, unknown> }).error ?? {};
  const userMessage = typeof raw.error_user_msg === 'string' ? raw.error_user_msg : null;
  const base = { status: result.status, code: error.code, subcode: error.error_subcode };
  if (error.code === TOKEN_INVALID)
    return { ok: false, problem: 'bad_token', ...base, detail: error.message };
  if (error.code === 100 && error.error_subcode === 33)
    return { ok: false, problem: 'unknown_account', ...base, detail: error.message };
  if (error.code !== undefined && RATE_LIMITS.includes(error.code))
    return { ok: false, problem: 'rate_limited', ...base, detail: error.message };
  return { ok: false, problem: 'refused', ...base, detail: userMessage ?? error.message };
}

const endpoint = (account: Account) =>
  graphUrl(account.baseUrl, `${encodeURIComponent(account.businessAccountId)}/message_templates`);

/** Creates the template on Meta: its id and status (PENDING while Meta reviews it). */
export async function createTemplate(
  account: Account,
  template: { name: string; language: string; category: string; components: unknown[] },
): Promise<TemplateCreation> {
  const result = await callOutside(endpoint(account), {
    method: 'POST',
    headers: { authorization: `Bearer ${account.token}` },
    json: template,
    timeoutMs: account.timeoutMs,
  });
  const failure = failureOf(result);
  if (failure) return failure;
  const body = (result as Extract<OutboundResult, { kind: 'answer' }>).json as
    | Record<string, unknown>
    | undefined;
  const id = typeof body?.id === 'number' ? String(body.id) : body?.id;
  if (typeof id !== 'string' || !id) return { ok: false, problem: 'unexpected_answer', status: 200 };
  return {
    ok: true,
    metaId: id,
    status: typeof body?.status === 'string' ? body.status.toUpperCase() : 'PENDING',
    category: typeof body?.category === 'string' ? body.category.toUpperCase() : null,
  };
}

/** Deletes one template (this name, this id: only that language) on Meta. */
export async function deleteTemplate(
  account: Account,
  template: { name: string; metaId: string },
): Promise<TemplateDeletion> {
  const url = new URL(endpoint(account));
  url.searchParams.set('name', template.name);
  url.searchParams.set('hsm_id', template.metaId);
  const result = await callOutside(url.toString(), {
    method: 'DELETE',
    headers: { authorization: `Bearer ${account.token}` },
    timeoutMs: account.timeoutMs,
  });
  const failure = failureOf(result);
  return failure ?? { ok: true };
}
