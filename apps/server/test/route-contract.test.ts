// The route contract (packages/contract/src/routes) and the server's route table are the same list: every
// route the server registers under /api/v1 is declared in the contract, and every declared route is
// registered — with the method and path the contract gives. The exceptions are the routes that are not
// JSON calls of the web app, each named here with its reason.
import { streamPaths } from '@hablabot/contract/api';
import { routes } from '@hablabot/contract/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext } from './context';

const API = '/api/v1';

/** Registered but not declared: what they are and why they stay outside the contract. */
const NOT_DECLARED = new Set([
  // Laravel Sanctum's handshake (a cookie, no JSON), at the root and under /api/v1.
  'GET /sanctum/csrf-cookie',
  `GET ${API}/sanctum/csrf-cookie`,
  // Meta's webhook: its verification GET and signed POST deliveries are Meta's format, not ours.
  `GET ${API}/webhooks/whatsapp`,
  `POST ${API}/webhooks/whatsapp`,
  // Operations: health, metrics (Prometheus text) and the OpenAPI document with its UI.
  `GET ${API}/health`,
  `GET ${API}/metrics`,
  // Public media files (static, outside /api/v1).
  'GET /storage/*',
]);

/** Registered outside the declared table on purpose, though their path comes from the contract. */
const STREAM = `GET ${API}${streamPaths.events.path}`;

function declared(): string[] {
  return Object.values(routes).flatMap((area) =>
    Object.values(area).map((route) => `${route.method} ${API}${route.path}`),
  );
}

describe('route contract', () => {
  let ctx: TestContext;
  let registered: string[];

  beforeAll(async () => {
    ctx = await createTestContext();
    registered = ctx.app.routeTable
      .filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS')
      .map((r) => `${r.method} ${r.url}`)
      // The OpenAPI document and its UI (fastify-swagger's own routes), and the web app's files.
      .filter((r) => !r.includes(`${API}/docs`) && !/^GET \/(\*|assets\/)/.test(r));
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('every route the server registers is declared in the contract (or a listed exception)', () => {
    const known = new Set([...declared(), ...NOT_DECLARED, STREAM]);
    expect(registered.filter((r) => !known.has(r))).toEqual([]);
  });

  it('every declared route is registered, with its method and path', () => {
    const have = new Set(registered);
    expect([...declared(), STREAM].filter((r) => !have.has(r))).toEqual([]);
  });

  it('no route is declared twice', () => {
    const all = declared();
    expect(all.filter((r, i) => all.indexOf(r) !== i)).toEqual([]);
  });
});
