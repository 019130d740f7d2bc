import type http from 'node:http';
import { listen, type RunningFake } from './listen';

/** One request as a fake received it, for tests to look at. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  /** The body parsed as JSON; the raw text when it is not JSON; undefined when empty. */
  body: unknown;
  /** The body's bytes as they came (a multipart upload, a binary body). */
  raw: Buffer;
}

export interface FakeResponse {
  status: number;
  /** JSON, or text (sent as HTML), or bytes (sent as they are, typed by `headers`). */
  body?: unknown;
  headers?: Record<string, string>;
}

/** A route's answer; undefined passes the request on to the routes added before it. */
export type FakeHandler = (
  request: RecordedRequest,
  params: Record<string, string>,
) => FakeResponse | undefined | Promise<FakeResponse | undefined>;

interface Route {
  method: string;
  pattern: RegExp;
  names: string[];
  handler: FakeHandler;
}

/** A fake's knobs every service shares. */
export interface FakeServer extends RunningFake {
  /** Every request received, oldest first. */
  requests: RecordedRequest[];
  /** Milliseconds to wait before each answer (a slow or hanging service). */
  delayMs: number;
  /**
   * Adds a route; `path` may hold `:name` parts (`/:version/:id/messages`). Routes added later win, so a
   * test (or a later feature) can override an answer.
   */
  route(method: string, path: string, handler: FakeHandler): void;
  /** Answers the next `times` requests with this response, whatever they are. */
  failNext(response: FakeResponse, times?: number): void;
  /** Clears the request log and the queued failures. */
  reset(): void;
}

function compile(path: string): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  const source = path
    .split('/')
    .map((part) => {
      if (part.startsWith(':')) {
        names.push(part.slice(1));
        return '([^/]+)';
      }
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return { pattern: new RegExp(`^${source}/?$`), names };
}

async function readRaw(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function parseBody(raw: Buffer): unknown {
  const text = raw.toString('utf8');
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A loopback HTTP server that answers from a route table: the base of every service fake. */
export async function startFakeServer(
  notFound: (request: RecordedRequest) => FakeResponse,
  port = 0,
): Promise<FakeServer> {
  const routes: Route[] = [];
  const failures: FakeResponse[] = [];
  const requests: RecordedRequest[] = [];
  const state = { delayMs: 0 };

  const running = await listen(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const raw = await readRaw(req);
    const request: RecordedRequest = {
      method: (req.method ?? 'GET').toUpperCase(),
      path: decodeURIComponent(url.pathname),
      query: url.searchParams,
      headers: req.headers,
      body: parseBody(raw),
      raw,
    };
    requests.push(request);
    if (state.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
    if (res.destroyed) return;

    let response: FakeResponse | undefined = failures.shift();
    if (!response) {
      for (let i = routes.length - 1; i >= 0; i--) {
        const route = routes[i];
        if (route.method !== request.method) continue;
        const match = route.pattern.exec(request.path);
        if (!match) continue;
        const params = Object.fromEntries(route.names.map((name, n) => [name, match[n + 1]]));
        response = await route.handler(request, params);
        if (response) break;
      }
    }
    response ??= notFound(request);
    if (Buffer.isBuffer(response.body)) {
      res.writeHead(response.status, {
        'content-type': 'application/octet-stream',
        'content-length': String(response.body.length),
        ...response.headers,
      });
      res.end(response.body);
      return;
    }
    const body =
      response.body === undefined
        ? ''
        : typeof response.body === 'string'
          ? response.body
          : JSON.stringify(response.body);
    res.writeHead(response.status, {
      'content-type': typeof response.body === 'string' ? 'text/html; charset=utf-8' : 'application/json',
      ...response.headers,
    });
    res.end(body);
  }, port);

  return {
    ...running,
    requests,
    get delayMs() {
      return state.delayMs;
    },
    set delayMs(ms: number) {
      state.delayMs = ms;
    },
    route(method, path, handler) {
      routes.push({ method: method.toUpperCase(), ...compile(path), handler });
    },
    failNext(response, times = 1) {
      for (let i = 0; i < times; i++) failures.push(response);
    },
    reset() {
      requests.length = 0;
      failures.length = 0;
    },
  };
}

/** The bearer token of a request, if it sent one. */
export function bearerOf(request: RecordedRequest): string | undefined {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(.+)$/i.exec(header) : null;
  return match?.[1];
}
