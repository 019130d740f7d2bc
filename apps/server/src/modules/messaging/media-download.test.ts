// A customer's media, end to end over real HTTP: the webhook stores the message, the job asks the fake
// Graph API for the URL, downloads it with the token, checks size and SHA-256, stores it privately, and
// GET /api/v1/admin/files/{id} serves it to the company's admins only.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Message } from '@hablabot/contract';
import { type FakeGraphApi, startFakeGraphApi } from '@hablabot/fakes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext } from '../../../test/context';
import { createCast } from '../../../test/factories';
import { expectRoleMatrix } from '../../../test/role-matrix';
import { inboundBody, signedRequest } from '../../../test/whatsapp-webhook';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
const PHONE_ID = '555000301';
const TOKEN = 'EAAG-fake-media-token';

describe(`media download (${engine})`, () => {
  let ctx: TestContext;
  let graph: FakeGraphApi;
  let cast: Awaited<ReturnType<typeof createCast>>;
  let companyId: number;
  let phoneSeq = 0;

  beforeAll(async () => {
    graph = await startFakeGraphApi({ tokens: [TOKEN] });
    ctx = await createTestContext({ mediaRetry: { waitsMs: [50] } });
    cast = await createCast(ctx);
    companyId = cast.admin.user.company_id!;
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

  /** A customer sends media `mediaId` of this WhatsApp type; the stored message. */
  async function customerSends(type: string, fields: Record<string, unknown>): Promise<Message> {
    const phone = `3462200${String(++phoneSeq).padStart(4, '0')}`;
    const res = await ctx.app.inject(signedRequest(inboundBody(PHONE_ID, phone, type, { [type]: fields })));
    expect(res.statusCode).toBe(200);
    const row = await ctx.container.db
      .selectFrom('messages')
      .select('id')
      .where('company_id', '=', companyId)
      .where('phone', '=', phone)
      .executeTakeFirstOrThrow();
    return (await ctx.container.messagesRepository.findMessage(companyId, row.id))!;
  }

  const reload = async (id: number) => (await ctx.container.messagesRepository.findMessage(companyId, id))!;
  /** Waits until the job has either stored the file or left a note. */
  const settled = async (id: number) => {
    await expect
      .poll(
        async () => {
          const m = await reload(id);
          return m.media_url !== null || m.error_message !== null;
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    return reload(id);
  };
  const fetchFile = (url: string, headers = cast.admin.headers) =>
    ctx.app.inject({ method: 'GET', url, headers });

  const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest();

  const CASES = [
    { type: 'image', mime: 'image/jpeg', size: 4 * 1024 * 1024, inline: true, ext: 'jpg' },
    { type: 'video', mime: 'video/mp4', size: 300_000, inline: true, ext: 'mp4' },
    { type: 'audio', mime: 'audio/ogg; codecs=opus', size: 40_000, inline: true, ext: 'ogg' },
    {
      type: 'document',
      mime: 'application/pdf',
      size: 120_000,
      inline: false,
      ext: 'pdf',
      fileName: 'Presupuesto "final".pdf',
    },
    { type: 'sticker', mime: 'image/webp', size: 400 * 1024, inline: true, ext: 'webp' },
  ] as const;

  for (const c of CASES) {
    it(`fetches a ${c.type}, stores it privately and serves it to the company's admins`, async () => {
      const bytes = randomBytes(c.size);
      const mediaId = graph.media.add(bytes, c.mime);
      const fileName = 'fileName' in c ? c.fileName : undefined;
      const message = await customerSends(c.type, {
        id: mediaId,
        mime_type: c.mime,
        // The webhook gives the hash in base64; the retrieve answer in hex: both are understood.
        sha256: sha(bytes).toString('base64'),
        ...(fileName ? { filename: fileName } : {}),
      });
      expect(message.media_url).toBeNull();
      const done = await settled(message.id);
      expect(done.error_message).toBeNull();
      expect(done.media_url).toBe(`/api/v1/admin/files/${message.id}`);
      expect(done.message_type).toBe(c.type === 'sticker' ? 'image' : c.type);

      const res = await fetchFile(done.media_url!);
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(bytes)).toBe(true);
      expect(res.headers['content-type']).toBe(c.mime);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cache-control']).toMatch(/^private/);
      const disposition = String(res.headers['content-disposition']);
      expect(disposition.startsWith(c.inline ? 'inline;' : 'attachment;')).toBe(true);
      if (fileName) {
        // The quotes are replaced in the plain name; the exact one goes encoded.
        expect(disposition).toContain('filename="Presupuesto _final_.pdf"');
        expect(disposition).toContain(
          `filename*=UTF-8''${encodeURIComponent(fileName).replace(/'/g, '%27')}`,
        );
      } else expect(disposition).toContain(`filename="${c.type}-${message.id}.${c.ext}"`);

      // Not in the public media library: /storage never serves it.
      const key = (
        await ctx.container.db
          .selectFrom('messages')
          .select('media_storage_key')
          .where('id', '=', message.id)
          .executeTakeFirstOrThrow()
      ).media_storage_key!;
      expect(fs.existsSync(path.join(ctx.mediaDir, key))).toBe(false);
      expect((await ctx.app.inject({ method: 'GET', url: `/storage/media/${key}` })).statusCode).toBe(404);
    });
  }

  it('leaves a note and no file when the bytes do not match the SHA-256, keeping the message', async () => {
    const bytes = randomBytes(2048);
    const mediaId = graph.media.add(bytes, 'image/png', { sha256: sha(randomBytes(8)).toString('hex') });
    const message = await customerSends('image', { id: mediaId, mime_type: 'image/png', caption: 'Mi sofá' });
    const done = await settled(message.id);
    expect(done.media_url).toBeNull();
    expect(done.content).toBe('Mi sofá');
    expect(done.error_message).toBe(
      'No se guardó el archivo: su contenido no coincide con la huella SHA-256 que indicó WhatsApp.',
    );
    expect((await fetchFile(`/api/v1/admin/files/${message.id}`)).statusCode).toBe(404);
  });

  it('refuses a file over its type limit, whether WhatsApp says so or the bytes show it', async () => {
    // WhatsApp's size says 6 MB for an image (limit 5 MB): nothing is downloaded.
    const before = graph.media.downloads();
    const declared = graph.media.add(randomBytes(1024), 'image/jpeg', { fileSize: String(6 * 1024 * 1024) });
    const big = await customerSends('image', { id: declared, mime_type: 'image/jpeg' });
    const refused = await settled(big.id);
    expect(refused.media_url).toBeNull();
    expect(refused.error_message).toBe(
      'No se guardó el archivo: pesa más de 5 MB, el máximo de WhatsApp para este tipo.',
    );
    expect(graph.media.downloads()).toBe(before);

    // A sticker that claims to be small but is 600 KB (limit 500 KB): the download stops.
    const sneaky = graph.media.add(randomBytes(600 * 1024), 'image/webp', { fileSize: 1000 });
    const sticker = await customerSends('sticker', { id: sneaky, mime_type: 'image/webp' });
    const stopped = await settled(sticker.id);
    expect(stopped.media_url).toBeNull();
    expect(stopped.error_message).toBe(
      'No se guardó el archivo: pesa más de 500 KB, el máximo de WhatsApp para este tipo.',
    );
  });

  it('asks for a fresh URL and retries when the download URL has expired', async () => {
    const bytes = randomBytes(10_000);
    const mediaId = graph.media.add(bytes, 'audio/mpeg');
    const before = graph.media.downloads();
    graph.media.staleUrls = 1;
    const message = await customerSends('audio', { id: mediaId, mime_type: 'audio/mpeg' });
    const done = await settled(message.id);
    expect(done.error_message).toBeNull();
    expect(done.media_url).not.toBeNull();
    // The expired URL was refused, then a fresh one worked.
    expect(graph.media.downloads() - before).toBe(2);
    const retrieves = graph.requests.filter((r) => r.path === `/v23.0/${mediaId}`);
    expect(retrieves).toHaveLength(2);
    expect(retrieves.every((r) => r.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
    expect((await fetchFile(done.media_url!)).rawPayload.equals(bytes)).toBe(true);
  });

  /** A retrieve answer of our choosing for this media id (a Graph API the admin pointed elsewhere). */
  const retrieveAnswers = new Map<string, Record<string, unknown>>();
  let answersRouted = false;
  function graphAnswers(mediaId: string, body: Record<string, unknown>) {
    if (!answersRouted) {
      graph.route('GET', '/:version/:id', (_request, { id }) =>
        retrieveAnswers.has(id) ? { status: 200, body: retrieveAnswers.get(id) } : undefined,
      );
      answersRouted = true;
    }
    retrieveAnswers.set(mediaId, { messaging_product: 'whatsapp', id: mediaId, ...body });
  }

  /** A server on another loopback address, recording who called it and with what token. */
  async function listenOn(host: string) {
    const calls: (string | undefined)[] = [];
    const server = http.createServer((req, res) => {
      calls.push(req.headers.authorization);
      res.writeHead(200, { 'content-type': 'image/png' }).end('internal secret');
    });
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    const { port } = server.address() as { port: number };
    return {
      url: `http://${host}:${port}`,
      calls,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }

  it('refuses a download URL on a private address outside OUTBOUND_ALLOW_PRIVATE: no token, no bytes', async () => {
    // The tests allow 127.0.0.1 and ::1 for their fakes; 127.0.0.2 is as private as the metadata address.
    const internal = await listenOn('127.0.0.2');
    try {
      const bytes = Buffer.from('internal secret');
      for (const url of [
        `${internal.url}/admin`,
        `http://[::ffff:127.0.0.2]:${new URL(internal.url).port}/admin`,
        'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
      ]) {
        const mediaId = String(7_000_000 + retrieveAnswers.size);
        graphAnswers(mediaId, {
          url,
          mime_type: 'image/png',
          sha256: sha(bytes).toString('hex'),
          file_size: 15,
        });
        const message = await customerSends('image', { id: mediaId, mime_type: 'image/png' });
        const done = await settled(message.id);
        expect(done.media_url, url).toBeNull();
        expect(done.error_message).toBe(
          'No se descargó el archivo: WhatsApp indicó una dirección a la que el servidor no puede llamar.',
        );
        expect((await fetchFile(`/api/v1/admin/files/${message.id}`)).statusCode).toBe(404);
      }
      expect(internal.calls).toEqual([]);
    } finally {
      await internal.close();
    }
  });

  it('downloads nothing when WhatsApp gives no SHA-256, and keeps nothing when it does not match', async () => {
    const host = await listenOn('127.0.0.1');
    try {
      const mediaId = '7100000';
      graphAnswers(mediaId, { url: `${host.url}/file`, mime_type: 'image/png', file_size: 15 });
      const message = await customerSends('image', { id: mediaId, mime_type: 'image/png' });
      const done = await settled(message.id);
      expect(done.media_url).toBeNull();
      expect(done.error_message).toBe(
        'No se descargó el archivo: WhatsApp no indicó su huella SHA-256, así que no se puede comprobar.',
      );
      expect(host.calls).toEqual([]);

      // A hash that does not match: fetched (with the token, from the host Graph named), not kept.
      const wrongId = '7100001';
      graphAnswers(wrongId, {
        url: `${host.url}/file`,
        mime_type: 'image/png',
        sha256: sha(Buffer.from('something else')).toString('hex'),
      });
      const wrong = await settled((await customerSends('image', { id: wrongId, mime_type: 'image/png' })).id);
      expect(wrong.media_url).toBeNull();
      expect(wrong.error_message).toBe(
        'No se guardó el archivo: su contenido no coincide con la huella SHA-256 que indicó WhatsApp.',
      );
      expect(host.calls).toEqual([`Bearer ${TOKEN}`]);
      const stored = await ctx.container.db
        .selectFrom('messages')
        .select('media_storage_key')
        .where('id', 'in', [message.id, wrong.id])
        .execute();
      expect(stored.map((r) => r.media_storage_key)).toEqual([null, null]);
    } finally {
      await host.close();
    }
  });

  it('leaves a note when WhatsApp no longer has the media', async () => {
    const message = await customerSends('document', { id: '999000111', mime_type: 'application/pdf' });
    const done = await settled(message.id);
    expect(done.media_url).toBeNull();
    expect(done.error_message).toBe('No se pudo descargar el archivo: WhatsApp ya no lo tiene disponible.');
  });

  it('fake: an upload gives an id whose URL gives the same bytes, with the token only', async () => {
    const bytes = randomBytes(5000);
    const form = new FormData();
    form.set('messaging_product', 'whatsapp');
    form.set('file', new Blob([bytes], { type: 'image/png' }), 'foto.png');
    const auth = { authorization: `Bearer ${TOKEN}` };
    const up = await fetch(`${graph.baseUrl}/${PHONE_ID}/media`, {
      method: 'POST',
      headers: auth,
      body: form,
    });
    expect(up.status).toBe(200);
    const { id } = (await up.json()) as { id: string };
    const info = (await (await fetch(`${graph.baseUrl}/${id}`, { headers: auth })).json()) as Record<
      string,
      unknown
    >;
    expect(info).toMatchObject({
      id,
      mime_type: 'image/png',
      file_size: 5000,
      sha256: sha(bytes).toString('hex'),
    });
    expect((await fetch(String(info.url))).status).toBe(401);
    const down = await fetch(String(info.url), { headers: auth });
    expect(Buffer.from(await down.arrayBuffer()).equals(bytes)).toBe(true);
    const refused = await fetch(`${graph.baseUrl}/${PHONE_ID}/media`, { method: 'POST', body: form });
    expect(refused.status).toBe(401);
  });

  it('serves a file to the admins of its company only', async () => {
    const bytes = randomBytes(3000);
    const mediaId = graph.media.add(bytes, 'image/png');
    const message = await customerSends('image', { id: mediaId, mime_type: 'image/png' });
    const done = await settled(message.id);
    const url = done.media_url!;
    await expectRoleMatrix(
      ctx,
      cast,
      { method: 'GET', url },
      { anonymous: 401, client: 403, superAdmin: 403, otherAdmin: 404, admin: 200 },
    );
    // Unknown ids and messages without a file look the same.
    expect((await fetchFile('/api/v1/admin/files/987654321')).statusCode).toBe(404);
    expect((await fetchFile('/api/v1/admin/files/abc')).statusCode).toBe(422);
  });
});
