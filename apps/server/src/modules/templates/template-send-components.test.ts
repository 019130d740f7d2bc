// Templates whose send needs more than body values, sent from the chat over real HTTP to the fake Graph
// API: an IMAGE header's file (picked from the media library, sent by its public link) and a URL button
// whose address ends in {{1}} (its suffix); a DOCUMENT header carries its file name. A missing, blank
// or unasked value is a 422 on its field and nothing reaches WhatsApp.
import type { MediaItem, Message } from '@hablabot/contract';
import { type FakeGraphApi, type FakeTemplate, fakeTemplate, startFakeGraphApi } from '@hablabot/fakes';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../../test/clients-factories';
import { type TestContext, createTestContext } from '../../../test/context';
import { createCast } from '../../../test/factories';
import * as fx from '../../../test/media-fixtures';
import { connectWhatsApp } from '../../../test/whatsapp-company';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
const TOKEN = 'EAAG-template-send-components-token';
const PHONE_ID = '106540352249077';
const WABA = '104400500609077';

const PROMO: FakeTemplate = {
  ...fakeTemplate({ id: '9201', name: 'oferta_pedido' }),
  category: 'MARKETING',
  components: [
    { type: 'HEADER', format: 'IMAGE' },
    { type: 'BODY', text: 'Hola {{1}}, tu pedido está listo.' },
    {
      type: 'BUTTONS',
      buttons: [
        { type: 'QUICK_REPLY', text: 'Gracias' },
        { type: 'URL', text: 'Ver pedido', url: 'https://tienda.example/pedido/{{1}}' },
        { type: 'URL', text: 'Tienda', url: 'https://tienda.example/' },
      ],
    },
  ],
};
const INVOICE: FakeTemplate = {
  ...fakeTemplate({ id: '9202', name: 'factura_mes' }),
  components: [
    { type: 'HEADER', format: 'DOCUMENT' },
    { type: 'BODY', text: 'Tu factura del mes.' },
  ],
};

const PLAIN: FakeTemplate = fakeTemplate({ id: '9203', name: 'saludo_simple' });

let ctx: TestContext;
let fake: FakeGraphApi;
let cast: Awaited<ReturnType<typeof createCast>>;
let companyId: number;

const call = (method: InjectOptions['method'], url: string, body?: unknown) =>
  ctx.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: cast.admin.headers,
    ...(body === undefined ? {} : { payload: body as InjectOptions['payload'] }),
  });

async function libraryFile(filename: string, content: Buffer): Promise<MediaItem> {
  const body = fx.multipart([{ filename, content }]);
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/admin/media/upload',
    headers: { ...cast.admin.headers, ...body.headers },
    payload: body.payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().media;
}

beforeAll(async () => {
  fake = await startFakeGraphApi({
    tokens: [TOKEN],
    phoneNumbers: [
      { id: PHONE_ID, display_phone_number: '15550783977', verified_name: 'Tienda', quality_rating: 'GREEN' },
    ],
  });
  fake.templates.set(WABA, [PROMO, INVOICE, PLAIN]);
  fake.phoneAccounts.set(PHONE_ID, WABA);
  ctx = await createTestContext({ cloudApiTimeoutMs: 2000 });
  cast = await createCast(ctx);
  companyId = cast.admin.user.company_id!;
  await connectWhatsApp(ctx.container, companyId, {
    phoneId: PHONE_ID,
    token: TOKEN,
    appSecret: 'template-send-components-secret',
    baseUrl: fake.baseUrl,
  });
  await ctx.container.settingsRepository.upsertSettings(companyId, { whatsapp_business_account_id: WABA });
  const synced = await call('GET', '/templates/sync');
  expect(synced.statusCode, synced.body).toBe(200);
});
afterAll(async () => {
  await Promise.all([ctx.close(), fake.close()]);
});
beforeEach(() => fake.reset());

describe(`template sends with a media header or a URL button parameter (${engine})`, () => {
  it('carry the header file by its link and the URL suffix, the quick replies kept', async () => {
    const client = await createClient(ctx, companyId, { name: 'Ana' });
    const image = await libraryFile('pedido.png', fx.png());
    const res = await call('POST', '/admin/messages/send-template-message', {
      client_id: client.id,
      templateName: 'oferta_pedido',
      bodyParameters: { '1': 'Ana' },
      media_id: image.id,
      buttonParameters: { '1': 'A-1234' },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect((res.json().data as Message).content).toBe('Hola Ana, tu pedido está listo.');
    expect(fake.sent).toHaveLength(1);
    const components = (fake.sent[0]!.body.template as { components: Record<string, unknown>[] }).components;
    expect(components).toEqual([
      {
        type: 'header',
        parameters: [
          { type: 'image', image: { link: expect.stringMatching(/^https?:\/\/.+\/storage\/.+\.png$/) } },
        ],
      },
      { type: 'body', parameters: [{ type: 'text', text: 'Ana' }] },
      { type: 'button', sub_type: 'url', index: '1', parameters: [{ type: 'text', text: 'A-1234' }] },
      {
        type: 'button',
        sub_type: 'quick_reply',
        index: '0',
        parameters: [{ type: 'payload', payload: 'Gracias' }],
      },
    ]);
  });

  it('of a document header carry its file name', async () => {
    const client = await createClient(ctx, companyId, { name: 'Berta' });
    const doc = await libraryFile('factura-marzo.pdf', fx.pdf());
    const res = await call('POST', '/admin/messages/send-template-message', {
      client_id: client.id,
      templateName: 'factura_mes',
      media_id: doc.id,
    });
    expect(res.statusCode, res.body).toBe(201);
    const components = (fake.sent[0]!.body.template as { components: Record<string, unknown>[] }).components;
    expect(components[0]).toMatchObject({
      type: 'header',
      parameters: [{ type: 'document', document: { filename: 'factura-marzo.pdf' } }],
    });
  });

  it('are refused on their fields before anything reaches WhatsApp', async () => {
    const client = await createClient(ctx, companyId, { name: 'Carla' });
    const image = await libraryFile('otra.png', fx.png());
    const doc = await libraryFile('nota.pdf', fx.pdf());
    const send = (extra: Record<string, unknown>, templateName = 'oferta_pedido') =>
      call('POST', '/admin/messages/send-template-message', {
        client_id: client.id,
        templateName,
        ...(templateName === 'oferta_pedido' ? { bodyParameters: { '1': 'Carla' } } : {}),
        ...extra,
      });

    const bare = await send({});
    expect(bare.statusCode, bare.body).toBe(422);
    expect(Object.keys(bare.json().errors).sort()).toEqual(['buttonParameters.1', 'media_id']);
    expect(bare.json().errors.media_id[0]).toContain('image');

    const wrongKind = await send({ media_id: doc.id, buttonParameters: { '1': 'X' } });
    expect(wrongKind.statusCode).toBe(422);
    expect(Object.keys(wrongKind.json().errors)).toEqual(['media_id']);

    const blank = await send({ media_id: image.id, buttonParameters: { '1': '  ' } });
    expect(blank.statusCode).toBe(422);
    expect(Object.keys(blank.json().errors)).toEqual(['buttonParameters.1']);

    // The second URL button has a fixed address; the quick reply takes no value either.
    const unasked = await send({ media_id: image.id, buttonParameters: { '1': 'X', '2': 'Y' } });
    expect(unasked.statusCode).toBe(422);
    expect(Object.keys(unasked.json().errors)).toEqual(['buttonParameters.2']);

    const notMine = await send({ media_id: 999_999, buttonParameters: { '1': 'X' } });
    expect(notMine.statusCode).toBe(422);

    const imageForDocument = await send({ media_id: image.id }, 'factura_mes');
    expect(imageForDocument.statusCode).toBe(422);
    const noHeader = await send({ media_id: image.id }, 'saludo_simple');
    expect(noHeader.statusCode).toBe(422);
    expect(Object.keys(noHeader.json().errors)).toEqual(['media_id']);
    expect(fake.sent).toHaveLength(0);

    const complete = await call('POST', '/admin/messages/send-template-message', {
      client_id: client.id,
      templateName: 'oferta_pedido',
      bodyParameters: { '1': 'Carla' },
      media_id: image.id,
      buttonParameters: { '1': 'X' },
    });
    expect(complete.statusCode).toBe(201);
    expect(fake.sent).toHaveLength(1);
  });
});
