import { randomBytes } from 'node:crypto';
import { OPENAI_MODELS } from '@hablabot/contract';
import { bearerOf, type FakeResponse, type FakeServer, type RecordedRequest, startFakeServer } from './http';

/**
 * A fake OpenAI-compatible chat-completions server: the answer and error bodies the real one gives
 * (401 invalid_api_key, 404 model_not_found, 429 rate_limit_exceeded / insufficient_quota, 400 for the
 * old `max_tokens`). The retired models (every one the settings screen lists) answer 404 unless added to
 * `models`.
 */

export interface FakeChatRequest {
  model: string;
  messages: { role: string; content: string }[];
  [key: string]: unknown;
}

export interface FakeOpenAi extends FakeServer {
  /** What settings call openaiChatEndpoint. */
  endpoint: string;
  apiKeys: Set<string>;
  /** Models that answer. */
  models: Set<string>;
  /** The assistant's reply to a request (by default 'ok'). */
  reply: (request: FakeChatRequest) => string;
  /**
   * Customer texts the model answers with FAKE_HANDOFF_MARKER (the bot asks for a person): when the
   * request's last user message holds one of them (case-insensitive), the answer is the marker and a
   * line, whatever `reply` says. Empty by default.
   */
  handoffWhen: string[];
}

/** The marker HablaBot's bot prompt asks the model to start its answer with to hand off to a person. */
export const FAKE_HANDOFF_MARKER = '[[HANDOFF]]';

/** The answer to `request`: the hand-off marker when its last user message holds a `handoffWhen` text. */
function answerOf(fake: FakeOpenAi, request: FakeChatRequest): string {
  const lastUser = [...request.messages].reverse().find((m) => m.role === 'user');
  const text = typeof lastUser?.content === 'string' ? lastUser.content.toLowerCase() : '';
  if (text && fake.handoffWhen.some((phrase) => text.includes(phrase.toLowerCase())))
    return `${FAKE_HANDOFF_MARKER} Te paso con una persona del equipo.`;
  return fake.reply(request);
}

/** The models the settings screen lists, all retired by the provider: they answer 404 here. */
export const RETIRED_MODELS = OPENAI_MODELS;

export const DEFAULT_FAKE_MODELS = ['gpt-4o-mini', 'gpt-4.1-mini', 'gpt-5-mini'];

/** An OpenAI error body. */
export function openAiError(message: string, type: string, code: string | null, param: string | null = null) {
  return { error: { message, type, param, code } };
}

const masked = (key: string) => (key.length > 8 ? `${key.slice(0, 3)}*****${key.slice(-4)}` : '*****');

export const OPENAI_ERRORS = {
  invalidApiKey: (key: string | undefined): FakeResponse => ({
    status: 401,
    body: key
      ? openAiError(
          `Incorrect API key provided: ${masked(key)}. You can find your API key at https://platform.openai.com/account/api-keys.`,
          'invalid_request_error',
          'invalid_api_key',
        )
      : openAiError(
          "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
          'invalid_request_error',
          null,
        ),
  }),
  modelNotFound: (model: string): FakeResponse => ({
    status: 404,
    body: openAiError(
      `The model \`${model}\` does not exist or you do not have access to it.`,
      'invalid_request_error',
      'model_not_found',
    ),
  }),
  rateLimited: (): FakeResponse => ({
    status: 429,
    headers: { 'retry-after-ms': '1000' },
    body: openAiError(
      'Rate limit reached for requests. Please try again in 1s.',
      'requests',
      'rate_limit_exceeded',
    ),
  }),
  insufficientQuota: (): FakeResponse => ({
    status: 429,
    body: openAiError(
      'You exceeded your current quota, please check your plan and billing details.',
      'insufficient_quota',
      'insufficient_quota',
    ),
  }),
  overloaded: (): FakeResponse => ({
    status: 503,
    body: openAiError('The engine is currently overloaded, please try again later.', 'server_error', null),
  }),
  maxTokens: (): FakeResponse => ({
    status: 400,
    body: openAiError(
      "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
      'invalid_request_error',
      'unsupported_parameter',
      'max_tokens',
    ),
  }),
  badRequest: (message: string, param: string | null = null): FakeResponse => ({
    status: 400,
    body: openAiError(message, 'invalid_request_error', null, param),
  }),
};

function completion(model: string, content: string) {
  return {
    id: `chatcmpl-${randomBytes(12).toString('base64url')}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 9, completion_tokens: 1, total_tokens: 10 },
  };
}

export async function startFakeOpenAi(
  options: { apiKeys?: string[]; models?: string[]; port?: number } = {},
): Promise<FakeOpenAi> {
  const server = await startFakeServer(
    (request: RecordedRequest) => ({
      status: 404,
      body: openAiError(`Invalid URL (${request.method} ${request.path})`, 'invalid_request_error', null),
    }),
    options.port,
  );
  const fake = server as FakeOpenAi;
  fake.endpoint = `${server.url}/v1/chat/completions`;
  fake.apiKeys = new Set(options.apiKeys ?? []);
  fake.models = new Set(options.models ?? DEFAULT_FAKE_MODELS);
  fake.reply = () => 'ok';
  fake.handoffWhen = [];

  fake.route('POST', '/v1/chat/completions', (request) => {
    const key = bearerOf(request);
    if (!key || !fake.apiKeys.has(key)) return OPENAI_ERRORS.invalidApiKey(key);
    const body = request.body as Partial<FakeChatRequest> | undefined;
    if (!body || typeof body !== 'object')
      return OPENAI_ERRORS.badRequest('We could not parse the JSON body of your request.');
    if (typeof body.model !== 'string' || !body.model)
      return OPENAI_ERRORS.badRequest('you must provide a model parameter', 'model');
    if (!Array.isArray(body.messages) || body.messages.length === 0)
      return OPENAI_ERRORS.badRequest("Missing required parameter: 'messages'.", 'messages');
    if (!fake.models.has(body.model)) return OPENAI_ERRORS.modelNotFound(body.model);
    if ('max_tokens' in body) return OPENAI_ERRORS.maxTokens();
    return { status: 200, body: completion(body.model, answerOf(fake, body as FakeChatRequest)) };
  });

  return fake;
}
