// An agent only chats: every route of the API a company admin may call answers 403 to an agent, server
// side, except the chat's own routes (CHAT_ROUTES below), which let them in. Walked from the server's own
// route table, so a route added later is refused to agents unless someone decides otherwise here. What
// everyone signed in may call (their account, signing out, the language) and what is public are not the
// admin area.
import { streamPaths } from '@hablabot/contract/api';
import { routes } from '@hablabot/contract/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CastApi, type TestUser, createCastApi } from '../../../test/http';
import { ROUTES } from '../../../test/route-access';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
const API = '/api/v1';

const key = (r: { method: string; path: string }) => `${r.method} ${API}${r.path}`;

/**
 * The chat's routes, which let agents in (each deciding which conversations an agent may touch): here
 * only that the guard lets an agent through; the chat's own tests check what an agent gets from them.
 */
const CHAT_ROUTES = new Set([
  ...Object.values(routes.conversations).map(key),
  key(routes.quickReplies.list),
  ...Object.values(routes.messages).map(key),
  key(routes.clients.messagesSummary),
  key(routes.clients.get),
  key(routes.clients.toggleBotMode),
  key(routes.templates.list),
  key(routes.templates.send),
  key(routes.media.list),
  key(streamPaths.events),
]);

/** Who else may call a route, by its row in the authorization matrix: not the admin area. */
const OUTSIDE_ADMIN_AREA = new Set(['public', 'signed-in', 'own-key']);

let t: CastApi;
let agent: TestUser;
let table: { method: string; url: string }[];

beforeAll(async () => {
  t = await createCastApi();
  agent = await t.api.user({ role: 'agent', companyId: t.companyA });
  table = t.api.app.routeTable
    .filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS')
    .filter((r) => !r.url.startsWith(`${API}/docs`));
});
/** The route as the agent, its ids all 1 and an empty body (the guard answers before anything is read). */
function asAgent(route: { method: string; url: string }) {
  return t.api.app.inject({
    method: route.method as 'GET',
    url: route.url.replace(/:[A-Za-z]+/g, '1'),
    headers: { ...agent.headers, 'content-type': 'application/json' },
    ...(route.method === 'GET' ? {} : { payload: {} }),
  });
}

afterAll(async () => {
  await t?.api.close();
});

describe(`an agent in the admin area (${engine})`, () => {
  it('every chat route named as open to agents exists and lets an agent through its guard', async () => {
    const have = new Set(table.map((r) => `${r.method} ${r.url}`));
    expect([...CHAT_ROUTES].filter((k) => !have.has(k))).toEqual([]);
    const refused: string[] = [];
    for (const route of table) {
      const k = `${route.method} ${route.url}`;
      // The stream stays open once it lets the caller in: the stream's own tests check agents on it.
      if (!CHAT_ROUTES.has(k) || k === key(streamPaths.events)) continue;
      const res = await asAgent(route);
      if (res.statusCode === 401 || res.statusCode === 403 || res.statusCode >= 500)
        refused.push(`${k}: ${res.statusCode} ${res.body.slice(0, 100)}`);
    }
    expect(refused).toEqual([]);
  });

  it('gets 403 from every other route of the admin area, and of the super admin', async () => {
    const checked: string[] = [];
    const wrong: string[] = [];
    for (const route of table) {
      const k = `${route.method} ${route.url}`;
      if (CHAT_ROUTES.has(k)) continue;
      const access = ROUTES[k]?.access;
      if (access && OUTSIDE_ADMIN_AREA.has(access)) continue;
      const res = await asAgent(route);
      checked.push(k);
      if (res.statusCode !== 403) wrong.push(`${k}: ${res.statusCode} ${res.body.slice(0, 100)}`);
    }
    expect(wrong).toEqual([]);
    // The walk reached the admin area: the team, the settings, the bots, the clients' writes, the super admin.
    for (const route of [
      routes.team.list,
      routes.inboxSettings.save,
      routes.quickReplies.create,
      routes.settings.get,
      routes.clients.list,
      routes.clients.create,
      routes.bots.list,
      routes.superAdmin.users,
    ])
      expect(checked).toContain(key(route));
  });
});
