// "Probar conexión" over real HTTP against the fakes in packages/fakes, which answer like the real
// WhatsApp Cloud API and an OpenAI-compatible server.
import {
  type FakeGraphApi,
  type FakeOpenAi,
  GRAPH_ERRORS,
  OPENAI_ERRORS,
  startFakeGraphApi,
  startFakeOpenAi,
  startFakeServer,
} from '@hablabot/fakes';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext } from '../../../test/context';
import { createUser, type TestUser } from '../../../test/factories';

const TOKEN = 'EAAG-fake-token-0001';
const OPENAI_KEY = 'sk-fake-key-000000001';
const PHONE_ID = '106540352242922';
/** The connection tests wait this long here (10 s in production). */
const TIMEOUT_MS = 400;

let ctx: TestContext;
let graph: FakeGraphApi;
let openai: FakeOpenAi;
let closedUrl: string;

beforeAll(async () => {
  ctx = await createTestContext({ connectionTimeoutMs: TIMEOUT_MS });
  graph = await startFakeGraphApi({
    tokens: [TOKEN],
    phoneNumbers: [
      {
        id: PHONE_ID,
        display_phone_number: '+34 600 11 22 33',
        verified_name: 'Tienda Demo',
        quality_rating: 'GREEN',
      },
    ],
  });
  openai = await startFakeOpenAi({ apiKeys: [OPENAI_KEY] });
  // An address where nothing listens any more.
  const gone = await startFakeServer(() => ({ status: 200 }));
  closedUrl = gone.url;
  await gone.close();
});
afterAll(async () => {
  await Promise.all([ctx.close(), graph.close(), openai.close()]);
});
beforeEach(() => {
  graph.reset();
  openai.reset();
  graph.delayMs = 0;
  openai.delayMs = 0;
});

function call(who: TestUser, url: string, payload: unknown, lang = 'es') {
  return ctx.app.inject({
    method: 'POST',
    url: `/api/v1${url}`,
    headers: { ...who.headers, 'accept-language': lang },
    payload: payload as InjectOptions['payload'],
  });
}

async function adminWith(settings: Record<string, unknown>): Promise<TestUser> {
  const admin = await createUser(ctx, { role: 'admin' });
  // A WhatsApp number belongs to one company: the earlier tests' companies let the fake's number go.
  await ctx.container.db.updateTable('channels').set({ phone_number_id: null }).execute();
  const res = await call(admin, '/admin/setting', settings);
  expect(res.statusCode).toBe(200);
  return admin;
}

const whatsApp = (overrides: Record<string, unknown> = {}) => ({
  whatsAppApiKey: TOKEN,
  whatsAppPhoneId: PHONE_ID,
  facebookMessagesApiUrl: graph.baseUrl,
  ...overrides,
});

const openAi = (overrides: Record<string, unknown> = {}) => ({
  openaiApiKey: OPENAI_KEY,
  openaiModel: 'gpt-4o-mini',
  openaiChatEndpoint: openai.endpoint,
  ...overrides,
});

describe('Probar conexión: WhatsApp', () => {
  it('reads the display name and quality of the stored phone number', async () => {
    const admin = await adminWith(whatsApp());
    const res = await call(admin, '/admin/setting/test/whatsapp', {});
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      problem: null,
      message: 'Conexión correcta con WhatsApp: Tienda Demo (+34 600 11 22 33), calidad alta (verde).',
      phone: {
        display_phone_number: '+34 600 11 22 33',
        verified_name: 'Tienda Demo',
        quality_rating: 'GREEN',
        throughput_level: null,
        messaging_limit_tier: null,
      },
    });
    expect(graph.requests).toHaveLength(1);
    const [sent] = graph.requests;
    expect(sent.method).toBe('GET');
    expect(sent.path).toBe(`/v23.0/${PHONE_ID}`);
    expect(sent.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(sent.query.get('fields')).toBe(
      'display_phone_number,verified_name,quality_rating,throughput,messaging_limit_tier',
    );
    const en = await call(admin, '/admin/setting/test/whatsapp', {}, 'en');
    expect(en.json().message).toBe(
      'Connected to WhatsApp: Tienda Demo (+34 600 11 22 33), quality high (green).',
    );
  });

  it('tests the typed values before they are saved, and saves nothing', async () => {
    const admin = await createUser(ctx, { role: 'admin' });
    const res = await call(admin, '/admin/setting/test/whatsapp', whatsApp());
    expect(res.json().success).toBe(true);
    const stored = await ctx.container.db
      .selectFrom('settings')
      .selectAll()
      .where('company_id', '=', admin.user.company_id!)
      .executeTakeFirst();
    expect(stored).toBeUndefined();
  });

  it('a bad token', async () => {
    const admin = await adminWith(whatsApp({ whatsAppApiKey: 'EAAG-revoked-token' }));
    const res = await call(admin, '/admin/setting/test/whatsapp', {});
    expect(res.json()).toEqual({
      success: false,
      problem: 'bad_token',
      message:
        'WhatsApp rechazó el token de acceso: no es válido o ha caducado. Crea uno nuevo en Meta y guárdalo aquí.',
    });
  });

  it('an unknown phone number id', async () => {
    const admin = await adminWith(whatsApp({ whatsAppPhoneId: '999000111' }));
    const res = await call(admin, '/admin/setting/test/whatsapp', {});
    expect(res.json()).toMatchObject({ success: false, problem: 'unknown_phone_id' });
    expect(res.json().message).toBe(
      'WhatsApp no encuentra el número de teléfono con el ID 999000111, o el token no tiene acceso a él. Revisa el ID del número de teléfono.',
    );
  });

  it('an address where nothing listens', async () => {
    const admin = await adminWith(whatsApp({ facebookMessagesApiUrl: `${closedUrl}/v23.0` }));
    const res = await call(admin, '/admin/setting/test/whatsapp', {});
    expect(res.json()).toMatchObject({ success: false, problem: 'unreachable' });
    expect(res.json().message).toBe(
      `No se pudo conectar con ${new URL(closedUrl).host}: el servidor no existe o no acepta conexiones. Revisa la URL.`,
    );
  });

  it('a service that does not answer in time', async () => {
    graph.delayMs = TIMEOUT_MS * 5;
    const admin = await adminWith(whatsApp());
    const started = Date.now();
    const res = await call(admin, '/admin/setting/test/whatsapp', {});
    expect(res.json()).toMatchObject({ success: false, problem: 'timeout' });
    expect(res.json().message).toBe(
      `${new URL(graph.url).host} no respondió a tiempo (esperamos 0.4 s). Inténtalo más tarde o revisa la URL.`,
    );
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS * 4);
  });

  it('an address that is not the Graph API, and the provider throttling', async () => {
    const site = await startFakeServer(() => ({ status: 404, body: '<html><body>Not Found</body></html>' }));
    try {
      const admin = await adminWith(whatsApp({ facebookMessagesApiUrl: site.url }));
      const res = await call(admin, '/admin/setting/test/whatsapp', {});
      expect(res.json()).toMatchObject({ success: false, problem: 'unexpected_answer' });
      expect(res.json().message).toContain('(HTTP 404), pero no como la API de WhatsApp');
    } finally {
      await site.close();
    }
    const admin = await adminWith(whatsApp());
    graph.failNext(GRAPH_ERRORS.rateLimit());
    const throttled = await call(admin, '/admin/setting/test/whatsapp', {});
    expect(throttled.json()).toMatchObject({ success: false, problem: 'rate_limited' });
  });

  it('says what is missing', async () => {
    const admin = await createUser(ctx, { role: 'admin' });
    const res = await call(admin, '/admin/setting/test/whatsapp', {});
    expect(res.json()).toEqual({
      success: false,
      problem: 'missing_settings',
      message: 'Para probar la conexión falta: token de acceso de WhatsApp, ID del número de teléfono.',
    });
    expect(graph.requests).toHaveLength(0);
  });
});

describe('Probar conexión: OpenAI', () => {
  it('asks for one tiny completion with max_completion_tokens', async () => {
    const admin = await adminWith(openAi());
    const res = await call(admin, '/admin/setting/test/openai', {});
    expect(res.json()).toEqual({
      success: true,
      problem: null,
      message: 'Conexión correcta con OpenAI: el modelo gpt-4o-mini respondió.',
      model: 'gpt-4o-mini',
    });
    const [sent] = openai.requests;
    expect(sent.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);
    expect(sent.body).toMatchObject({ model: 'gpt-4o-mini', max_completion_tokens: 16 });
    expect(sent.body).not.toHaveProperty('max_tokens');
  });

  it('a model the provider does not know (every model of the offered list is retired)', async () => {
    const admin = await adminWith(openAi({ openaiModel: 'gpt-4' }));
    const res = await call(admin, '/admin/setting/test/openai', {});
    expect(res.json()).toEqual({
      success: false,
      problem: 'unknown_model',
      message:
        'El proveedor no reconoce el modelo «gpt-4»: no existe, está retirado o tu clave no tiene acceso. Elige otro modelo o escribe su nombre.',
    });
    // Any model name the admin types is accepted and tried.
    openai.models.add('my-company/finetune-v2');
    const typed = await call(admin, '/admin/setting/test/openai', { openaiModel: 'my-company/finetune-v2' });
    expect(typed.json()).toMatchObject({ success: true, model: 'my-company/finetune-v2' });
  });

  it('a bad key', async () => {
    const admin = await adminWith(openAi({ openaiApiKey: 'sk-wrong-key-123456' }));
    const res = await call(admin, '/admin/setting/test/openai', {});
    expect(res.json()).toEqual({
      success: false,
      problem: 'bad_token',
      message: 'El proveedor rechazó la clave API: no es válida o fue revocada.',
    });
  });

  it('no quota, throttling and an overloaded provider', async () => {
    const admin = await adminWith(openAi());
    openai.failNext(OPENAI_ERRORS.insufficientQuota());
    expect((await call(admin, '/admin/setting/test/openai', {})).json()).toMatchObject({
      problem: 'no_quota',
    });
    openai.failNext(OPENAI_ERRORS.rateLimited());
    expect((await call(admin, '/admin/setting/test/openai', {})).json()).toMatchObject({
      problem: 'rate_limited',
    });
    openai.failNext(OPENAI_ERRORS.overloaded());
    const overloaded = (await call(admin, '/admin/setting/test/openai', {})).json();
    expect(overloaded).toMatchObject({ problem: 'provider_error' });
    // Our own sentence from the status: the provider's text is not repeated.
    expect(overloaded.message).toBe('El proveedor respondió con un error (HTTP 503).');
  });

  it('unreachable, timeout and an address that is not a chat API', async () => {
    const unreachable = await adminWith(openAi({ openaiChatEndpoint: `${closedUrl}/v1/chat/completions` }));
    expect((await call(unreachable, '/admin/setting/test/openai', {})).json()).toMatchObject({
      problem: 'unreachable',
    });

    openai.delayMs = TIMEOUT_MS * 5;
    const slow = await adminWith(openAi());
    expect((await call(slow, '/admin/setting/test/openai', {})).json()).toMatchObject({ problem: 'timeout' });
    openai.delayMs = 0;

    const site = await startFakeServer(() => ({ status: 200, body: '<html>Welcome</html>' }));
    try {
      const wrong = await adminWith(openAi({ openaiChatEndpoint: `${site.url}/` }));
      const res = (await call(wrong, '/admin/setting/test/openai', {}, 'en')).json();
      expect(res).toMatchObject({ problem: 'unexpected_answer' });
      expect(res.message).toBe(
        `${new URL(site.url).host} answered (HTTP 200), but not like an OpenAI-compatible chat API. Check the endpoint.`,
      );
    } finally {
      await site.close();
    }
  });

  it('says what is missing, and limits how often a company tests', async () => {
    const admin = await createUser(ctx, { role: 'admin' });
    const res = await call(admin, '/admin/setting/test/openai', { openaiChatEndpoint: openai.endpoint });
    expect(res.json()).toMatchObject({
      problem: 'missing_settings',
      message: 'Para probar la conexión falta: clave API de OpenAI, modelo.',
    });
    let last = res;
    for (let i = 0; i < 25 && last.statusCode === 200; i++)
      last = await call(admin, '/admin/setting/test/openai', {});
    expect(last.statusCode).toBe(429);
    expect(last.headers['retry-after']).toBeDefined();
    expect(openai.requests).toHaveLength(0);
  });
});

describe('Probar conexión: the secrets and the outbound policy', () => {
  /** A phone number id of its own: a number belongs to one company. */
  const ownPhoneId = () => String(Math.floor(Math.random() * 1e12) + 1e12);
  const secret = 'EAAG-stored-secret-never-elsewhere';

  it('a stored token goes only to the stored address: a typed address needs the token typed again', async () => {
    const phoneId = ownPhoneId();
    const admin = await adminWith(whatsApp({ whatsAppApiKey: secret, whatsAppPhoneId: phoneId }));
    const attacker = await startFakeServer(() => ({ status: 200, body: { verified_name: 'x' } }));
    try {
      const typedUrl = `${attacker.url}/v23.0`;
      const res = await call(admin, '/admin/setting/test/whatsapp', { facebookMessagesApiUrl: typedUrl });
      expect(res.json()).toEqual({
        success: false,
        problem: 'secret_required',
        message: `${new URL(attacker.url).host} no es la dirección guardada: para probarla, escribe otra vez el campo «token de acceso de WhatsApp». El valor guardado solo se envía a la dirección guardada.`,
      });
      expect(attacker.requests).toHaveLength(0);
      const en = await call(
        admin,
        '/admin/setting/test/whatsapp',
        { facebookMessagesApiUrl: typedUrl },
        'en',
      );
      expect(en.json().message).toBe(
        `${new URL(attacker.url).host} is not the saved address: type the WhatsApp access token again to test it. The saved value is only sent to the saved address.`,
      );
      // With the token typed, the typed address is tried (and its token is the typed one).
      await call(admin, '/admin/setting/test/whatsapp', {
        facebookMessagesApiUrl: typedUrl,
        whatsAppApiKey: 'EAAG-typed-just-now',
      });
      expect(attacker.requests.map((r) => r.headers.authorization)).toEqual(['Bearer EAAG-typed-just-now']);
      // The stored address (written with a trailing slash) still gets the stored token.
      await call(admin, '/admin/setting/test/whatsapp', { facebookMessagesApiUrl: `${graph.baseUrl}/` });
      expect(graph.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${secret}`]);
    } finally {
      await attacker.close();
    }
  });

  it('a stored OpenAI key goes only to the stored endpoint', async () => {
    const admin = await adminWith(openAi({ openaiApiKey: 'sk-stored-key-never-elsewhere' }));
    const attacker = await startFakeServer(() => ({ status: 200, body: {} }));
    try {
      const res = await call(admin, '/admin/setting/test/openai', {
        openaiChatEndpoint: `${attacker.url}/v1/chat/completions`,
      });
      expect(res.json()).toMatchObject({ success: false, problem: 'secret_required' });
      expect(attacker.requests).toHaveLength(0);
    } finally {
      await attacker.close();
    }
  });

  it("answers in our own words, never with the remote service's text", async () => {
    const admin = await adminWith(whatsApp({ whatsAppPhoneId: ownPhoneId() }));
    graph.failNext({
      status: 400,
      body: { error: { message: 'root:x:0:0:root:/root:/bin/bash', type: 'OAuthException', code: 1 } },
    });
    const res = await call(admin, '/admin/setting/test/whatsapp', {});
    expect(res.json()).toEqual({
      success: false,
      problem: 'provider_error',
      message: 'El proveedor respondió con un error (HTTP 400).',
    });
    expect(res.body).not.toContain('root:');
  });

  it('repeats a phone number only in the shapes Meta gives it', async () => {
    const admin = await createUser(ctx, { role: 'admin' });
    const odd = await startFakeServer(() => ({
      status: 200,
      body: {
        verified_name: `<b>${'x'.repeat(500)}</b>`,
        display_phone_number: 'root:x:0:0:root',
        quality_rating: 'db password is hunter2',
        throughput: { level: 'see https://evil.example' },
        messaging_limit_tier: '<script>',
      },
    }));
    try {
      const res = await call(admin, '/admin/setting/test/whatsapp', {
        ...whatsApp(),
        facebookMessagesApiUrl: odd.url,
      });
      expect(res.json()).toEqual({
        success: true,
        problem: null,
        message: 'Conexión correcta con WhatsApp: desconocido (desconocido), calidad desconocido.',
        phone: {
          display_phone_number: null,
          verified_name: null,
          quality_rating: null,
          throughput_level: null,
          messaging_limit_tier: null,
        },
      });
    } finally {
      await odd.close();
    }
  });

  it('a private address outside OUTBOUND_ALLOW_PRIVATE is refused before anything is sent', async () => {
    // The tests list 127.0.0.1 and ::1 for their fakes; 127.0.0.2 is as private as any other.
    const admin = await createUser(ctx, { role: 'admin' });
    const port = new URL(graph.url).port;
    for (const url of [
      `http://127.0.0.2:${port}/v23.0`,
      'http://169.254.169.254/latest',
      `http://2130706434:${port}`,
    ]) {
      const res = await call(admin, '/admin/setting/test/whatsapp', {
        ...whatsApp(),
        facebookMessagesApiUrl: url,
      });
      expect(res.json(), url).toEqual({
        success: false,
        problem: 'address_refused',
        message: `El servidor no puede llamar a ${new URL(url).host}: solo se permiten direcciones públicas por https. Revisa la URL.`,
      });
    }
    const openAiRefused = await call(admin, '/admin/setting/test/openai', {
      ...openAi(),
      openaiChatEndpoint: `http://[::ffff:127.0.0.2]:${port}/v1/chat/completions`,
    });
    expect(openAiRefused.json()).toMatchObject({ success: false, problem: 'address_refused' });
    expect(graph.requests).toHaveLength(0);
    expect(openai.requests).toHaveLength(0);
  });
});
