import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { callOutside } from '../http/outbound';
import { GRAPH_CODES, graphError, graphUrl } from './graph-api';

/**
 * Fetching a customer's media from the WhatsApp Cloud API: `GET {base}/{media_id}` gives a URL (valid 5
 * minutes, bearer token required), its type, SHA-256 and size; the URL gives the bytes. Failures are
 * data: `transient` ones (timeouts, unreachable, 5xx, rate limits, an expired or refused download URL)
 * are worth another try with a fresh URL; the others are not.
 */

export type MediaFailure =
  /** WhatsApp refused the token (190). */
  | 'bad_token'
  /** The media id is unknown or no longer kept by WhatsApp. */
  | 'gone'
  /** Bigger than the limit of its type (by WhatsApp's size, or by the bytes received). */
  | 'too_large'
  /** The bytes do not hash to the SHA-256 WhatsApp gave. */
  | 'checksum'
  /** No usable answer (timeout, network, 5xx, throttled, odd body, expired URL). */
  | 'unavailable';

export interface MediaProblem {
  ok: false;
  reason: MediaFailure;
  transient: boolean;
  /** What went wrong, for the log. */
  detail: string;
}

export interface MediaInfo {
  ok: true;
  url: string;
  mimeType: string | null;
  sha256: string | null;
  fileSize: number | null;
}

const RETRIEVE_TIMEOUT_MS = 15_000;
/** Transient Graph codes: throttling, temporary and generic errors, service down. */
const TRANSIENT_CODES = new Set<number>([
  ...GRAPH_CODES.rateLimits,
  1,
  2,
  4,
  17,
  131000,
  131016,
  131056,
  131057,
]);

const problem = (reason: MediaFailure, transient: boolean, detail: string): MediaProblem => ({
  ok: false,
  reason,
  transient,
  detail,
});

/** `GET {base}/{mediaId}` with the bearer token: where to download the media, and what it claims. */
export async function retrieveMedia(input: {
  baseUrl: string;
  token: string;
  mediaId: string;
}): Promise<MediaInfo | MediaProblem> {
  const result = await callOutside(graphUrl(input.baseUrl, encodeURIComponent(input.mediaId)), {
    headers: { authorization: `Bearer ${input.token}` },
    timeoutMs: RETRIEVE_TIMEOUT_MS,
  });
  if (result.kind === 'timeout') return problem('unavailable', true, 'retrieve timed out');
  if (result.kind === 'unreachable')
    return problem('unavailable', true, `retrieve unreachable: ${result.code}`);
  const error = graphError(result.json);
  if (error || result.status !== 200) {
    const detail = `retrieve ${result.status}: ${error?.message ?? result.text.slice(0, 200)}`;
    if (error?.code === GRAPH_CODES.tokenInvalid) return problem('bad_token', false, detail);
    if (error?.code === GRAPH_CODES.invalidParameter || result.status === 404)
      return problem('gone', false, detail);
    const transient =
      result.status >= 500 ||
      result.status === 429 ||
      (error?.code !== undefined && TRANSIENT_CODES.has(error.code));
    return problem('unavailable', transient, detail);
  }
  const body = (result.json ?? {}) as Record<string, unknown>;
  if (typeof body.url !== 'string' || !/^https?:\/\//i.test(body.url))
    return problem('unavailable', true, 'retrieve answered without a url');
  const size = Number(body.file_size);
  return {
    ok: true,
    url: body.url,
    mimeType: typeof body.mime_type === 'string' && body.mime_type ? body.mime_type : null,
    sha256: typeof body.sha256 === 'string' && body.sha256 ? body.sha256 : null,
    fileSize: body.file_size !== undefined && body.file_size !== null && Number.isFinite(size) ? size : null,
  };
}

/** Whether a SHA-256 given by WhatsApp (hex or base64) is this digest. */
export function sameSha256(claimed: string, digest: Buffer): boolean {
  const c = claimed.trim();
  return c.toLowerCase() === digest.toString('hex') || c === digest.toString('base64');
}

export interface DownloadedMedia {
  ok: true;
  /** A file in `dir`, for the caller to move into storage or remove. */
  file: string;
  size: number;
  sha256: Buffer;
}

/**
 * Downloads the URL with the bearer token into a new file in `dir`, hashing as it goes and stopping as
 * soon as more than `maxBytes` arrive. No redirect is followed (the token would go with it).
 */
export async function downloadMedia(input: {
  url: string;
  token: string;
  maxBytes: number;
  dir: string;
  timeoutMs: number;
  fetch?: typeof fetch;
}): Promise<DownloadedMedia | MediaProblem> {
  const signal = AbortSignal.timeout(input.timeoutMs);
  let response: Response;
  try {
    response = await (input.fetch ?? fetch)(input.url, {
      headers: { authorization: `Bearer ${input.token}` },
      redirect: 'manual',
      signal,
    });
  } catch (err) {
    return problem('unavailable', true, `download failed: ${(err as Error).message}`);
  }
  if (response.status !== 200 || !response.body) {
    await response.body?.cancel().catch(() => undefined);
    // An expired URL (404), a refused one or a hiccup: a retry asks WhatsApp for a fresh URL.
    return problem('unavailable', true, `download answered ${response.status}`);
  }
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > input.maxBytes) {
    await response.body.cancel().catch(() => undefined);
    return problem('too_large', false, `download of ${declared} bytes`);
  }
  const file = path.join(input.dir, `wa-${randomBytes(12).toString('hex')}.part`);
  const out = fs.createWriteStream(file, { flags: 'wx', mode: 0o600 });
  const hash = createHash('sha256');
  let size = 0;
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > input.maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw problem('too_large', false, `download passed ${input.maxBytes} bytes`);
      }
      hash.update(value);
      if (!out.write(value)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    }
    await new Promise<void>((resolve, reject) =>
      out.end((err?: Error | null) => (err ? reject(err) : resolve())),
    );
    return { ok: true, file, size, sha256: hash.digest() };
  } catch (err) {
    out.destroy();
    await fs.promises.rm(file, { force: true });
    if ((err as MediaProblem).ok === false) return err as MediaProblem;
    return problem('unavailable', true, `download broke off: ${(err as Error).message}`);
  }
}
