// The chat-completions client against the fake OpenAI-compatible server, over real HTTP.
import { type FakeOpenAi, listen, startFakeOpenAi } from '@hablabot/fakes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatCompletionError, createChatCompletionsClient } from './chat-completions';

let fake: FakeOpenAi;
const FAKE_KEY = 'sk-fake-openai';
const waits: number[] = [];

beforeAll(async () => {
  fake = await startFakeOpenAi({ apiKeys: [FAKE_KEY] });
  fake.reply = (request) => `Respuesta de prueba a: ${request.messages.at(-1)?.content ?? ''}`;
});
afterAll(async () => {
  await fake.close();
});

const client = (options: Parameters<typeof createChatCompletionsClient>[0] = {}) =>
  createChatCompletionsClient({
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...options,
  });

const request = (overrides: Record<string, unknown> = {}) => ({
  endpoint: fake.endpoint,
  apiKey: FAKE_KEY,
  model: 'gpt-4o-mini',
  messages: [
    { role: 'system' as const, content: 'Eres un bot.' },
    { role: 'user' as const, content: 'Hola' },
  ],
  ...overrides,
});

async function failure(promise: Promise<unknown>): Promise<ChatCompletionError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ChatCompletionError) return err;
    throw err;
  }
  throw new Error('expected a ChatCompletionError');
}

describe('chat completions client', () => {
  it('sends model, messages and max_completion_tokens with the bearer key, and reads the answer', async () => {
    const answer = await client().complete(request({ maxCompletionTokens: 300, temperature: 0.2 }));
    expect(answer).toEqual({
      content: 'Respuesta de prueba a: Hola',
      model: 'gpt-4o-mini',
      finishReason: 'stop',
    });
    const sent = fake.requests.at(-1)!;
    expect(sent.headers.authorization).toBe(`Bearer ${FAKE_KEY}`);
    expect(sent.body).toEqual({
      model: 'gpt-4o-mini',
      messages: request().messages,
      max_completion_tokens: 300,
      temperature: 0.2,
    });
  });

  it('never retries a wrong key, a missing model or an exhausted quota', async () => {
    const before = fake.requests.length;
    const key = await failure(client().complete(request({ apiKey: 'sk-nope' })));
    expect(key).toMatchObject({ kind: 'invalid_api_key', status: 401 });
    expect(key.providerMessage).toMatch(/^Incorrect API key provided/);
    const model = await failure(client().complete(request({ model: 'text-davinci-003' })));
    expect(model).toMatchObject({
      kind: 'model_not_found',
      status: 404,
      providerMessage: 'The model `text-davinci-003` does not exist or you do not have access to it.',
    });
    fake.failNext({
      status: 429,
      body: {
        error: {
          message: 'You exceeded your current quota.',
          type: 'insufficient_quota',
          code: 'insufficient_quota',
        },
      },
    });
    expect(await failure(client().complete(request()))).toMatchObject({
      kind: 'insufficient_quota',
      status: 429,
    });
    // Each of the three was tried once: no retry.
    expect(fake.requests.length - before).toBe(3);
  });

  it('retries 429 and 5xx, honouring retry-after-ms and retry-after, at most twice', async () => {
    waits.length = 0;
    fake.failNext({
      status: 429,
      body: { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } },
      headers: { 'retry-after-ms': '1500' },
    });
    fake.failNext({
      status: 503,
      body: { error: { message: 'overloaded', type: 'server_error', code: null } },
      headers: { 'retry-after': '2' },
    });
    const answer = await client().complete(request());
    expect(answer.content).toBe('Respuesta de prueba a: Hola');
    expect(waits).toEqual([1500, 2000]);

    waits.length = 0;
    for (let i = 0; i < 3; i++)
      fake.failNext({
        status: 500,
        body: { error: { message: `boom ${i}`, type: 'server_error', code: null } },
      });
    const exhausted = await failure(client().complete(request()));
    expect(exhausted).toMatchObject({ kind: 'provider_error', status: 500, providerMessage: 'boom 2' });
    expect(waits).toHaveLength(2);
  });

  it('caps a long retry-after at maxRetryDelayMs', async () => {
    waits.length = 0;
    fake.failNext({
      status: 429,
      body: { error: { message: 'slow down', type: 'requests', code: 'rate_limit_exceeded' } },
      headers: { 'retry-after': '3600' },
    });
    await client({ maxRetryDelayMs: 2000 }).complete(request());
    expect(waits).toEqual([2000]);
  });

  it('reports an endpoint that does not answer, and an answer without a message', async () => {
    const down = await failure(
      client({ maxRetries: 0 }).complete(request({ endpoint: 'http://127.0.0.1:9/v1/chat/completions' })),
    );
    expect(down).toMatchObject({ kind: 'unreachable', status: 0 });
    fake.failNext({ status: 200, body: { id: 'x', object: 'chat.completion', choices: [] } });
    expect(await failure(client().complete(request()))).toMatchObject({ kind: 'bad_response', status: 200 });
    const wrongPath = await failure(client().complete(request({ endpoint: `${fake.url}/v1/completions` })));
    expect(wrongPath).toMatchObject({ kind: 'provider_error', status: 404 });
  });

  it('gives up on a provider slower than the timeout', async () => {
    // A server that accepts the connection and never answers.
    const silent = await listen(() => {});
    try {
      const late = await failure(
        client({ timeoutMs: 200, maxRetries: 0 }).complete(
          request({ endpoint: `${silent.url}/v1/chat/completions` }),
        ),
      );
      expect(late).toMatchObject({ kind: 'timeout', status: 0 });
    } finally {
      await silent.close();
    }
  });
});
