import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type MediaItem, ZMediaUploadResponse } from '@hablabot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext } from '../../../test/context';
import { createCast } from '../../../test/factories';
import * as fx from '../../../test/media-fixtures';
import { contentDisposition, parseRange } from './storage.routes';

let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
let image: MediaItem;
let doc: MediaItem;
let text: MediaItem;
const pngBytes = fx.png(16, 16);
const pdfBytes = fx.pdf('Menú del día');

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

async function uploaded(filename: string, content: Buffer): Promise<MediaItem> {
  const body = fx.multipart([{ filename, content }]);
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/admin/media/upload',
    headers: { ...cast.admin.headers, ...body.headers },
    payload: body.payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return ZMediaUploadResponse.parse(res.json()).media;
}

beforeAll(async () => {
  ctx = await createTestContext();
  cast = await createCast(ctx);
  image = await uploaded('logo.png', pngBytes);
  doc = await uploaded('menú del día.pdf', pdfBytes);
  text = await uploaded('horario.txt', fx.txt());
});
afterAll(async () => {
  await ctx.close();
});

const get = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
  ctx.app.inject({ method, url, headers });

/** Sends one raw request line (nothing normalises the path on the way) and answers the status code. */
async function rawStatus(port: number, target: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = '';
    socket.on('data', (chunk) => {
      data += chunk.toString('latin1');
    });
    socket.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0)));
    socket.on('error', reject);
    socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
  });
}

describe(`/storage (${engine})`, () => {
  it('serves an image inline with its type, nosniff, a sandbox and long caching', async () => {
    const res = await get(`/storage/${image.file_path}`);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(pngBytes)).toBe(true);
    expect(res.headers).toMatchObject({
      'content-type': 'image/png',
      'content-length': String(pngBytes.length),
      'x-content-type-options': 'nosniff',
      'content-security-policy': 'sandbox',
      'content-disposition': `inline; filename="logo.png"; filename*=UTF-8''logo.png`,
      'cache-control': 'public, max-age=31536000, immutable',
      'accept-ranges': 'bytes',
    });
    expect(res.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(new Date(String(res.headers['last-modified'])).getTime()).not.toBeNaN();
  });

  it('serves documents only as downloads, under a sandbox that allows nothing', async () => {
    const res = await get(`/storage/${doc.file_path}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="men_ del d_a.pdf"; filename*=UTF-8''men%C3%BA%20del%20d%C3%ADa.pdf`,
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const txt = await get(`/storage/${text.file_path}`);
    expect(txt.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(String(txt.headers['content-disposition'])).toMatch(/^attachment;/);
  });

  it('answers 304 to a cache that already has the file', async () => {
    const first = await get(`/storage/${image.file_path}`);
    const etag = String(first.headers.etag);
    const byTag = await get(`/storage/${image.file_path}`, { 'if-none-match': `W/"x", ${etag}` });
    expect(byTag.statusCode).toBe(304);
    expect(byTag.rawPayload.length).toBe(0);
    const byDate = await get(`/storage/${image.file_path}`, {
      'if-modified-since': String(first.headers['last-modified']),
    });
    expect(byDate.statusCode).toBe(304);
    const stale = await get(`/storage/${image.file_path}`, { 'if-none-match': '"other"' });
    expect(stale.statusCode).toBe(200);
    const older = await get(`/storage/${image.file_path}`, {
      'if-modified-since': 'Mon, 01 Jan 2001 00:00:00 GMT',
    });
    expect(older.statusCode).toBe(200);
  });

  it('serves byte ranges (206) and refuses ranges past the end (416)', async () => {
    const url = `/storage/${doc.file_path}`;
    const size = pdfBytes.length;
    const first = await get(url, { range: 'bytes=0-9' });
    expect(first.statusCode).toBe(206);
    expect(first.headers['content-range']).toBe(`bytes 0-9/${size}`);
    expect(first.headers['content-length']).toBe('10');
    expect(first.rawPayload.equals(pdfBytes.subarray(0, 10))).toBe(true);

    const tail = await get(url, { range: 'bytes=-7' });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(pdfBytes.subarray(size - 7))).toBe(true);

    const open = await get(url, { range: `bytes=${size - 3}-` });
    expect(open.headers['content-range']).toBe(`bytes ${size - 3}-${size - 1}/${size}`);
    expect(open.rawPayload.equals(pdfBytes.subarray(size - 3))).toBe(true);

    const clamped = await get(url, { range: `bytes=5-${size + 1000}` });
    expect(clamped.statusCode).toBe(206);
    expect(clamped.rawPayload.equals(pdfBytes.subarray(5))).toBe(true);

    const past = await get(url, { range: `bytes=${size}-` });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${size}`);
    expect(past.json()).toEqual({ message: 'El rango pedido está fuera del archivo.' });
    expect((await get(url, { range: 'bytes=-0' })).statusCode).toBe(416);

    // Several ranges, other units or nonsense: the whole file, as HTTP allows.
    for (const range of ['bytes=0-1,5-6', 'items=0-1', 'bytes=9-2', 'bytes=abc']) {
      const whole = await get(url, { range });
      expect(whole.statusCode, range).toBe(200);
      expect(whole.rawPayload.equals(pdfBytes)).toBe(true);
    }

    // If-Range: a range of the same file only.
    const etag = String(first.headers.etag);
    expect((await get(url, { range: 'bytes=0-9', 'if-range': etag })).statusCode).toBe(206);
    expect((await get(url, { range: 'bytes=0-9', 'if-range': '"changed"' })).statusCode).toBe(200);
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await get(`/storage/${doc.file_path}`, {}, 'HEAD');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe(String(pdfBytes.length));
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.rawPayload.length).toBe(0);
    const ranged = await get(`/storage/${doc.file_path}`, { range: 'bytes=0-3' }, 'HEAD');
    expect(ranged.statusCode).toBe(206);
    expect(ranged.headers['content-length']).toBe('4');
  });

  it('needs no sign-in (WhatsApp fetches by link) and tells nothing about unknown paths', async () => {
    const res = await get(`/storage/${image.file_path}`, { authorization: 'Bearer nonsense' });
    expect(res.statusCode).toBe(200);
    const missing = await get('/storage/media/ab/ab000000000000000000000000000000.png');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'El archivo no existe.' });
  });

  it('never reads outside the media folder: traversal, encoded traversal, absolute paths, NUL', async () => {
    // Something worth stealing next to the media folder, and inside it under a wrong name.
    fs.writeFileSync(path.join(path.dirname(ctx.mediaDir), 'secret.txt'), 'secret');
    const shard = image.file_path.split('/')[1];
    const attempts = [
      '/storage/../package.json',
      '/storage/media/../../secret.txt',
      '/storage/media/%2e%2e/%2e%2e/secret.txt',
      '/storage/media/%2E%2E%2F%2E%2E%2Fsecret.txt',
      '/storage/media/..%2f..%2fsecret.txt',
      '/storage/media/%252e%252e/secret.txt',
      '/storage/media/..%5c..%5csecret.txt',
      `/storage/media/${shard}/..%2f..%2f..%2fsecret.txt`,
      '/storage//etc/passwd',
      '/storage/media//etc/passwd',
      '/storage/%2fetc%2fpasswd',
      '/storage/media/%2fetc%2fpasswd',
      `/storage/${image.file_path}%00.txt`,
      `/storage/${image.file_path.replace('.png', '%00.png')}`,
      `/storage/${image.file_path.toUpperCase()}`,
      `/storage/${image.file_path}/`,
      '/storage/media/.staging',
      '/storage/media/',
      '/storage/',
      '/storage',
    ];
    for (const url of attempts) {
      const res = await get(url);
      expect([400, 404], `${url} → ${res.statusCode}`).toContain(res.statusCode);
      expect(res.body).not.toContain('secret');
    }
    // The same on a real socket, where no client library tidies the path first.
    // (Listening stays on until the file's context closes.)
    if (!ctx.app.server.listening) await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (ctx.app.server.address() as net.AddressInfo).port;
    for (const url of attempts.slice(0, 13)) {
      expect([400, 404], url).toContain(await rawStatus(port, url));
    }
    expect(await rawStatus(port, `/storage/${image.file_path}`)).toBe(200);
  });

  it('follows no symbolic link planted in the media folder', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'hablabot-outside-'));
    try {
      fs.writeFileSync(path.join(outside, 'secret.png'), 'secret');
      // A file link under a name storage could have handed out, with a library row pointing at it.
      const key = 'cd/cd0000000000000000000000000000aa.png';
      fs.mkdirSync(path.join(ctx.mediaDir, 'cd'), { recursive: true });
      fs.symlinkSync(path.join(outside, 'secret.png'), path.join(ctx.mediaDir, key));
      // A whole shard folder that is a link to elsewhere: a shard no file stored by the tests before this
      // one uses (their names are random, so any shard may exist already).
      const hex = [...'0123456789abcdef'];
      const shard = hex
        .flatMap((a) => hex.map((b) => `${a}${b}`))
        .find((name) => !fs.existsSync(path.join(ctx.mediaDir, name)))!;
      const dirKey = `${shard}/${shard}0000000000000000000000000000aa.png`;
      fs.copyFileSync(
        path.join(outside, 'secret.png'),
        path.join(outside, `${shard}0000000000000000000000000000aa.png`),
      );
      fs.symlinkSync(outside, path.join(ctx.mediaDir, shard));
      for (const storageKey of [key, dirKey]) {
        await ctx.container.mediaRepository.createMedia(cast.admin.user.company_id!, {
          userId: null,
          fileName: 'trap.png',
          storageKey,
          mimeType: 'image/png',
          kind: 'image',
          size: 6,
          sha256: '0'.repeat(64),
        });
      }
      expect((await get(`/storage/media/${key}`)).statusCode).toBe(404);
      expect((await get(`/storage/media/${dirKey}`)).statusCode).toBe(404);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it('serves only files the library still lists', async () => {
    // A file on disk under a valid name but with no row (a failed delete, a stray copy) is not served.
    const key = '12/1200000000000000000000000000abcd.png';
    fs.mkdirSync(path.join(ctx.mediaDir, '12'), { recursive: true });
    fs.writeFileSync(path.join(ctx.mediaDir, key), pngBytes);
    expect((await get(`/storage/media/${key}`)).statusCode).toBe(404);
  });
});

describe('Range and Content-Disposition helpers', () => {
  it('reads one range of bytes', () => {
    expect(parseRange(undefined, 100)).toBeUndefined();
    expect(parseRange('bytes=0-0', 100)).toEqual({ start: 0, end: 0 });
    expect(parseRange('bytes=10-', 100)).toEqual({ start: 10, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-500', 100)).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=90-500', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=150-200', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=5-1', 100)).toBeUndefined();
    expect(parseRange('bytes=-', 100)).toBeUndefined();
    expect(parseRange('bytes=0-1,3-4', 100)).toBeUndefined();
  });

  it('quotes any file name safely', () => {
    expect(contentDisposition('attachment', 'a"b\\c%.pdf')).toBe(
      `attachment; filename="a_b_c_.pdf"; filename*=UTF-8''a%22b%5Cc%25.pdf`,
    );
    expect(contentDisposition('inline', "l'été (1).png")).toBe(
      `inline; filename="l'_t_ (1).png"; filename*=UTF-8''l%27%C3%A9t%C3%A9%20%281%29.png`,
    );
  });
});
