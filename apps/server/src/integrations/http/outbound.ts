import type { IncomingHttpHeaders } from 'node:http';
import { request as undiciRequest } from 'undici';

/**
 * One HTTP call to an outside service (the Graph API, an OpenAI-compatible server), with the rules every
 * such call follows: a deadline for the whole exchange, no redirects (an address that redirects is not
 * the API it claims to be, and following it could lead anywhere), and a cap on how much of the answer
 * is read. The outcome is data, never an exception: the caller turns it into plain words. A redirect
 * comes back as an answer with its 3xx status, for the caller to reject.
 *
 * Made with undici's `request` (the HTTP client Node's own `fetch` is built on) over its pool of
 * kept-alive connections: without the web streams, `Headers` and `Response` objects `fetch` wraps every
 * exchange in, a mass send's request costs the process about half the CPU, which is what lets one
 * process keep a pace of hundreds of messages a second. It follows no redirect by itself.
 */

export interface OutboundRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Sent as JSON. */
  json?: unknown;
  /** The whole exchange, from connecting to the last byte of the answer. */
  timeoutMs: number;
  /** Bytes of the answer read at most; the rest is dropped. */
  maxBytes?: number;
}

/** An answer's headers, names in lower case; a header sent more than once is read as its first value. */
export interface AnswerHeaders {
  get(name: string): string | null;
}

export type OutboundResult =
  | {
      kind: 'answer';
      status: number;
      /** The answer parsed as JSON, or undefined when it is not JSON. */
      json: unknown;
      text: string;
      headers: AnswerHeaders;
    }
  | { kind: 'timeout' }
  /** Nothing answered: refused, unknown host, reset, TLS failure … `code` is Node's error code. */
  | { kind: 'unreachable'; code: string };

const DEFAULT_MAX_BYTES = 256 * 1024;

function errorCode(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return 'UNKNOWN';
}

function isTimeout(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  return name === 'TimeoutError' || name === 'AbortError';
}

/** Reads the answer up to `maxBytes`; leaving the loop early drops the rest (and that connection). */
async function readCapped(body: AsyncIterable<Buffer>, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    total += chunk.byteLength;
    if (total >= maxBytes) break;
  }
  return Buffer.concat(chunks).subarray(0, maxBytes).toString('utf8');
}

function answerHeaders(headers: IncomingHttpHeaders): AnswerHeaders {
  return {
    get(name) {
      const value = headers[name.toLowerCase()];
      return (Array.isArray(value) ? value[0] : value) ?? null;
    },
  };
}

export async function callOutside(url: string, request: OutboundRequest): Promise<OutboundResult> {
  const signal = AbortSignal.timeout(request.timeoutMs);
  const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
  let body: string | undefined;
  if (request.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(request.json);
  }
  try {
    const response = await undiciRequest(url, { method: request.method ?? 'GET', headers, body, signal });
    const text = await readCapped(response.body, request.maxBytes ?? DEFAULT_MAX_BYTES);
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return {
      kind: 'answer',
      status: response.statusCode,
      json,
      text,
      headers: answerHeaders(response.headers),
    };
  } catch (error) {
    if (isTimeout(error) || signal.aborted) return { kind: 'timeout' };
    return { kind: 'unreachable', code: errorCode(error) };
  }
}

/** The host (and port) of an address, for messages: 'graph.facebook.com', '127.0.0.1:4010'. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
