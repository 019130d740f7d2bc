import fs from 'node:fs';
import http from 'node:http';
import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext } from '../../../test/context';
import { createCast } from '../../../test/factories';
import * as fx from '../../../test/media-fixtures';
import { waitFor } from '../../../test/wait';

// Uploads over a real socket: what a browser sees when the server refuses an upload half-way, and what
// the server leaves behind when the browser gives up half-way.

let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
let port: number;
const MB = 1024 * 1024;

beforeAll(async () => {
  ctx = await createTestContext();
  cast = await createCast(ctx);
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  port = (ctx.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await ctx.close();
});

const staged = () => fs.readdirSync(path.join(ctx.mediaDir, '.staging'));

/**
 * POSTs a streamed body the way a browser does — the whole body goes out (chunked, on a keep-alive
 * connection) even when the answer comes early — and resolves with the answer once both are done. A
 * server that answers early must still read (and drop) the rest: left unread, the upload stalls; closed,
 * the browser sees a broken connection.
 */
function post(body: { payload: Readable; headers: Record<string, string> }) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', reject);
    let received = Buffer.alloc(0);
    let answer: { status: number; body: string } | undefined;
    let sent = false;
    const done = () => {
      if (answer && sent) {
        socket.end();
        resolve(answer);
      }
    };
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end < 0 || answer) return;
      const head = received.subarray(0, end).toString('latin1');
      const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
      if (received.length < end + 4 + length) return;
      answer = {
        status: Number(head.slice(9, 12)),
        body: received.subarray(end + 4, end + 4 + length).toString('utf8'),
      };
      done();
    });
    const headers = { ...cast.admin.headers, ...body.headers };
    socket.write(
      `POST /api/v1/admin/media/upload HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('')}Transfer-Encoding: chunked\r\n\r\n`,
    );
    (async () => {
      for await (const chunk of body.payload) {
        const data = chunk as Buffer;
        const ok = socket.write(
          Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n')]),
        );
        if (!ok) await once(socket, 'drain');
      }
      socket.write('0\r\n\r\n', () => {
        sent = true;
        done();
      });
    })().catch(reject);
  });
}

const until = (check: () => boolean, ms = 5000) => waitFor(check, ms, 20);

describe('uploads over HTTP', () => {
  it('delivers the 422 of an upload refused from its first bytes while the rest is still coming', async () => {
    const res = await post(
      fx.streamedMultipart({ filename: 'foto.png', head: fx.html(), totalBytes: 30 * MB }),
    );
    expect(res.status).toBe(422);
    expect(JSON.parse(res.body).errors.file[0]).toMatch(
      /^El contenido del archivo no es de un tipo admitido/,
    );
    expect(staged()).toEqual([]);
  });

  it('delivers the 422 of an upload over its limit', async () => {
    const res = await post(
      fx.streamedMultipart({ filename: 'grande.png', head: fx.png(), totalBytes: 12 * MB }),
    );
    expect(res.status).toBe(422);
    expect(JSON.parse(res.body).message).toBe('La imagen supera el tamaño máximo de 5 MB.');
    expect(staged()).toEqual([]);
  });

  it('stores a streamed upload of many megabytes', async () => {
    const res = await post(
      fx.streamedMultipart({ filename: 'manual.pdf', head: fx.pdf(), totalBytes: 24 * MB }),
    );
    expect(res.status, res.body).toBe(201);
    const media = JSON.parse(res.body).media;
    expect(media.size).toBe(24 * MB);
    expect(fs.statSync(path.join(ctx.mediaDir, media.file_path.slice('media/'.length))).size).toBe(24 * MB);
  });

  it('removes the partial file when the browser gives up half-way', async () => {
    const before = await ctx.container.mediaRepository.listMedia(cast.admin.user.company_id!, {
      limit: 1000,
      offset: 0,
    });
    const body = fx.streamedMultipart({ filename: 'cortado.pdf', head: fx.pdf(), totalBytes: 50 * MB });
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/v1/admin/media/upload',
      headers: { ...cast.admin.headers, ...body.headers, 'transfer-encoding': 'chunked' },
    });
    req.on('error', () => undefined);
    // Send the first 3 MB, see the staged file appear, then drop the connection.
    let sent = 0;
    for await (const chunk of body.payload) {
      req.write(chunk);
      sent += (chunk as Buffer).length;
      if (sent > 3 * MB) break;
    }
    await until(() => staged().length === 1);
    req.destroy();
    // The staged file is removed on the upload's abort path, after which the upload fails: no media is
    // kept, so the library is checked at once.
    await until(() => staged().length === 0);
    const after = await ctx.container.mediaRepository.listMedia(cast.admin.user.company_id!, {
      limit: 1000,
      offset: 0,
    });
    expect(after.total).toBe(before.total);
  });
});
