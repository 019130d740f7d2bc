import { createHash, createHmac, randomBytes } from 'node:crypto';
import { type FakeGraphApi, GRAPH_ERRORS, checkGraphToken, graphError } from './graph-api';
import type { FakeResponse } from './http';

/**
 * The media edges of the fake WhatsApp Cloud API, as the real one behaves:
 *
 * - `POST /{version}/{phone_number_id}/media` (multipart: `file`, `messaging_product=whatsapp`, `type`
 *   optional) → `{ id }`.
 * - `GET /{version}/{media_id}` → `{ messaging_product, url, mime_type, sha256 (hex), file_size, id }`.
 * - The `url`: a signed address on another path that lives 5 minutes (`urlTtlMs`) and, like Meta's,
 *   needs the bearer token; an expired one answers 404 as Meta's download host does.
 *
 * Both need an accepted token. Tests put a customer's file in with `add()` (as if the customer had sent
 * it), make the next URLs handed out already expired (`staleUrls`), change what the retrieve answer
 * claims (`add(…, { sha256, fileSize })`) to check the server's checks, or make one media fail for a
 * while (`failNext(id, fault, times)`: a 5xx, a timeout, an expired URL) before it answers as usual.
 */

/**
 * One failure of a media's next try, as WhatsApp has them:
 * - `{ status }`: the retrieve answers this status with Meta's error body (503: service unavailable);
 *   with `on: 'download'`, the retrieve answers and the download host answers the status instead;
 * - `'timeout'`: the retrieve answers only after `hangMs` (longer than the server waits);
 * - `'expired'`: the URL handed out has already expired, so the download answers 404.
 */
export type FakeMediaFault = { status: number; on?: 'retrieve' | 'download' } | 'timeout' | 'expired';

export interface FakeMediaFile {
  id: string;
  bytes: Buffer;
  mimeType: string;
  /** What the retrieve answer claims (hex); the bytes' real hash unless a test says otherwise. */
  sha256: string;
  /** What the retrieve answer claims; the bytes' length unless a test says otherwise. */
  fileSize: number | string;
  /** The upload's file name, when it came by upload. */
  fileName?: string;
}

export interface FakeGraphMedia {
  /** Every media object by id: uploads and the files tests added. */
  files: Map<string, FakeMediaFile>;
  /** How long a download URL lives (5 minutes, as Meta's). */
  urlTtlMs: number;
  /** The next this many URLs handed out are already expired. */
  staleUrls: number;
  /** Stores a file as if a customer had sent it; its media id. */
  add(bytes: Buffer, mimeType: string, claims?: { sha256?: string; fileSize?: number | string }): string;
  /** The download requests received (path /whatsapp_business/attachments). */
  downloads(): number;
  /** The next `times` tries of media `id` fail this way (queued after the failures already set). */
  failNext(id: string, fault: FakeMediaFault, times?: number): void;
  /** Media `id` answers as usual from now on (its queued failures are dropped). */
  recover(id: string): void;
  /** How long a `'timeout'` fault holds the answer (30 s). */
  hangMs: number;
  /** The retrieve requests received for media `id`. */
  retrieves(id: string): number;
}

declare module './graph-api' {
  interface FakeGraphApi {
    /** Media upload, retrieve and download (see graph-media.ts). */
    media: FakeGraphMedia;
  }
}

export const MEDIA_DOWNLOAD_PATH = '/whatsapp_business/attachments';
export const MEDIA_URL_TTL_MS = 5 * 60 * 1000;

const newMediaId = () => String(1_000_000_000_000_000n + BigInt(`0x${randomBytes(6).toString('hex')}`));

/** Meta's answer while the service is down for a moment (code 2, "Service temporarily unavailable"). */
const unavailable = (status: number): FakeResponse => ({
  status,
  body: graphError(2, 'Service temporarily unavailable', { type: 'OAuthException' }),
});

/** Adds the media routes to a fake Graph API (called by `startFakeGraphApi`). */
export function installGraphMedia(fake: FakeGraphApi): FakeGraphMedia {
  const signingKey = randomBytes(16);
  const sign = (id: string, expires: number) =>
    createHmac('sha256', signingKey).update(`${id}:${expires}`).digest('hex');

  const faults = new Map<string, FakeMediaFault[]>();
  /** The media's next fault when it is one of this step (the retrieve or the download), taken off. */
  const takeFault = (id: string, step: 'retrieve' | 'download') => {
    const queue = faults.get(id);
    const next = queue?.[0];
    if (!next) return undefined;
    const stepOf = typeof next === 'object' ? (next.on ?? 'retrieve') : 'retrieve';
    if (stepOf !== step) return undefined;
    queue.shift();
    return next;
  };

  const media: FakeGraphMedia = {
    files: new Map(),
    urlTtlMs: MEDIA_URL_TTL_MS,
    staleUrls: 0,
    hangMs: 30_000,
    failNext(id, fault, times = 1) {
      const queue = faults.get(id) ?? [];
      for (let i = 0; i < times; i++) queue.push(fault);
      faults.set(id, queue);
    },
    recover(id) {
      faults.delete(id);
    },
    retrieves: (id) =>
      fake.requests.filter((r) => r.method === 'GET' && /^\/[^/]+\/([^/]+)\/?$/.exec(r.path)?.[1] === id)
        .length,
    add(bytes, mimeType, claims = {}) {
      const id = newMediaId();
      media.files.set(id, {
        id,
        bytes,
        mimeType,
        sha256: claims.sha256 ?? createHash('sha256').update(bytes).digest('hex'),
        fileSize: claims.fileSize ?? bytes.length,
      });
      return id;
    },
    downloads: () => fake.requests.filter((r) => r.path.replace(/\/$/, '') === MEDIA_DOWNLOAD_PATH).length,
  };
  fake.media = media;

  // Upload: multipart/form-data with `file` and `messaging_product`.
  fake.route('POST', '/:version/:phoneId/media', async (request) => {
    const refused = checkGraphToken(fake, request);
    if (refused) return refused;
    const contentType = String(request.headers['content-type'] ?? '');
    let form: FormData;
    try {
      form = await new Response(new Uint8Array(request.raw), {
        headers: { 'content-type': contentType },
      }).formData();
    } catch {
      return { status: 400, body: graphError(100, '(#100) The parameter file is required.') };
    }
    if (form.get('messaging_product') !== 'whatsapp')
      return { status: 400, body: graphError(100, '(#100) The parameter messaging_product is required.') };
    const file = form.get('file');
    if (!file || typeof file === 'string')
      return { status: 400, body: graphError(100, '(#100) The parameter file is required.') };
    const bytes = Buffer.from(await file.arrayBuffer());
    const type = form.get('type');
    const id = media.add(
      bytes,
      typeof type === 'string' && type ? type : file.type || 'application/octet-stream',
    );
    const stored = media.files.get(id);
    if (stored) stored.fileName = file.name;
    return { status: 200, body: { id } };
  });

  // Retrieve: the media's URL and what WhatsApp knows of it. Other ids go on to the routes before.
  fake.route('GET', '/:version/:id', async (request, { id }) => {
    const file = media.files.get(id);
    if (!file) return undefined;
    const refused = checkGraphToken(fake, request);
    if (refused) return refused;
    const fault = takeFault(id, 'retrieve');
    if (fault === 'timeout') {
      await new Promise((resolve) => setTimeout(resolve, media.hangMs).unref());
      return unavailable(503);
    }
    if (typeof fault === 'object') return unavailable(fault.status);
    const stale = fault === 'expired' || media.staleUrls > 0;
    if (stale && fault !== 'expired') media.staleUrls--;
    const expires = Date.now() + (stale ? -1000 : media.urlTtlMs);
    const url = `${fake.url}${MEDIA_DOWNLOAD_PATH}/?mid=${id}&ext=${expires}&hash=${sign(id, expires)}`;
    return {
      status: 200,
      body: {
        messaging_product: 'whatsapp',
        url,
        mime_type: file.mimeType,
        sha256: file.sha256,
        file_size: file.fileSize,
        id,
      },
    };
  });

  // Download: the bytes, with the bearer token, while the signed URL lives.
  fake.route('GET', MEDIA_DOWNLOAD_PATH, (request): FakeResponse => {
    const refused = checkGraphToken(fake, request);
    if (refused) return refused;
    const id = request.query.get('mid') ?? '';
    const expires = Number(request.query.get('ext'));
    const file = media.files.get(id);
    if (!file || request.query.get('hash') !== sign(id, expires)) return GRAPH_ERRORS.unknownObject(id);
    if (!(expires > Date.now())) return { status: 404, body: 'URL signature expired' };
    const fault = takeFault(id, 'download');
    if (typeof fault === 'object') return { status: fault.status, body: 'Service Unavailable' };
    return { status: 200, body: file.bytes, headers: { 'content-type': file.mimeType } };
  });

  return media;
}
