import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { callOutside, streamOutside } from '../http/outbound';
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
  /** WhatsApp gave no SHA-256 (Meta always does): nothing is downloaded. */
  | 'no_checksum'
  /** The outbound policy does not let the server call the address (a private one, http in production). */
  | 'address_refused'
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
  /** Meta always sends one; an answer without it is refused before anything is downloaded. */
  sha256: string;
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
  /** How long WhatsApp may take to answer (15 s by default). */
  timeoutMs?: number;
}): Promise<MediaInfo | MediaProblem> {
  const result = await callOutside(graphUrl(input.baseUrl, encodeURIComponent(input.mediaId)), {
    headers: { authorization: `Bearer ${input.token}` },
    timeoutMs: input.timeoutMs ?? RETRIEVE_TIMEOUT_MS,
  });
  if (result.kind === 'timeout') return problem('unavailable', true, 'retrieve timed out');
  if (result.kind === 'unreachable')
    return problem('unavailable', true, `retrieve unreachable: ${result.code}`);
  if (result.kind === 'refused')
    return problem('address_refused', false, `retrieve refused: ${result.reason}`);
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
  // Bytes are kept only when they hash to what Graph said: without a hash there is nothing to check.
  if (typeof body.sha256 !== 'string' || !body.sha256)
    return problem('no_checksum', false, 'retrieve answered without a sha256');
  const size = Number(body.file_size);
  return {
    ok: true,
    url: body.url,
    mimeType: typeof body.mime_type === 'string' && body.mime_type ? body.mime_type : null,
    sha256: body.sha256,
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
 * Downloads the URL Graph named, with the bearer token, into a new file in `dir`, hashing as it goes and
 * stopping as soon as more than `maxBytes` arrive. The call follows the outbound policy (streamOutside):
 * a URL on a private address is refused before the token is sent, and no redirect is followed (the
 * token would go with it), so the token reaches only the configured Graph API and the host it named.
 */
export async function downloadMedia(input: {
  url: string;
  token: string;
  maxBytes: number;
  dir: string;
  timeoutMs: number;
}): Promise<DownloadedMedia | MediaProblem> {
  const response = await streamOutside(input.url, {
    headers: { authorization: `Bearer ${input.token}`, accept: '*/*' },
    timeoutMs: input.timeoutMs,
  });
  if (response.kind === 'refused')
    return problem('address_refused', false, `download refused: ${response.reason}`);
  if (response.kind === 'timeout') return problem('unavailable', true, 'download timed out');
  if (response.kind === 'unreachable')
    return problem('unavailable', true, `download failed: ${response.code}`);
  if (response.status !== 200) {
    response.discard();
    // An expired URL (404), a refused one or a hiccup: a retry asks WhatsApp for a fresh URL.
    return problem('unavailable', true, `download answered ${response.status}`);
  }
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > input.maxBytes) {
    response.discard();
    return problem('too_large', false, `download of ${declared} bytes`);
  }
  const file = path.join(input.dir, `wa-${randomBytes(12).toString('hex')}.part`);
  const out = fs.createWriteStream(file, { flags: 'wx', mode: 0o600 });
  const hash = createHash('sha256');
  let size = 0;
  try {
    for await (const chunk of response.body) {
      size += chunk.byteLength;
      if (size > input.maxBytes) {
        response.discard();
        throw problem('too_large', false, `download passed ${input.maxBytes} bytes`);
      }
      hash.update(chunk);
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    }
    await new Promise<void>((resolve, reject) =>
      out.end((err?: Error | null) => (err ? reject(err) : resolve())),
    );
    return { ok: true, file, size, sha256: hash.digest() };
  } catch (err) {
    out.destroy();
    await fs.promises.rm(file, { force: true });
    if ((err as MediaProblem).ok === false) return err as MediaProblem;
    if (response.signal.aborted) return problem('unavailable', true, 'download timed out');
    return problem('unavailable', true, `download broke off: ${(err as Error).message}`);
  }
}
