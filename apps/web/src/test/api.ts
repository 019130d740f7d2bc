// The network of the web tests is mocked at the fetch level; our own modules (api-client, hooks) run for real.
import { vi } from 'vitest';

/** A fetch Response with a JSON body. */
export function jsonResponse(status: number, body: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

export interface RecordedCall {
  method: string;
  url: string;
  body: unknown;
  /** The Accept-Language the call carried. */
  language: string | null;
}

type Handler = (call: RecordedCall) => Response | Promise<Response>;

/**
 * A fetch stand-in that answers by "METHOD /path" and records every call. Unknown routes answer 404,
 * so a test never hangs on a request it did not expect. A route is a handler, a Response, or
 * `[status, body]`.
 */
export function mockFetch(routes: Record<string, Handler | Response | [number, unknown]>) {
  const calls: RecordedCall[] = [];
  const fetchMock = vi.fn<typeof fetch>(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const raw = init?.body;
    const call: RecordedCall = {
      method,
      url: url.pathname + url.search,
      body: typeof raw === 'string' ? JSON.parse(raw) : raw,
      language: new Headers(init?.headers).get('Accept-Language'),
    };
    calls.push(call);
    const route = routes[`${method} ${url.pathname}`];
    if (!route) return jsonResponse(404, { message: 'not mocked' });
    if (Array.isArray(route)) return jsonResponse(route[0], route[1]);
    if (route instanceof Response) return route.clone();
    return route(call);
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    fetchMock,
    set: (key: string, handler: Handler | [number, unknown]) => (routes[key] = handler),
  };
}
