import type { ChatMessage } from '@hablabot/contract';
import { type AnswerHeaders, callOutside } from '../http/outbound';

/**
 * A client of OpenAI-compatible chat completions (OpenAI itself, a local model server, another vendor):
 * the only code that knows their JSON. It sends `max_completion_tokens` (newer models refuse
 * `max_tokens`), retries 408, 409, 429 and 5xx answers and network failures with backoff (honouring
 * `retry-after-ms` / `retry-after`), and never retries 401, 404 or `insufficient_quota`. The HTTP rules
 * (deadline, no redirects, capped answer) are callOutside's. The settings' connection test uses it too,
 * with `maxRetries: 0`.
 */

export interface ChatCompletionRequest {
  /** The full chat-completions URL, e.g. https://api.openai.com/v1/chat/completions. */
  endpoint: string;
  apiKey: string;
  model: string;
  messages: readonly ChatMessage[];
  temperature?: number;
  maxCompletionTokens?: number;
}

export interface ChatCompletion {
  content: string;
  /** The model that answered, as the provider names it. */
  model: string;
  finishReason: string | null;
}

export type ChatCompletionFailure =
  | 'invalid_api_key'
  | 'model_not_found'
  | 'rate_limited'
  | 'insufficient_quota'
  | 'timeout'
  | 'unreachable'
  /** The outbound policy does not let the server call the endpoint (a private address, http). */
  | 'address_refused'
  | 'bad_response'
  | 'provider_error';

/** A call that did not give an answer: the provider's status and code, and its message. */
export class ChatCompletionError extends Error {
  constructor(
    readonly kind: ChatCompletionFailure,
    /** The HTTP status, 0 when no answer arrived. */
    readonly status: number,
    /** The provider's own message (`error.message`), when it sent one. */
    readonly providerMessage: string | null,
  ) {
    super(providerMessage ?? kind);
    this.name = 'ChatCompletionError';
  }
}

export interface ChatCompletionsOptions {
  /** Per attempt, from connecting to the last byte of the answer; default 30 s. */
  timeoutMs?: number;
  /** Retries after the first attempt; default 2. */
  maxRetries?: number;
  /** Longest wait between attempts, whatever the provider asks; default 60 s. */
  maxRetryDelayMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

const RETRYABLE_STATUS = new Set([408, 409, 429]);
/** More than any chat answer we ask for; the rest of a runaway answer is dropped. */
const MAX_ANSWER_BYTES = 1024 * 1024;

interface ProviderError {
  error?: { message?: unknown; type?: unknown; code?: unknown };
}

function kindOf(status: number, code: string | null, message: string | null): ChatCompletionFailure {
  if (code === 'insufficient_quota') return 'insufficient_quota';
  if (status === 401 || code === 'invalid_api_key') return 'invalid_api_key';
  // Some compatible servers leave out the code and only say so.
  if (code === 'model_not_found' || (status === 404 && message !== null && /model/i.test(message)))
    return 'model_not_found';
  if (status === 429) return 'rate_limited';
  return 'provider_error';
}

/** How long the provider asks us to wait, in ms, or undefined. */
function retryAfter(headers: AnswerHeaders): number | undefined {
  const ms = Number(headers.get('retry-after-ms'));
  if (Number.isFinite(ms) && ms > 0) return ms;
  const raw = headers.get('retry-after');
  if (!raw) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

export function createChatCompletionsClient(options: ChatCompletionsOptions = {}) {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxRetries = options.maxRetries ?? 2;
  const maxDelay = options.maxRetryDelayMs ?? 60_000;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));

  async function attempt(
    request: ChatCompletionRequest,
  ): Promise<ChatCompletion | { retry: ChatCompletionError; waitMs?: number }> {
    const body: Record<string, unknown> = { model: request.model, messages: request.messages };
    if (request.temperature !== undefined) body.temperature = request.temperature;
    if (request.maxCompletionTokens !== undefined) body.max_completion_tokens = request.maxCompletionTokens;
    const result = await callOutside(request.endpoint, {
      method: 'POST',
      headers: { authorization: `Bearer ${request.apiKey}` },
      json: body,
      timeoutMs,
      maxBytes: MAX_ANSWER_BYTES,
    });
    if (result.kind === 'timeout') return { retry: new ChatCompletionError('timeout', 0, null) };
    if (result.kind === 'unreachable') return { retry: new ChatCompletionError('unreachable', 0, null) };
    // Asking again would be refused again.
    if (result.kind === 'refused') throw new ChatCompletionError('address_refused', 0, null);
    const { status, json } = result;
    if (status < 200 || status >= 300) {
      const error = (json as ProviderError | undefined)?.error;
      const code = typeof error?.code === 'string' ? error.code : null;
      const message = typeof error?.message === 'string' ? error.message : null;
      const failure = new ChatCompletionError(kindOf(status, code, message), status, message);
      const retryable = (RETRYABLE_STATUS.has(status) || status >= 500) && code !== 'insufficient_quota';
      if (!retryable) throw failure;
      return { retry: failure, waitMs: retryAfter(result.headers) };
    }
    const choice = (
      json as { choices?: { message?: { content?: unknown }; finish_reason?: unknown }[] } | null
    )?.choices?.[0];
    const content = choice?.message?.content;
    if (typeof content !== 'string') throw new ChatCompletionError('bad_response', status, null);
    const model = (json as { model?: unknown }).model;
    return {
      content,
      model: typeof model === 'string' ? model : request.model,
      finishReason: typeof choice?.finish_reason === 'string' ? choice.finish_reason : null,
    };
  }

  return {
    /** Asks the model; resolves with its answer or throws a ChatCompletionError. */
    async complete(request: ChatCompletionRequest): Promise<ChatCompletion> {
      for (let n = 0; ; n++) {
        const result = await attempt(request);
        if (!('retry' in result)) return result;
        if (n >= maxRetries) throw result.retry;
        // Exponential backoff with jitter (0.5 s, 1 s, …) unless the provider said how long to wait.
        const backoff = 500 * 2 ** n * (0.75 + Math.random() * 0.5);
        await sleep(Math.min(result.waitMs ?? backoff, maxDelay));
      }
    },
  };
}

export type ChatCompletionsClient = ReturnType<typeof createChatCompletionsClient>;
