// Templates written in HablaBot, over real HTTP to the fake Graph API (packages/fakes): created on Meta
// and stored PENDING, refused with field messages before anything is sent when a Meta rule is broken,
// Meta's own refusals worded for the admin, deleted there and here, and Meta's review arriving by the
// signed status webhook, stored at once and sent live to the company's admins.
import type { CreateTemplateRequest, MessageTemplate } from '@hablabot/contract';
import { type FakeGraphApi, type RunningFake, startFakeGraphApi } from '@hablabot/fakes';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PublishedEvent } from '../../platform/events/events';
import { type CastApi, createCastApi } from '../../../test/http';
import { ADMIN_ONLY, expectRoleMatrix } from '../../../test/role-matrix';
import { waitFor } from '../../../test/wait';
import { routeWebhooksToApp } from '../../../test/whatsapp-company';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
const TOKEN = 'EAAG-fake-template-authoring';
const WABA = '104400500600700';
const WABA_B = '104400500600701';
const APP_SECRET = 'app-secret-template-authoring';

let t: CastApi;
let graph: FakeGraphApi;
let webhooks: RunningFake;
const live: PublishedEvent[] = [];
const liveB: PublishedEvent[] = [];

const valid = (name = 'pedido_listo'): CreateTemplateRequest => ({
  name,
  language: 'es',
  category: 'UTILITY',
  components: [
    { type: 'HEADER', format: 'TEXT', text: 'Pedido {{1}}', example: { header_text: ['1234'] } },
    {
      type: 'BODY',
      text: 'Hola {{1}}, tu pedido {{2}} está listo.',
      example: { body_text: [['Ana', '1234']] },
    },
    { type: 'FOOTER', text: 'Tienda Sol' },
    {
      type: 'BUTTONS',
      buttons: [
        { type: 'QUICK_REPLY', text: 'Gracias' },
        { type: 'URL', text: 'Ver pedido', url: 'https://tienda.example/p' },
        { type: 'PHONE_NUMBER', text: 'Llamar', phone_number: '+34600112233' },
      ],
    },
  ],
});

const creations = () =>
  graph.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/message_templates'));
const create = (body: unknown, who: 'admin' | 'otherAdmin' | 'client' = 'admin', lang?: string) =>
  t.as(who, 'POST', '/templates', body, lang);
const listed = async (who: 'admin' | 'otherAdmin' = 'admin') =>
  (await t.as(who, 'GET', '/templates')).json().data as MessageTemplate[];

beforeAll(async () => {
  t = await createCastApi({ templateSync: { timeoutMs: 2000 } });
  graph = await startFakeGraphApi({ tokens: [TOKEN] });
  graph.templates.set(WABA, []);
  graph.templates.set(WABA_B, []);
  webhooks = await routeWebhooksToApp(t.api.app, graph, APP_SECRET);
  for (const [who, waba] of [
    ['admin', WABA],
    ['otherAdmin', WABA_B],
  ] as const) {
    const res = await t.as(who, 'POST', '/admin/setting', {
      whatsAppApiKey: TOKEN,
      whatsAppPhoneId: `9${waba}`,
      whatsAppBusinessAccountId: waba,
      whatsAppAppSecret: APP_SECRET,
      facebookMessagesApiUrl: graph.baseUrl,
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  await t.api.container.events.subscribe(t.companyA, (e) => void live.push(e));
  await t.api.container.events.subscribe(t.companyB, (e) => void liveB.push(e));
});
afterAll(async () => {
  await Promise.all([t.api.close(), graph.close(), webhooks.close()]);
});
beforeEach(() => {
  graph.reset();
});

describe(`creating a template (${engine})`, () => {
  it('creates it on Meta in Meta shape and stores it PENDING, live for the admins', async () => {
    const res = await create(valid());
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json() as { message: string; data: MessageTemplate };
    expect(body.message).toBe('Plantilla «pedido_listo» enviada a WhatsApp para su revisión.');
    expect(body.data).toMatchObject({
      name: 'pedido_listo',
      language: 'es',
      category: 'UTILITY',
      status: 'PENDING',
      rejected_reason: null,
      quality: null,
    });
    expect(body.data.components.map((c) => c.type)).toEqual(['HEADER', 'BODY', 'FOOTER', 'BUTTONS']);

    const [sent] = creations();
    expect(creations()).toHaveLength(1);
    expect(sent!.path).toBe(`/v23.0/${WABA}/message_templates`);
    expect(sent!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(sent!.body).toEqual(valid());
    expect(graph.templates.get(WABA)!.map((x) => x.name)).toContain('pedido_listo');

    expect((await listed()).find((x) => x.name === 'pedido_listo')?.status).toBe('PENDING');
    expect(await listed('otherAdmin')).toEqual([]);
    const event = await waitFor(() => live.find((e) => e.type === 'template.updated'));
    expect(event).toMatchObject({
      data: { deleted: false, template: { id: body.data.id, status: 'PENDING' } },
    });
    expect(liveB.filter((e) => e.type === 'template.updated')).toEqual([]);
  });

  it.each([
    [
      'name with capitals',
      { name: 'Pedido Listo' },
      'name',
      'El nombre solo puede llevar minúsculas, números y guiones bajos (_).',
    ],
    [
      'placeholders with a gap',
      { components: [{ type: 'BODY', text: 'Hola {{1}} {{3}}', example: { body_text: [['a', 'b']] } }] },
      'components.0.text',
      'Las variables se numeran desde {{1}} sin saltos: falta la 2.',
    ],
    [
      'a placeholder without example',
      { components: [{ type: 'BODY', text: 'Hola {{1}}' }] },
      'components.0.example.body_text.0.0',
      'Falta el ejemplo de la variable 1.',
    ],
    [
      'a header of 61',
      {
        components: [
          { type: 'HEADER', format: 'TEXT', text: 'h'.repeat(61) },
          { type: 'BODY', text: 'b' },
        ],
      },
      'components.0.text',
      'El encabezado puede tener como máximo 60 caracteres.',
    ],
    [
      'a body of 1025',
      { components: [{ type: 'BODY', text: 'b'.repeat(1025) }] },
      'components.0.text',
      'El cuerpo puede tener como máximo 1024 caracteres.',
    ],
    [
      'a footer of 61',
      {
        components: [
          { type: 'BODY', text: 'b' },
          { type: 'FOOTER', text: 'f'.repeat(61) },
        ],
      },
      'components.1.text',
      'El pie puede tener como máximo 60 caracteres.',
    ],
    [
      'a button text of 26',
      {
        components: [
          { type: 'BODY', text: 'b' },
          { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'x'.repeat(26) }] },
        ],
      },
      'components.1.buttons.0.text',
      'El texto del botón puede tener como máximo 25 caracteres.',
    ],
    [
      'three URL buttons',
      {
        components: [
          { type: 'BODY', text: 'b' },
          {
            type: 'BUTTONS',
            buttons: [1, 2, 3].map((n) => ({ type: 'URL', text: `Web ${n}`, url: `https://x.example/${n}` })),
          },
        ],
      },
      'components.1.buttons',
      'Se admiten como máximo 2 botones de enlace.',
    ],
    [
      'two phone buttons',
      {
        components: [
          { type: 'BODY', text: 'b' },
          {
            type: 'BUTTONS',
            buttons: [1, 2].map(() => ({
              type: 'PHONE_NUMBER',
              text: 'Llamar',
              phone_number: '+34600112233',
            })),
          },
        ],
      },
      'components.1.buttons',
      'Se admite como máximo 1 botón de teléfono.',
    ],
  ])('refuses %s with 422 and a field message, sending nothing to Meta', async (_, change, field, text) => {
    const res = await create({ ...valid('regla_rota'), ...change });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().errors[field]).toEqual([text]);
    expect(creations()).toHaveLength(0);
    expect((await listed()).map((x) => x.name)).not.toContain('regla_rota');
  });

  it('words the field messages in English too', async () => {
    const res = await create({ ...valid(), name: 'Mal Nombre' }, 'admin', 'en');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.name).toEqual([
      'The name may only hold lower-case letters, digits and underscores (_).',
    ]);
  });

  it("gives Meta's refusal clearly: a name taken in that language is 409 on the name, other refusals 422", async () => {
    const duplicate = await create(valid());
    expect(duplicate.statusCode, duplicate.body).toBe(409);
    expect(duplicate.json().errors.name).toEqual([
      'Ya existe una plantilla con este nombre en este idioma. Elige otro nombre.',
    ]);
    expect(creations()).toHaveLength(1);

    graph.failNext({
      status: 400,
      body: {
        error: {
          message: 'Invalid parameter',
          type: 'OAuthException',
          code: 100,
          error_subcode: 2388040,
          error_user_msg: 'La categoría no coincide con el contenido.',
        },
      },
    });
    const refused = await create(valid('otra_plantilla'));
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe(
      'WhatsApp rechazó la plantilla: La categoría no coincide con el contenido.',
    );
    expect((await listed()).map((x) => x.name)).not.toContain('otra_plantilla');
  });

  it('is for admins only', async () => {
    await expectRoleMatrix(
      t.api,
      t.cast,
      { method: 'POST', url: '/api/v1/templates', payload: valid('matriz') },
      { ...ADMIN_ONLY, admin: 201 },
    );
    const [template] = (await listed()).filter((x) => x.name === 'matriz');
    await expectRoleMatrix(
      t.api,
      t.cast,
      { method: 'DELETE', url: `/api/v1/templates/${template!.id}` },
      { ...ADMIN_ONLY, admin: 200 },
    );
  });
});

describe(`Meta's review by webhook (${engine})`, () => {
  it('stores a rejection with its reason at once and sends it live', async () => {
    const template = (await listed()).find((x) => x.name === 'pedido_listo')!;
    const statuses = await graph.reviewTemplate({ name: 'pedido_listo', language: 'es' }, 'REJECTED', {
      reason: 'INCORRECT_CATEGORY',
    });
    expect(statuses).toEqual([200]);
    const stored = (await listed()).find((x) => x.id === template.id)!;
    expect(stored).toMatchObject({ status: 'REJECTED', rejected_reason: 'INCORRECT_CATEGORY' });
    const event = await waitFor(() =>
      live.find(
        (e) =>
          e.type === 'template.updated' &&
          e.data.template.id === template.id &&
          e.data.template.status === 'REJECTED',
      ),
    );
    expect(event).toMatchObject({
      data: { template: { id: template.id, status: 'REJECTED', rejected_reason: 'INCORRECT_CATEGORY' } },
    });

    await graph.reviewTemplate({ name: 'pedido_listo', language: 'es' }, 'APPROVED');
    expect((await listed()).find((x) => x.id === template.id)).toMatchObject({
      status: 'APPROVED',
      rejected_reason: null,
    });
  });

  it('refuses a review webhook without the company signature and changes nothing', async () => {
    const template = (await listed()).find((x) => x.name === 'pedido_listo')!;
    const saved = graph.webhook!;
    graph.webhook = { ...saved, appSecret: 'not-the-secret' };
    try {
      expect(await graph.reviewTemplate({ id: graph.templates.get(WABA)![0]!.id }, 'DISABLED')).toEqual([
        401,
      ]);
    } finally {
      graph.webhook = saved;
    }
    expect((await listed()).find((x) => x.id === template.id)?.status).toBe('APPROVED');
  });
});

describe(`deleting a template (${engine})`, () => {
  it('deletes it on Meta and here; 404 for another company', async () => {
    const template = (await listed()).find((x) => x.name === 'pedido_listo')!;
    const stranger = await t.as('otherAdmin', 'DELETE', `/templates/${template.id}`);
    expect(stranger.statusCode).toBe(404);

    const res = await t.as('admin', 'DELETE', `/templates/${template.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Plantilla «pedido_listo» eliminada.');
    const [call] = graph.requests.filter((r) => r.method === 'DELETE');
    expect(call!.query.get('name')).toBe('pedido_listo');
    expect(call!.query.get('hsm_id')).toBeTruthy();
    expect((await listed()).map((x) => x.name)).not.toContain('pedido_listo');
    expect(graph.templates.get(WABA)!.map((x) => x.name)).not.toContain('pedido_listo');

    // Meta keeps a deleted name for weeks: creating it again is refused on the name.
    const again = await create(valid());
    expect(again.statusCode).toBe(409);
    expect(again.json().errors.name[0]).toMatch(/se eliminó una plantilla con este nombre/);
  });
});
