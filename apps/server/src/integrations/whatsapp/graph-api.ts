import type { ConnectionProblem } from '@hablabot/contract';
import { callOutside, type OutboundResult } from '../http/outbound';

/**
 * The WhatsApp Cloud API (Graph API) as the settings test uses it. Graph errors are read by their
 * `error.code`, not by the HTTP status (Meta answers the same error with different statuses).
 */

export interface GraphError {
  message: string;
  type?: string;
  code?: number;
  error_subcode?: number;
}

/** The `error` object of a Graph API answer, when it has one. */
export function graphError(json: unknown): GraphError | null {
  const error = (json as { error?: unknown } | null | undefined)?.error;
  if (!error || typeof error !== 'object') return null;
  const e = error as Record<string, unknown>;
  return {
    message: typeof e.message === 'string' ? e.message : '',
    type: typeof e.type === 'string' ? e.type : undefined,
    code: typeof e.code === 'number' ? e.code : undefined,
    error_subcode: typeof e.error_subcode === 'number' ? e.error_subcode : undefined,
  };
}

/** Graph error codes the settings test tells apart. */
export const GRAPH_CODES = {
  /** The access token expired or is not valid. */
  tokenInvalid: 190,
  /** Invalid parameter; with subcode 33, an object that does not exist or the token cannot see. */
  invalidParameter: 100,
  objectMissingSubcode: 33,
  /** Throughput or API-call limits. */
  rateLimits: [4, 80007, 130429] as readonly number[],
} as const;

export interface PhoneNumberInfo {
  display_phone_number: string | null;
  verified_name: string | null;
  quality_rating: string | null;
  /** Meta's `throughput.level` (STANDARD, HIGH, NOT_APPLICABLE); null when not given. */
  throughput_level: string | null;
  /** Meta's `messaging_limit_tier` (TIER_250 … TIER_UNLIMITED); null when not given. */
  messaging_limit_tier: string | null;
}

export type GraphCheck =
  | { ok: true; phone: PhoneNumberInfo }
  | { ok: false; problem: ConnectionProblem; status?: number; detail?: string };

/**
 * A phone number's fields as the settings test shows them, only in the shapes Meta gives them: anything
 * else the address answered is not repeated to the admin.
 */
const PHONE_TEXT = /^\+?[0-9][0-9 ().-]{3,31}$/;
const QUALITY_RATINGS = new Set(['GREEN', 'YELLOW', 'RED', 'UNKNOWN']);
/** Meta's names of a throughput level or a limit tier: capitals, digits and underscores. */
const META_WORD = /^[A-Z][A-Z0-9_]{1,31}$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
const NAME_TEXT = /^[^\u0000-\u001f\u007f<>]{1,120}$/u;
const shown = (v: unknown, shape: (s: string) => boolean): string | null =>
  typeof v === 'string' && shape(v) ? v : null;

/** The URL of a Graph object under the configured base ('https://graph.facebook.com/v23.0'). */
export function graphUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/**
 * The Graph error an answer carries, sorted by its code; null when it carries none. `missing` names
 * the problem of an object that does not exist or the token cannot see (the phone number for the
 * settings test, the business account for templates).
 */
export function graphFailure<Missing extends string>(
  result: Extract<OutboundResult, { kind: 'answer' }>,
  missing: Missing,
): {
  ok: false;
  problem: 'bad_token' | 'rate_limited' | 'provider_error' | Missing;
  status?: number;
  detail?: string;
} | null {
  const error = graphError(result.json);
  if (!error) return null;
  if (error.code === GRAPH_CODES.tokenInvalid)
    return { ok: false, problem: 'bad_token', detail: error.message };
  if (
    error.code === GRAPH_CODES.invalidParameter &&
    (error.error_subcode === GRAPH_CODES.objectMissingSubcode || /does not exist/i.test(error.message))
  ) {
    return { ok: false, problem: missing, detail: error.message };
  }
  if (error.code !== undefined && GRAPH_CODES.rateLimits.includes(error.code))
    return { ok: false, problem: 'rate_limited', detail: error.message };
  return { ok: false, problem: 'provider_error', status: result.status, detail: error.message };
}

/** Sorts a Graph answer (or the lack of one) into what the admin must fix. */
export function classifyGraphResult(result: OutboundResult): GraphCheck {
  if (result.kind === 'timeout') return { ok: false, problem: 'timeout' };
  if (result.kind === 'unreachable') return { ok: false, problem: 'unreachable', detail: result.code };
  if (result.kind === 'refused') return { ok: false, problem: 'address_refused' };
  const failure = graphFailure(result, 'unknown_phone_id');
  if (failure) return failure;
  const body = result.json as Record<string, unknown> | undefined;
  if (
    result.status === 200 &&
    body &&
    typeof body === 'object' &&
    ('verified_name' in body || 'display_phone_number' in body)
  ) {
    return {
      ok: true,
      phone: {
        display_phone_number: shown(body.display_phone_number, (s) => PHONE_TEXT.test(s)),
        verified_name: shown(body.verified_name, (s) => NAME_TEXT.test(s)),
        quality_rating: shown(body.quality_rating, (s) => QUALITY_RATINGS.has(s.toUpperCase())),
        throughput_level: shown((body.throughput as { level?: unknown } | undefined)?.level, (s) =>
          META_WORD.test(s),
        ),
        messaging_limit_tier: shown(body.messaging_limit_tier, (s) => META_WORD.test(s)),
      },
    };
  }
  if (result.status === 401) return { ok: false, problem: 'bad_token' };
  return { ok: false, problem: 'unexpected_answer', status: result.status };
}

/** GET {base}/{phone_number_id}: the number's display name, quality rating, throughput and limit tier. */
export async function readPhoneNumber(options: {
  baseUrl: string;
  token: string;
  phoneNumberId: string;
  timeoutMs: number;
}): Promise<GraphCheck> {
  const url = `${graphUrl(options.baseUrl, encodeURIComponent(options.phoneNumberId))}?fields=display_phone_number,verified_name,quality_rating,throughput,messaging_limit_tier`;
  const result = await callOutside(url, {
    headers: { authorization: `Bearer ${options.token}` },
    timeoutMs: options.timeoutMs,
  });
  return classifyGraphResult(result);
}
