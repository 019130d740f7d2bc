import type { ConnectionProblem } from '@hablabot/contract';
import { callOutside, type OutboundResult } from './outbound';

/**
 * OpenAI-compatible chat completions. Errors come as `{ error: { message, type, param, code } }`; the
 * code decides (`invalid_api_key`, `model_not_found`, `insufficient_quota` …), the HTTP status backs it.
 */

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface OpenAiError {
  message: string;
  type?: string;
  code?: string;
}

export function openAiError(json: unknown): OpenAiError | null {
  const error = (json as { error?: unknown } | null | undefined)?.error;
  if (!error || typeof error !== 'object') return null;
  const e = error as Record<string, unknown>;
  return {
    message: typeof e.message === 'string' ? e.message : '',
    type: typeof e.type === 'string' ? e.type : undefined,
    code: typeof e.code === 'string' ? e.code : undefined,
  };
}

export type ChatCheck =
  | { ok: true; model: string; content: string }
  | { ok: false; problem: ConnectionProblem; status?: number; detail?: string };

/** Sorts a chat-completions answer (or the lack of one) into what the admin must fix. */
export function classifyChatResult(result: OutboundResult, askedModel: string): ChatCheck {
  if (result.kind === 'timeout') return { ok: false, problem: 'timeout' };
  if (result.kind === 'unreachable') return { ok: false, problem: 'unreachable', detail: result.code };
  const { status } = result;
  const error = openAiError(result.json);
  if (error) {
    if (status === 401 || error.code === 'invalid_api_key')
      return { ok: false, problem: 'bad_token', status, detail: error.message };
    if (error.code === 'model_not_found')
      return { ok: false, problem: 'unknown_model', status, detail: error.message };
    if (error.code === 'insufficient_quota')
      return { ok: false, problem: 'no_quota', status, detail: error.message };
    if (status === 429) return { ok: false, problem: 'rate_limited', status, detail: error.message };
    if (status === 404 && /model/i.test(error.message))
      return { ok: false, problem: 'unknown_model', status, detail: error.message };
    return { ok: false, problem: 'provider_error', status, detail: error.message };
  }
  const body = result.json as { model?: unknown; choices?: unknown } | undefined;
  if (status >= 200 && status < 300 && body && Array.isArray(body.choices)) {
    const first = body.choices[0] as { message?: { content?: unknown } } | undefined;
    return {
      ok: true,
      model: typeof body.model === 'string' && body.model ? body.model : askedModel,
      content: typeof first?.message?.content === 'string' ? first.message.content : '',
    };
  }
  if (status === 401) return { ok: false, problem: 'bad_token', status };
  return { ok: false, problem: 'unexpected_answer', status };
}

/** One chat completion. `max_completion_tokens`, not `max_tokens`: newer models refuse the old name. */
export async function chatCompletion(options: {
  endpoint: string;
  apiKey: string;
  model: string;
  messages: ChatMessage[];
  maxCompletionTokens?: number;
  timeoutMs: number;
}): Promise<ChatCheck> {
  const result = await callOutside(options.endpoint, {
    method: 'POST',
    headers: { authorization: `Bearer ${options.apiKey}` },
    json: {
      model: options.model,
      messages: options.messages,
      ...(options.maxCompletionTokens ? { max_completion_tokens: options.maxCompletionTokens } : {}),
    },
    timeoutMs: options.timeoutMs,
  });
  return classifyChatResult(result, options.model);
}
