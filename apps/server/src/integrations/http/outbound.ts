import type { IncomingHttpHeaders } from 'node:http';
import net from 'node:net';
import type { Readable } from 'node:stream';
import { Agent, buildConnector, request as undiciRequest } from 'undici';
import {
  type AddressRange,
  addressRefusal,
  checkedLookup,
  OutboundRefusedError,
  REFUSED_CODE,
  type Resolve,
} from './address-policy';

/**
 * One HTTP call to an outside service (the Graph API, an OpenAI-compatible server), with the rules every
 * such call follows: a deadline for the whole exchange, no redirects (an address that redirects is not
 * the API it claims to be, and following it could lead anywhere), and a cap on how much of the answer
 * is read. The outcome is data, never an exception: the caller turns it into plain words. A redirect
 * comes back as an answer with its 3xx status, for the caller to reject.
 *
 * Made with undici's `request` (the HTTP client Node's own `fetch` is built on) over its pool of
 * kept-alive connections: without the web streams, `Headers` and `Response` objects `fetch` wraps every
 * exchange in, a mass message's request costs the process about half the CPU, which is what lets one
 * process keep a pace of hundreds of messages a second. It follows no redirect by itself.
 *
 * Every call also follows the outbound policy (see address-policy.ts), because a company admin chooses
 * the addresses: only public addresses, checked on the address the socket connects to, plus the private
 * ones the operator lists in OUTBOUND_ALLOW_PRIVATE; in production only `https`, except to a listed
 * address. A call the policy stops comes back as `refused`, before anything is sent.
 */

export interface OutboundRequest {
  method?: 'GET' | 'POST' | 'DELETE';
  headers?: Record<string, string>;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as they are (a file upload); the caller's headers say their type and length. */
  bytes?: Buffer | Readable;
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
  | { kind: 'unreachable'; code: string }
  /** The outbound policy stopped the call before it connected: a private address, or http in production. */
  | { kind: 'refused'; reason: 'private' | 'not_listed' | 'scheme' };

/** The outbound policy: OUTBOUND_ALLOW_PRIVATE, and whether plain http is limited to it (production). */
export interface OutboundPolicy {
  /** Production: `https` only, except to an address in `allowPrivate`. */
  httpsOnly: boolean;
  /** Private addresses tenants may reach anyway (the demo's and the tests' fakes). */
  allowPrivate: AddressRange[];
  /** The name resolver; the system's unless a test injects one. */
  resolve?: Resolve;
}

/** Until a process says otherwise (main.ts, worker.ts, the test set-up): production's rules, no list. */
let policy: OutboundPolicy = { httpsOnly: true, allowPrivate: [] };
let agent: Agent | undefined;

/** Sets the policy every later call follows (once at start, from the configuration). */
export function configureOutbound(next: OutboundPolicy): void {
  policy = next;
  const previous = agent;
  agent = undefined;
  void previous?.close().catch(() => undefined);
}

/**
 * The connection pool every outside call goes through. Its connector checks an IP-literal host itself
 * (a socket does not look those up) and resolves names through checkedLookup, which hands the socket
 * only allowed addresses. Plain http in production may reach listed addresses only.
 */
function dispatcher(): Agent {
  if (agent) return agent;
  const current = policy;
  const anyAllowed = buildConnector({ lookup: checkedLookup(current, false, current.resolve) });
  const listedOnly = buildConnector({ lookup: checkedLookup(current, true, current.resolve) });
  agent = new Agent({
    connect(options, callback) {
      const onlyListed = current.httpsOnly && options.protocol === 'http:';
      const host = options.hostname.replace(/^\[|\]$/g, '');
      if (net.isIP(host)) {
        const refusal = addressRefusal(host, current, onlyListed);
        if (refusal) {
          callback(new OutboundRefusedError(host, refusal), null);
          return;
        }
      }
      (onlyListed ? listedOnly : anyAllowed)(options, callback);
    },
  });
  return agent;
}

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

type Failure = Exclude<OutboundResult, { kind: 'answer' }>;

function failureOf(error: unknown, signal: AbortSignal): Failure {
  if (isTimeout(error) || signal.aborted) return { kind: 'timeout' };
  const code = errorCode(error);
  if (code === REFUSED_CODE) {
    let current: unknown = error;
    while (current && !(current instanceof OutboundRefusedError))
      current = (current as { cause?: unknown }).cause;
    return { kind: 'refused', reason: (current as OutboundRefusedError | undefined)?.reason ?? 'private' };
  }
  return { kind: 'unreachable', code };
}

/** An answer whose body is still to be read (a download); reading it is bound by the same deadline. */
export interface StreamedAnswer {
  kind: 'stream';
  status: number;
  headers: AnswerHeaders;
  body: AsyncIterable<Buffer>;
  /** Drops the rest of the body (and its connection). */
  discard(): void;
  signal: AbortSignal;
}

async function send(url: string, request: OutboundRequest, signal: AbortSignal) {
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    return { kind: 'unreachable', code: 'ERR_INVALID_URL' } as const;
  }
  if (protocol !== 'https:' && protocol !== 'http:') return { kind: 'refused', reason: 'scheme' } as const;
  const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
  let body: string | Buffer | Readable | undefined;
  if (request.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(request.json);
  } else if (request.bytes !== undefined) {
    body = request.bytes;
  }
  return undiciRequest(url, {
    method: request.method ?? 'GET',
    headers,
    body,
    signal,
    dispatcher: dispatcher(),
  });
}

/**
 * callOutside for a download: the same policy and deadline, the body handed over unread (the caller
 * caps and hashes it as it goes).
 */
export async function streamOutside(
  url: string,
  request: Omit<OutboundRequest, 'json' | 'maxBytes'>,
): Promise<StreamedAnswer | Failure> {
  const signal = AbortSignal.timeout(request.timeoutMs);
  try {
    const response = await send(url, request, signal);
    if ('kind' in response) return response;
    return {
      kind: 'stream',
      status: response.statusCode,
      headers: answerHeaders(response.headers),
      body: response.body,
      discard() {
        // A body destroyed half-read reports an abort: nobody is waiting for it any more.
        response.body.on('error', () => undefined);
        response.body.destroy();
      },
      signal,
    };
  } catch (error) {
    return failureOf(error, signal);
  }
}

export async function callOutside(url: string, request: OutboundRequest): Promise<OutboundResult> {
  const signal = AbortSignal.timeout(request.timeoutMs);
  try {
    const response = await send(url, request, signal);
    if ('kind' in response) return response;
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
    return failureOf(error, signal);
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
