// The fake Graph API's template listing pages like Meta's: cursors, `next` only while rows remain, and
// Meta's errors for a bad token and an unknown business account.
import {
  type FakeGraphApi,
  type FakeTemplate,
  fakeTemplate,
  startFakeGraphApi,
  TEMPLATES_DEFAULT_LIMIT,
} from '@hablabot/fakes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const TOKEN = 'EAAG-fake-templates-token';
const WABA = '102290129340398';
const PHONE_ID = '106540352242922';

/** A listing page, or Meta's error. */
interface Answer {
  data: FakeTemplate[];
  paging: { cursors: { before: string; after: string }; next?: string; previous?: string };
  error: { code: number; error_subcode?: number };
}

let graph: FakeGraphApi;

beforeAll(async () => {
  graph = await startFakeGraphApi({
    tokens: [TOKEN],
    phoneNumbers: [
      { id: PHONE_ID, display_phone_number: '+34 600', verified_name: 'Tienda', quality_rating: 'GREEN' },
    ],
  });
  graph.templates.set(
    WABA,
    Array.from({ length: 120 }, (_, i) => fakeTemplate({ id: String(5000 + i), name: `t_${i}` })),
  );
  graph.templates.set('200000000000001', []);
});
afterAll(async () => {
  await graph.close();
});

async function get(url: string, token: string | null = TOKEN) {
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, body: (await res.json()) as Answer };
}

describe('fake Graph API: message templates', () => {
  it('pages with cursors and gives next only while rows remain', async () => {
    const names: string[] = [];
    const pages: Answer[] = [];
    let url: string | undefined = `${graph.baseUrl}/${WABA}/message_templates?limit=50`;
    while (url) {
      const { status, body } = await get(url);
      expect(status).toBe(200);
      pages.push(body);
      names.push(...body.data.map((t) => t.name));
      url = body.paging.next;
    }
    expect(pages.map((p) => p.data.length)).toEqual([50, 50, 20]);
    expect(names).toEqual(Array.from({ length: 120 }, (_, i) => `t_${i}`));
    expect(pages[0].paging.previous).toBeUndefined();
    expect(pages[1].paging.previous).toEqual(expect.any(String));
    expect(pages[2].paging.next).toBeUndefined();
    for (const page of pages) {
      expect(page.paging.cursors).toEqual({ before: expect.any(String), after: expect.any(String) });
    }
    // Meta's shape for each row.
    expect(Object.keys(pages[0].data[0]).sort()).toEqual([
      'category',
      'components',
      'id',
      'language',
      'name',
      'status',
    ]);

    // `after` continues after the given row; `before` goes back to the page before it.
    const after = await get(
      `${graph.baseUrl}/${WABA}/message_templates?limit=10&after=${pages[0].paging.cursors.after}`,
    );
    expect(after.body.data[0].name).toBe('t_50');
    const before = await get(
      `${graph.baseUrl}/${WABA}/message_templates?limit=10&before=${pages[1].paging.cursors.before}`,
    );
    expect(before.body.data.map((t) => t.name)).toEqual(Array.from({ length: 10 }, (_, i) => `t_${40 + i}`));
  });

  it('answers the default page size without a limit, and an empty account with no paging', async () => {
    const { body } = await get(`${graph.baseUrl}/${WABA}/message_templates`);
    expect(body.data).toHaveLength(TEMPLATES_DEFAULT_LIMIT);
    expect(body.paging.next).toEqual(expect.any(String));
    const empty = await get(`${graph.baseUrl}/200000000000001/message_templates`);
    expect(empty).toEqual({ status: 200, body: { data: [] } });
  });

  it("answers Meta's errors: 190 for a bad or missing token, 100/33 for an unknown account, 100 for a bad cursor", async () => {
    for (const token of ['not-a-token', null]) {
      const res = await get(`${graph.baseUrl}/${WABA}/message_templates`, token);
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe(190);
    }
    const unknown = await get(`${graph.baseUrl}/999999999/message_templates`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: 100, error_subcode: 33 });
    const cursor = await get(`${graph.baseUrl}/${WABA}/message_templates?after=garbage`);
    expect(cursor.status).toBe(400);
    expect(cursor.body.error.code).toBe(100);
    const limit = await get(`${graph.baseUrl}/${WABA}/message_templates?limit=0`);
    expect(limit.body.error.code).toBe(100);
  });
});

describe('fake Graph API: template sends are checked against its templates', () => {
  const sendTemplate = async (template: Record<string, unknown>) => {
    const res = await fetch(`${graph.baseUrl}/${PHONE_ID}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ messaging_product: 'whatsapp', to: '34600111222', type: 'template', template }),
    });
    return { status: res.status, body: (await res.json()) as Answer };
  };
  const bodyParams = (...values: string[]) => [
    { type: 'body', parameters: values.map((text) => ({ type: 'text', text })) },
  ];

  it('132001 for a missing, other-language or unapproved template; 132000 for a wrong parameter count', async () => {
    graph.templates.set('300000000000009', [
      fakeTemplate({ id: '1', name: 'aviso', body: 'Hola {{1}}, cita el {{2}} ({{1}})' }),
      fakeTemplate({ id: '2', name: 'pendiente', status: 'PENDING' }),
    ]);
    const ok = await sendTemplate({
      name: 'aviso',
      language: { code: 'es' },
      components: bodyParams('Ana', 'lunes'),
    });
    expect(ok.status).toBe(200);

    for (const template of [
      { name: 'no_existe', language: { code: 'es' } },
      { name: 'aviso', language: { code: 'en_US' }, components: bodyParams('Ana', 'lunes') },
      { name: 'pendiente', language: { code: 'es' } },
    ]) {
      const res = await sendTemplate(template);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe(132001);
    }
    for (const components of [bodyParams('Ana'), bodyParams('Ana', 'lunes', 'extra'), undefined]) {
      const res = await sendTemplate({ name: 'aviso', language: { code: 'es' }, components });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe(132000);
    }

    // A number tied to another account cannot send this account's templates.
    graph.phoneAccounts.set(PHONE_ID, WABA);
    const elsewhere = await sendTemplate({
      name: 'aviso',
      language: { code: 'es' },
      components: bodyParams('Ana', 'lunes'),
    });
    expect(elsewhere.body.error.code).toBe(132001);
    graph.phoneAccounts.clear();
  });
});
