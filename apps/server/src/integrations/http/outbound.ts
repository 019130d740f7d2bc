/**
 * One HTTP call to an outside service (the Graph API, an OpenAI-compatible server), with the rules every
 * such call follows: a deadline for the whole exchange, no redirects (an address that redirects is not
 * the API it claims to be, and following it could lead anywhere), and a cap on how much of the answer
 * is read. The outcome is data, never an exception: the caller turns it into plain words. A redirect
 * comes back as an answer with its 3xx status, for the caller to reject.
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
  /** The fetch to use (the global one by default). */
  fetch?: typeof fetch;
}

export type OutboundResult =
  | {
      kind: 'answer';
      status: number;
      /** The answer parsed as JSON, or undefined when it is not JSON. */
      json: unknown;
      text: string;
      headers: Headers;
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

async function readCapped(response: Response, maxBytes: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  while (total < maxBytes) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    total += value.byteLength;
  }
  await reader.cancel().catch(() => undefined);
  return Buffer.concat(chunks).subarray(0, maxBytes).toString('utf8');
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
    const response = await (request.fetch ?? fetch)(url, {
      method: request.method ?? 'GET',
      headers,
      body,
      signal,
      redirect: 'manual',
    });
    const text = await readCapped(response, request.maxBytes ?? DEFAULT_MAX_BYTES);
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { kind: 'answer', status: response.status, json, text, headers: response.headers };
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
