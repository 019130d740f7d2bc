import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext } from './context';
import { createUser } from './factories';
import { openStream } from './sse';
import { inboundBody, signedRequest } from './whatsapp-webhook';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
const TOKEN = 'metrics-token-0123456789abcdef';
const PHONE_ID = '555000901';

/** The value of one sample line of the Prometheus text, or undefined when the line is absent. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const inside = line.slice(name.length + 1, line.indexOf('}'));
    const have = inside.split(',');
    if (wanted.every((w) => have.includes(w))) return Number(line.slice(line.indexOf('}') + 1).trim());
  }
  return undefined;
}

describe(`metrics (${engine})`, () => {
  let ctx: TestContext;
  let off: TestContext;
  let admin: Awaited<ReturnType<typeof createUser>>;

  beforeAll(async () => {
    ctx = await createTestContext({ metricsToken: TOKEN });
    off = await createTestContext();
    admin = await createUser(ctx, { role: 'admin' });
    await ctx.container.settingsRepository.upsertSettings(admin.user.company_id!, {
      whatsapp_phone_id: PHONE_ID,
    });
  });
  afterAll(async () => {
    await ctx?.close();
    await off?.close();
  });

  const read = (authorization?: string, on = ctx) =>
    on.app.inject({
      method: 'GET',
      url: '/api/v1/metrics',
      headers: authorization ? { authorization } : {},
    });

  it('has no route without METRICS_TOKEN', async () => {
    expect((await read(`Bearer ${TOKEN}`, off)).statusCode).toBe(404);
  });

  it('answers only the bearer of the token', async () => {
    expect((await read()).statusCode).toBe(401);
    expect((await read(`Bearer ${TOKEN}x`)).statusCode).toBe(401);
    expect((await read(`Basic ${TOKEN}`)).statusCode).toBe(401);
    const ok = await read(`Bearer ${TOKEN}`);
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toMatch(/^text\/plain/);
    expect(ok.body).toContain('hablabot_process_resident_memory_bytes');
  });

  it('counts requests by route pattern, webhook messages by outcome, and jobs by state', async () => {
    await ctx.app.inject({ method: 'GET', url: '/api/v1/health' });
    await ctx.app.inject({ method: 'GET', url: '/api/v1/health' });
    // A URL with an id is counted under its route's pattern, never as itself.
    await ctx.app.inject({ method: 'GET', url: '/api/v1/admin/client/98765' });
    const body = inboundBody(PHONE_ID, '34600111222', 'text', { text: { body: 'Hola' } });
    expect((await ctx.app.inject(signedRequest(body))).statusCode).toBe(200);
    expect((await ctx.app.inject(signedRequest(body))).statusCode).toBe(200);
    await ctx.container.jobs.enqueue('templates.sync', { companyId: 1 });

    const seconds = 'hablabot_http_request_duration_seconds_count';
    // A request is counted once its answer has gone out (Fastify's onResponse), which may come a moment
    // after inject() has the answer in hand: wait for the last one.
    let text = '';
    await expect
      .poll(async () => {
        text = (await read(`Bearer ${TOKEN}`)).body;
        return sample(text, seconds, {
          method: 'GET',
          route: '/api/v1/admin/client/:id',
          status_code: '401',
        });
      })
      .toBe(1);
    expect(sample(text, seconds, { method: 'GET', route: '/api/v1/health', status_code: '200' })).toBe(2);
    expect(
      sample(text, seconds, { method: 'GET', route: '/api/v1/admin/client/:id', status_code: '401' }),
    ).toBe(1);
    expect(text).not.toContain('98765');
    expect(sample(text, 'hablabot_webhook_messages_total', { outcome: 'stored' })).toBe(1);
    expect(sample(text, 'hablabot_webhook_messages_total', { outcome: 'duplicate' })).toBe(1);
    expect(sample(text, 'hablabot_jobs', { name: 'templates.sync', state: 'waiting' })).toBe(1);
  });

  it('counts the event streams open on this instance', async () => {
    const gauge = async () =>
      Number(/^hablabot_event_stream_clients (\d+)$/m.exec((await read(`Bearer ${TOKEN}`)).body)?.[1]);
    const base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const first = await openStream(base, admin);
    const second = await openStream(base, admin);
    await expect.poll(() => first.records.length && second.records.length).toBeGreaterThan(0);
    expect(await gauge()).toBe(2);
    first.close();
    await expect.poll(gauge).toBe(1);
    second.close();
    await expect.poll(gauge).toBe(0);
  });
});
