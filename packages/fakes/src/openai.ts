import type http from 'node:http';
import { listen, type RunningFake } from './index';

/**
 * A fake OpenAI-compatible chat-completions server: `POST /v1/chat/completions` with a bearer key,
 * answering in OpenAI's shapes — a `chat.completion` on success, `{ error: { message, type, param,
 * code } }` on failure (401 invalid_api_key, 404 model_not_found for retired models, 400 for a bad body
 * or for `max_tokens`, which newer models refuse). Tests can queue failures (`failNext`) and read every
 * request it received.
 */

/** Models the provider has retired: the fake answers them 404 model_not_found unless told otherwise. */
export const RETIRED_MODELS = [
  'gpt-3.5-turbo',
  'gpt-4',
  'gpt-4-32k',
  'gpt-3.5-turbo-16k',
  'gpt-3.5-turbo-0613',
  'gpt-4-0613',
  'gpt-3.5-turbo-1106',
  'gpt-4-1106',
  'text-davinci-003',
  'code-davinci-002',
] as const;

export interface FakeChatMessage {
  role: string;
  content: string;
}

export interface FakeChatRequest {
  model: string;
  messages: FakeChatMessage[];
  /** The whole JSON body as received. */
  body: Record<string, unknown>;
  authorization: string | undefined;
}

export interface FakeOpenAIOptions {
  /** The only key accepted; default 'sk-fake-openai'. */
  apiKey?: string;
  /** Models answered 404 model_not_found; default RETIRED_MODELS. */
  unavailableModels?: readonly string[];
  /** The assistant's answer; default: 'Respuesta de prueba a: <the last user message>'. */
  reply?: (request: FakeChatRequest) => string;
}

export interface QueuedFailure {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface FakeOpenAI extends RunningFake {
  /** The chat-completions URL to put in settings (`<url>/v1/chat/completions`). */
  endpoint: string;
  apiKey: string;
  /** Every well-formed chat request received, in order (failed ones included). */
  requests: FakeChatRequest[];
  /** The next request (one per call) answers this instead. */
  failNext(failure: QueuedFailure): void;
  setReply(reply: (request: FakeChatRequest) => string): void;
}

const errorBody = (message: string, type: string, code: string | null, param: string | null = null) => ({
  error: { message, type, param, code },
});

function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(text);
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

const lastUserMessage = (request: FakeChatRequest) =>
  [...request.messages].reverse().find((m) => m.role === 'user')?.content ?? '';

export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const apiKey = options.apiKey ?? 'sk-fake-openai';
  const unavailable = new Set(options.unavailableModels ?? RETIRED_MODELS);
  let reply = options.reply ?? ((request) => `Respuesta de prueba a: ${lastUserMessage(request)}`);
  const requests: FakeChatRequest[] = [];
  const failures: QueuedFailure[] = [];
  let sequence = 0;

  const running = await listen(async (req, res) => {
    if (req.method !== 'POST' || req.url?.split('?')[0] !== '/v1/chat/completions') {
      send(
        res,
        404,
        errorBody(`Unknown request URL: ${req.method} ${req.url}`, 'invalid_request_error', null),
      );
      return;
    }
    const authorization = req.headers.authorization;
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(await readBody(req)) as Record<string, unknown>;
    } catch {
      send(
        res,
        400,
        errorBody('We could not parse the JSON body of your request.', 'invalid_request_error', null),
      );
      return;
    }
    if (authorization !== `Bearer ${apiKey}`) {
      const shown = (authorization ?? '').replace(/^Bearer\s+/i, '');
      send(
        res,
        401,
        errorBody(
          `Incorrect API key provided: ${shown.slice(0, 3)}***${shown.slice(-4)}.`,
          'invalid_request_error',
          'invalid_api_key',
        ),
      );
      return;
    }
    const messages = Array.isArray(body.messages) ? (body.messages as FakeChatMessage[]) : null;
    if (typeof body.model !== 'string' || !messages || messages.length === 0) {
      send(res, 400, errorBody("'model' and 'messages' are required.", 'invalid_request_error', null));
      return;
    }
    const request: FakeChatRequest = { model: body.model, messages, body, authorization };
    requests.push(request);
    const failure = failures.shift();
    if (failure) {
      send(res, failure.status, failure.body, failure.headers);
      return;
    }
    if ('max_tokens' in body) {
      send(
        res,
        400,
        errorBody(
          "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
          'invalid_request_error',
          'unsupported_parameter',
          'max_tokens',
        ),
      );
      return;
    }
    if (unavailable.has(body.model)) {
      send(
        res,
        404,
        errorBody(
          `The model \`${body.model}\` does not exist or you do not have access to it.`,
          'invalid_request_error',
          'model_not_found',
        ),
      );
      return;
    }
    const content = reply(request);
    const promptTokens = messages.reduce((n, m) => n + Math.ceil(String(m.content).length / 4), 0);
    const completionTokens = Math.ceil(content.length / 4);
    send(res, 200, {
      id: `chatcmpl-fake${++sequence}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content, refusal: null },
          finish_reason: 'stop',
        },
      ],
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        total_tokens: promptTokens + completionTokens,
      },
    });
  });

  return {
    ...running,
    endpoint: `${running.url}/v1/chat/completions`,
    apiKey,
    requests,
    failNext: (failure) => failures.push(failure),
    setReply: (next) => {
      reply = next;
    },
  };
}
