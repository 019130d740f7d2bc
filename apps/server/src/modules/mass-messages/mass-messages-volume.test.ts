// Large sizes: a list of 50,000 clients picked one by one, and a send to 100,000 clients whose
// recipients are queued when the send is accepted. Times are printed (the budget is checked by the
// benchmarks); the test checks what was stored and bounds the time loosely.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSegment } from '../../../test/clients-factories';
import { type TestContext, createTestContext } from '../../../test/context';
import { createCast } from '../../../test/factories';
import { derivedColumns } from '../clients/clients.repository';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
const CLIENTS = 100_000;

let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
let companyId: number;
let segmentId: number;
const clientIds: number[] = [];

beforeAll(async () => {
  ctx = await createTestContext();
  cast = await createCast(ctx);
  companyId = cast.admin.user.company_id!;
  segmentId = (await createSegment(ctx, companyId)).id;
  const { db, settingsRepository, secrets } = ctx.container;
  // Nothing is sent (the send is scheduled months ahead), but a send needs the WhatsApp settings.
  await settingsRepository.upsertSettings(companyId, {
    whatsapp_api_key_enc: secrets.encrypt('EAAG-volume-token'),
    whatsapp_phone_id: '106540352242999',
  });
  const at = new Date().toISOString();
  for (let start = 0; start < CLIENTS; start += 1000) {
    const rows = Array.from({ length: Math.min(1000, CLIENTS - start) }, (_, k) => {
      const i = start + k;
      const values = { name: `Cliente${i}`, last_names: 'Masivo', email: `c${i}@example.test` };
      return {
        company_id: companyId,
        ...values,
        ...derivedColumns(values),
        whatsapp_cellphone: `57300${String(i).padStart(7, '0')}`,
        created_at: at,
        updated_at: at,
      };
    });
    const ids = await db.insertInto('clients').values(rows).returning('id').execute();
    await db
      .insertInto('client_segments')
      .values(ids.map((r) => ({ client_id: r.id, segment_id: segmentId })))
      .execute();
    clientIds.push(...ids.map((r) => r.id));
  }
}, 300_000);

afterAll(async () => {
  await ctx?.close();
});

describe(`mass sends at volume (${engine})`, () => {
  it('take a list of 50,000 picked clients, and queue 100,000 recipients when a send is accepted', {
    timeout: 300_000,
  }, async () => {
    const headers = cast.admin.headers;
    let started = performance.now();
    const picked = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/admin/list-clients',
      headers,
      payload: { name: 'Elegidos', client_ids: clientIds.slice(0, 50_000) },
    });
    const pickMs = performance.now() - started;
    expect(picked.statusCode, picked.body.slice(0, 300)).toBe(201);
    expect(picked.json().data.clients_count).toBe(50_000);

    started = performance.now();
    const all = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/admin/list-clients',
      headers,
      payload: { name: 'Todos', client_ids: [], segment_ids: [segmentId] },
    });
    const segmentMs = performance.now() - started;
    expect(all.statusCode).toBe(201);
    expect(all.json().data.clients_count).toBe(CLIENTS);

    const at = new Date().toISOString();
    const template = await ctx.container.db
      .insertInto('message_templates')
      .values({
        company_id: companyId,
        meta_id: '1',
        name: 'aviso',
        language: 'es',
        status: 'APPROVED',
        category: 'UTILITY',
        components: JSON.stringify([{ type: 'BODY', format: null, text: 'Hola {{1}}', buttons: [] }]),
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    started = performance.now();
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/admin/messages-massive',
      headers,
      payload: {
        name: 'Cien mil',
        message_template_id: template.id,
        list_id: all.json().data.id,
        bodyParameters: { 1: '{{Nombre}}' },
        // Scheduled months ahead: only the queueing is measured, nothing is sent.
        schedule: new Date(Date.now() + 300 * 24 * 60 * 60_000).toISOString(),
      },
    });
    const queueMs = performance.now() - started;
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.counts.total).toBe(CLIENTS);
    const queued = await ctx.container.db
      .selectFrom('mass_message_recipients')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('mass_message_id', '=', res.json().data.id)
      .where('status', '=', 'queued')
      .executeTakeFirstOrThrow();
    expect(Number(queued.n)).toBe(CLIENTS);

    started = performance.now();
    const page = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/admin/messages-massive/${res.json().data.id}/recipients?page=500&per_page=100&search=cliente4999`,
      headers,
    });
    const reportMs = performance.now() - started;
    expect(page.statusCode).toBe(200);

    console.log(
      `volume (${engine}): list of 50,000 picked ${pickMs.toFixed(0)} ms; list from a segment of ${CLIENTS} ${segmentMs.toFixed(0)} ms; ${CLIENTS} recipients queued ${queueMs.toFixed(0)} ms; report search ${reportMs.toFixed(0)} ms`,
    );
    // The budget is 5 s; bounded loosely here so a busy machine does not fail the suite.
    expect(queueMs).toBeLessThan(20_000);
  });
});
