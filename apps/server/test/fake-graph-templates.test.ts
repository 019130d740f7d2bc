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

/** A listing page, or Meta's error. */
interface Answer {
  data: FakeTemplate[];
  paging: { cursors: { before: string; after: string }; next?: string; previous?: string };
  error: { code: number; error_subcode?: number };
}

let graph: FakeGraphApi;

beforeAll(async () => {
  graph = await startFakeGraphApi({ tokens: [TOKEN] });
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
