// A media header's sample for a new template, over real HTTP to the fake Graph API: the library file
// named by `header_media_id` goes to Meta through the Resumable Upload API (the app, a session, the
// bytes), and Meta's handle is what the template's `example.header_handle` carries; a file that is not
// the company's, of another kind, or of a type Meta does not take is a 422 and nothing reaches Meta.
import type { CreateTemplateRequest, MediaItem } from '@hablabot/contract';
import { type FakeGraphApi, startFakeGraphApi } from '@hablabot/fakes';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CastApi, createCastApi } from '../../../test/http';
import * as fx from '../../../test/media-fixtures';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
const TOKEN = 'EAAG-fake-template-media-sample';
const WABA = '104400500609100';

let t: CastApi;
let graph: FakeGraphApi;

const imageHeader = (name: string, mediaId: number | undefined): CreateTemplateRequest => ({
  name,
  language: 'es',
  category: 'MARKETING',
  components: [
    { type: 'HEADER', format: 'IMAGE' },
    { type: 'BODY', text: 'Nuevos precios para {{1}}.', example: { body_text: [['Ana']] } },
  ],
  ...(mediaId === undefined ? {} : { header_media_id: mediaId }),
});

async function libraryFile(
  who: 'admin' | 'otherAdmin',
  filename: string,
  content: Buffer,
): Promise<MediaItem> {
  const body = fx.multipart([{ filename, content }]);
  const res = await t.api.app.inject({
    method: 'POST',
    url: '/api/v1/admin/media/upload',
    headers: { ...t.cast[who].headers, ...body.headers },
    payload: body.payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().media;
}

const toMeta = () => graph.requests.filter((r) => r.method === 'POST');

beforeAll(async () => {
  t = await createCastApi({ templateSync: { timeoutMs: 2000 } });
  graph = await startFakeGraphApi({ tokens: [TOKEN] });
  graph.templates.set(WABA, []);
  const res = await t.as('admin', 'POST', '/admin/setting', {
    whatsAppApiKey: TOKEN,
    whatsAppPhoneId: `9${WABA}`,
    whatsAppBusinessAccountId: WABA,
    facebookMessagesApiUrl: graph.baseUrl,
  });
  expect(res.statusCode, res.body).toBe(200);
});
afterAll(async () => {
  await Promise.all([t.api.close(), graph.close()]);
});
beforeEach(() => graph.reset());

describe(`a media header's sample (${engine})`, () => {
  it("is uploaded to Meta and the template names Meta's handle", async () => {
    const image = fx.png(8, 8);
    const file = await libraryFile('admin', 'precios.png', image);

    const res = await t.as('admin', 'POST', '/templates', imageHeader('nuevos_precios', file.id));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.components[0]).toMatchObject({ type: 'HEADER', format: 'IMAGE' });

    // The app, a session for the file, its bytes (token as OAuth), then the template.
    const [app] = graph.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/app'));
    expect(app!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    const [session, bytes, creation] = toMeta();
    expect(session!.path).toBe(`/v23.0/${graph.appId}/uploads`);
    expect(Object.fromEntries(session!.query)).toEqual({
      file_name: 'precios.png',
      file_length: String(image.length),
      file_type: 'image/png',
    });
    expect(bytes!.path).toMatch(/^\/v23\.0\/upload:/);
    expect(bytes!.headers.authorization).toBe(`OAuth ${TOKEN}`);
    expect(graph.uploads).toHaveLength(1);
    expect(graph.uploads[0]!.bytes.equals(image)).toBe(true);
    expect(creation!.path).toBe(`/v23.0/${WABA}/message_templates`);
    const sent = creation!.body as { components: Record<string, unknown>[]; header_media_id?: unknown };
    expect(sent.components[0]).toEqual({
      type: 'HEADER',
      format: 'IMAGE',
      example: { header_handle: [graph.uploads[0]!.handle] },
    });
    expect(sent).not.toHaveProperty('header_media_id');
  });

  it("refuses another company's file, a file of another kind and a type Meta does not take, sending nothing", async () => {
    const theirs = await libraryFile('otherAdmin', 'ajeno.png', fx.png());
    const video = await libraryFile('admin', 'clip.mp4', fx.mp4());
    const text = await libraryFile('admin', 'nota.txt', Buffer.from('hola'));

    const foreign = await t.as('admin', 'POST', '/templates', imageHeader('ajena', theirs.id));
    expect(foreign.statusCode, foreign.body).toBe(422);
    expect(foreign.json().errors).toEqual({
      header_media_id: ['El archivo de muestra ya no está en la biblioteca de medios.'],
    });
    const wrongKind = await t.as('admin', 'POST', '/templates', imageHeader('otro_tipo', video.id), 'en');
    expect(wrongKind.json().errors).toEqual({
      header_media_id: ['The sample file is not of the kind the header needs.'],
    });
    const document = imageHeader('documento_txt', text.id);
    document.components[0] = { type: 'HEADER', format: 'DOCUMENT' };
    const notTaken = await t.as('admin', 'POST', '/templates', document);
    expect(notTaken.statusCode).toBe(422);
    expect(notTaken.json().errors.header_media_id[0]).toMatch(/^WhatsApp solo acepta como muestra/);

    // No sample at all: the contract's rule, on the header.
    const none = await t.as('admin', 'POST', '/templates', imageHeader('sin_muestra', undefined));
    expect(none.statusCode).toBe(422);
    expect(Object.keys(none.json().errors)).toEqual(['components.0.example.header_handle']);
    expect(toMeta()).toEqual([]);
    expect(graph.uploads).toEqual([]);
  });
});
