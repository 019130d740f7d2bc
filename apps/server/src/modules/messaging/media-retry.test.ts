// A customer's media that WhatsApp does not give at once, end to end over real HTTP: the fake Cloud API
// answers 503, times out or hands out an expired URL for a while; the download stays pending and is tried
// again by its job until the file is stored (once), or fails after the last try of the 7 days WhatsApp keeps
// the media — judged on a fake clock the test moves. A webhook delivered again meanwhile changes nothing,
// and POST /admin/messages/{id}/media/retry tries a failed one again, for the company's team only.
import { randomBytes } from 'node:crypto';
import type { Message } from '@hablabot/contract';
import { type FakeGraphApi, MEDIA_DOWNLOAD_PATH, startFakeGraphApi } from '@hablabot/fakes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext } from '../../../test/context';
import { createFakeClock } from '../../../test/fake-clock';
import { type TestUser, createCast, createUser } from '../../../test/factories';
import { expectRoleMatrix } from '../../../test/role-matrix';
import { waitFor } from '../../../test/wait';
import { inboundBody, signedRequest } from '../../../test/whatsapp-webhook';
import { on } from '../../platform/events/domain-events';
import { MEDIA_DOWNLOAD_JOB } from './media-download';
import { MEDIA_KEPT_MS } from './media-retry';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
const PHONE_ID = '555000302';
const TOKEN = 'EAAG-fake-media-retry-token';

describe(`media retry (${engine})`, () => {
  let ctx: TestContext;
  let graph: FakeGraphApi;
  let cast: Awaited<ReturnType<typeof createCast>>;
  let agentA: TestUser;
  let agentB: TestUser;
  let companyId: number;
  let phoneSeq = 0;
  // The 7 days are judged on this clock; only the last test moves it.
  const clock = createFakeClock({ start: Date.now() });
  /** The messages `message.updated` was emitted for, in order. */
  const updated: number[] = [];

  beforeAll(async () => {
    graph = await startFakeGraphApi({ tokens: [TOKEN] });
    graph.media.hangMs = 5_000;
    ctx = await createTestContext({
      mediaRetry: { clock, waitsMs: [20], retrieveTimeoutMs: 300 },
      subscribers: [on('message.updated', 'test.media-updated', async (e) => void updated.push(e.messageId))],
    });
    cast = await createCast(ctx);
    companyId = cast.admin.user.company_id!;
    agentA = await createUser(ctx, { role: 'agent', companyId });
    agentB = await createUser(ctx, { role: 'agent', companyId });
    await ctx.container.inboxSettings.save(companyId, { agents_see_all: false });
    await ctx.container.settingsRepository.upsertSettings(companyId, {
      whatsapp_phone_id: PHONE_ID,
      whatsapp_api_key_enc: ctx.container.secrets.encrypt(TOKEN),
      facebook_messages_api_url: graph.baseUrl,
    });
    await ctx.container.jobs.start();
  });
  afterAll(async () => {
    await ctx?.close();
    await graph?.close();
  });

  const nextPhone = () => `3462300${String(++phoneSeq).padStart(4, '0')}`;
  const reload = async (id: number) => (await ctx.container.messagesRepository.findMessage(companyId, id))!;

  /** A customer sends image `mediaId` (as WhatsApp would, possibly again with the same wamid). */
  async function customerSends(mediaId: string, options: { phone?: string; wamid?: string } = {}) {
    const phone = options.phone ?? nextPhone();
    const body = inboundBody(
      PHONE_ID,
      phone,
      'image',
      { image: { id: mediaId, mime_type: 'image/jpeg' } },
      options,
    );
    const res = await ctx.app.inject(signedRequest(body));
    expect(res.statusCode).toBe(200);
    const row = await waitFor(() =>
      ctx.container.db
        .selectFrom('messages')
        .select('id')
        .where('company_id', '=', companyId)
        .where('phone', '=', phone)
        .executeTakeFirst(),
    );
    return reload(row.id);
  }

  /** Waits until the media is no longer pending. */
  const settled = async (id: number): Promise<Message> =>
    waitFor(async () => {
      const m = await reload(id);
      return m.media_status !== 'pending' && m;
    });

  const downloadsOf = (mediaId: string) =>
    graph.requests.filter(
      (r) => r.path.replace(/\/$/, '') === MEDIA_DOWNLOAD_PATH && r.query.get('mid') === mediaId,
    ).length;
  const attemptsOf = async (id: number) =>
    (
      await ctx.container.db
        .selectFrom('messages')
        .select('media_attempts')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).media_attempts;
  /** Download jobs waiting or running. */
  const downloadJobs = async () => {
    const counts = (await ctx.container.jobs.counts())[MEDIA_DOWNLOAD_JOB];
    return (counts?.waiting ?? 0) + (counts?.running ?? 0);
  };
  const updatesOf = (id: number) => updated.filter((m) => m === id).length;
  const fileOf = (id: number, headers = cast.admin.headers) =>
    ctx.app.inject({ method: 'GET', url: `/api/v1/admin/files/${id}`, headers });
  const retry = (id: number | string, headers: Record<string, string> = cast.admin.headers) =>
    ctx.app.inject({ method: 'POST', url: `/api/v1/admin/messages/${id}/media/retry`, headers });

  it('tries a download WhatsApp answers 503 twice again until the file is stored, once', async () => {
    const bytes = randomBytes(5000);
    const mediaId = graph.media.add(bytes, 'image/jpeg');
    graph.media.failNext(mediaId, { status: 503 }, 2);
    const message = await customerSends(mediaId);
    expect(message.media_status).toBe('pending');

    const done = await settled(message.id);
    expect(done.media_status).toBe('ready');
    expect(done.error_message).toBeNull();
    expect(done.media_url).toBe(`/api/v1/admin/files/${message.id}`);
    expect(graph.media.retrieves(mediaId)).toBe(3);
    expect(downloadsOf(mediaId)).toBe(1);
    expect((await fileOf(message.id)).rawPayload.equals(bytes)).toBe(true);
    // The history gives the state too.
    const history = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/admin/client/${message.client_id}/messages`,
      headers: cast.admin.headers,
    });
    expect(history.json().messages.map((m: Message) => m.media_status)).toEqual(['ready']);
    // The chat heard one change (pending → ready); the tries in between change nothing it shows.
    await waitFor(() => updatesOf(message.id) >= 1);
    expect(updatesOf(message.id)).toBe(1);
    await waitFor(async () => (await downloadJobs()) === 0);
  });

  it('tries again after a timeout, an expired URL and a 502 of the download host', async () => {
    const bytes = randomBytes(3000);
    const mediaId = graph.media.add(bytes, 'image/jpeg');
    graph.media.failNext(mediaId, 'timeout');
    graph.media.failNext(mediaId, 'expired');
    graph.media.failNext(mediaId, { status: 502, on: 'download' });
    const message = await customerSends(mediaId);
    const done = await settled(message.id);
    expect(done.media_status).toBe('ready');
    expect(graph.media.retrieves(mediaId)).toBe(4);
    // The expired URL, the 502 and the one that worked.
    expect(downloadsOf(mediaId)).toBe(3);
    expect((await fileOf(message.id)).rawPayload.equals(bytes)).toBe(true);
  });

  it('neither blocks nor repeats the download when WhatsApp delivers the webhook again meanwhile', async () => {
    const bytes = randomBytes(4000);
    const mediaId = graph.media.add(bytes, 'image/jpeg');
    graph.media.failNext(mediaId, { status: 503 }, 1_000_000);
    const phone = nextPhone();
    const wamid = `wamid.media.again.${mediaId}`;
    const message = await customerSends(mediaId, { phone, wamid });
    await waitFor(() => graph.media.retrieves(mediaId) >= 2);

    // The same delivery three more times while the download waits for its next try.
    for (let i = 0; i < 3; i++) await customerSends(mediaId, { phone, wamid });
    const rows = await ctx.container.db
      .selectFrom('messages')
      .select('id')
      .where('company_id', '=', companyId)
      .where('wamid', '=', wamid)
      .execute();
    expect(rows).toEqual([{ id: message.id }]);
    expect((await reload(message.id)).media_status).toBe('pending');
    expect(await downloadJobs()).toBeLessThanOrEqual(1);

    // WhatsApp answers again: the next try stores it, once.
    graph.media.recover(mediaId);
    const done = await settled(message.id);
    expect(done.media_status).toBe('ready');
    expect(downloadsOf(mediaId)).toBe(1);
    await waitFor(async () => (await downloadJobs()) === 0);
    await waitFor(() => updatesOf(message.id) >= 1);
    expect(updatesOf(message.id)).toBe(1);
  });

  it('retries a failed download by hand for the team of the conversation only', async () => {
    const bytes = randomBytes(2000);
    const mediaId = graph.media.add(bytes, 'image/jpeg');
    // WhatsApp says it does not know the media (a permanent answer): failed at once.
    graph.media.failNext(mediaId, { status: 404 });
    const message = await customerSends(mediaId);
    const failed = await settled(message.id);
    expect(failed.media_status).toBe('failed');
    expect(failed.error_message).toBe('No se pudo descargar el archivo: WhatsApp ya no lo tiene disponible.');
    expect(graph.media.retrieves(mediaId)).toBe(1);
    await ctx.container.db
      .updateTable('conversations')
      .set({ assignee_user_id: agentB.user.id })
      .where('client_id', '=', message.client_id)
      .execute();

    const url = `/api/v1/admin/messages/${message.id}/media/retry`;
    await expectRoleMatrix(
      ctx,
      cast,
      { method: 'POST', url },
      { anonymous: 401, client: 403, superAdmin: 403, otherAdmin: 404 },
    );
    // An agent who may not see the conversation: as if it did not exist.
    const hidden = await retry(message.id, agentA.headers);
    expect(hidden.statusCode).toBe(404);
    expect((await reload(message.id)).media_status).toBe('failed');

    // Its assignee may.
    const res = await retry(message.id, agentB.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: message.id, media_status: 'pending', error_message: null });
    expect(res.json().message).toBe('Descargando el archivo de nuevo.');
    const done = await settled(message.id);
    expect(done.media_status).toBe('ready');
    expect((await fileOf(message.id)).rawPayload.equals(bytes)).toBe(true);
    // failed → pending → ready, each heard live.
    await waitFor(() => updatesOf(message.id) >= 3);

    // Nothing to retry once it is stored; unknown and malformed ids.
    expect((await retry(message.id)).statusCode).toBe(409);
    expect((await retry(987654321)).statusCode).toBe(404);
    expect((await retry('abc')).statusCode).toBe(422);
  });

  // Last: it moves the clock 7 days on.
  it('keeps trying while WhatsApp keeps the media, then fails on the last try of the 7 days', async () => {
    const mediaId = graph.media.add(randomBytes(1000), 'image/jpeg');
    graph.media.failNext(mediaId, { status: 503 }, 1_000_000);
    const message = await customerSends(mediaId);
    const keptUntil = Date.parse(message.created_at) + MEDIA_KEPT_MS;

    await waitFor(async () => (await attemptsOf(message.id)) >= 3);
    expect((await reload(message.id)).media_status).toBe('pending');

    // A second before WhatsApp stops keeping it: still tried.
    clock.advance(keptUntil - 1000 - clock.now());
    const before = graph.media.retrieves(mediaId);
    await waitFor(() => graph.media.retrieves(mediaId) >= before + 2);
    expect((await reload(message.id)).media_status).toBe('pending');

    // Then the last try fails it, and nothing is queued any more.
    clock.advance(1000);
    const failed = await settled(message.id);
    expect(failed.media_status).toBe('failed');
    expect(failed.media_url).toBeNull();
    expect(failed.error_message).toBe(
      'No se pudo descargar el archivo de WhatsApp: se intentó durante los 7 días que WhatsApp lo guarda.',
    );
    await waitFor(async () => (await downloadJobs()) === 0);
    await waitFor(() => updatesOf(message.id) >= 1);
    expect(updatesOf(message.id)).toBe(1);
  });
});
