// Meta's review read by the sync, over real HTTP to the fake Graph API: the listing asks for
// `rejected_reason` and `quality_score` (Meta leaves them out unless named), and the stored templates
// take them; the status webhook's own words are kept while the status stays.
import type { MessageTemplate } from '@hablabot/contract';
import { type FakeGraphApi, type RunningFake, fakeTemplate, startFakeGraphApi } from '@hablabot/fakes';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CastApi, createCastApi } from '../../../test/http';
import { routeWebhooksToApp } from '../../../test/whatsapp-company';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
const TOKEN = 'EAAG-fake-template-sync-review';
const WABA = '104400500600900';
const APP_SECRET = 'app-secret-template-sync-review';

let t: CastApi;
let graph: FakeGraphApi;
let webhooks: RunningFake;

const sync = async () => {
  const res = await t.as('admin', 'GET', '/templates/sync');
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as MessageTemplate[];
};
const byName = (list: MessageTemplate[], name: string) => list.find((x) => x.name === name)!;

beforeAll(async () => {
  t = await createCastApi({ templateSync: { timeoutMs: 2000 } });
  graph = await startFakeGraphApi({ tokens: [TOKEN] });
  webhooks = await routeWebhooksToApp(t.api.app, graph, APP_SECRET);
  const res = await t.as('admin', 'POST', '/admin/setting', {
    whatsAppApiKey: TOKEN,
    whatsAppPhoneId: `9${WABA}`,
    whatsAppBusinessAccountId: WABA,
    whatsAppAppSecret: APP_SECRET,
    facebookMessagesApiUrl: graph.baseUrl,
  });
  expect(res.statusCode, res.body).toBe(200);
});
afterAll(async () => {
  await Promise.all([t.api.close(), graph.close(), webhooks.close()]);
});
beforeEach(() => graph.reset());

describe(`the sync reads Meta's review (${engine})`, () => {
  it("stores each template's rejection reason and quality, and changes them when Meta does", async () => {
    graph.templates.set(WABA, [
      fakeTemplate({ id: '801', name: 'aprobada', quality_score: { score: 'GREEN', date: 1764000000 } }),
      fakeTemplate({ id: '802', name: 'rechazada', status: 'REJECTED', rejected_reason: 'PROMOTIONAL' }),
      fakeTemplate({ id: '803', name: 'sin_calificar' }),
    ]);
    const first = await sync();
    const [request] = graph.requests.filter((r) => r.path.endsWith('/message_templates'));
    expect(request!.query.get('fields')?.split(',')).toEqual(
      expect.arrayContaining(['rejected_reason', 'quality_score']),
    );
    expect(byName(first, 'aprobada')).toMatchObject({
      status: 'APPROVED',
      quality: 'GREEN',
      rejected_reason: null,
    });
    expect(byName(first, 'rechazada')).toMatchObject({ status: 'REJECTED', rejected_reason: 'PROMOTIONAL' });
    // Meta rates a template it has not seen sent UNKNOWN; 'NONE' is no reason.
    expect(byName(first, 'sin_calificar')).toMatchObject({ quality: 'UNKNOWN', rejected_reason: null });

    // The quality drops and the rejected one is fixed and approved: the next sync says so.
    const templates = graph.templates.get(WABA)!;
    templates[0]!.quality_score = { score: 'YELLOW' };
    templates[1]!.status = 'APPROVED';
    templates[1]!.rejected_reason = 'NONE';
    const second = await sync();
    expect(byName(second, 'aprobada').quality).toBe('YELLOW');
    expect(byName(second, 'aprobada').updated_at).not.toBe(byName(first, 'aprobada').updated_at);
    expect(byName(second, 'rechazada')).toMatchObject({ status: 'APPROVED', rejected_reason: null });
    // Unchanged: the same row, the same 'last update'.
    expect(byName(second, 'sin_calificar').updated_at).toBe(byName(first, 'sin_calificar').updated_at);
  });

  it("keeps the status webhook's words for a rejection while the status stays", async () => {
    graph.templates.set(WABA, [fakeTemplate({ id: '811', name: 'revisada', status: 'PENDING' })]);
    await sync();
    expect(
      await graph.reviewTemplate({ id: '811' }, 'REJECTED', {
        reason: 'INVALID_FORMAT',
        title: 'Formato no válido',
        description: 'Las variables no pueden ir al principio.',
      }),
    ).toEqual([200]);
    const reviewed = byName((await t.as('admin', 'GET', '/templates')).json().data, 'revisada');
    expect(reviewed.rejected_reason).toBe('Formato no válido: Las variables no pueden ir al principio.');

    expect(byName(await sync(), 'revisada')).toMatchObject({
      status: 'REJECTED',
      rejected_reason: 'Formato no válido: Las variables no pueden ir al principio.',
    });
  });
});
