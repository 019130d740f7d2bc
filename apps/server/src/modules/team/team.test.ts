// The company's team as its admins manage it (GET/POST/PUT/DELETE /admin/team): who may call it, what a
// member reads like (role, open conversations, online), the 409 rules (email, yourself, the last admin)
// and that a change to a member's role or existence reaches their very next request through the auth cache.
import { DEFAULT_INBOX_SETTINGS } from '@hablabot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../test/clients-factories';
import { type CastApi, type TestUser, createCastApi } from '../../../test/http';
import { createFakeClock } from '../../../test/fake-clock';
import { ONLINE_WINDOW_MS } from './presence';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

let t: CastApi;
let agent: TestUser;
/** The presence clock: online is judged on it. */
const clock = createFakeClock();

/** A conversation of a new client of the company, assigned to `userId`, with the given status. */
async function conversation(companyId: number, userId: number | null, status: 'open' | 'resolved' = 'open') {
  const client = await createClient(t.api, companyId);
  const at = new Date().toISOString();
  return t.api.container.db
    .insertInto('conversations')
    .values({
      company_id: companyId,
      client_id: client.id,
      status,
      assignee_user_id: userId,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

const member = (overrides: Record<string, unknown> = {}) => ({
  name: 'Marta Agente',
  email: `marta${Math.random().toString(36).slice(2, 8)}@acme.test`,
  password: 'green-tea-4821',
  role: 'agent',
  ...overrides,
});

beforeAll(async () => {
  // A long cache life: a change is seen at once only because it tells the cache, never by expiry.
  t = await createCastApi({ authCacheTtlMs: 10 * 60_000, presence: { clock } });
  agent = await t.api.user({ role: 'agent', companyId: t.companyA });
});
afterAll(async () => {
  await t?.api.close();
});

describe(`team access (${engine})`, () => {
  const calls = [
    ['GET', '/admin/team', undefined],
    ['POST', '/admin/team', member()],
    ['PUT', '/admin/team/1', member()],
    ['DELETE', '/admin/team/1', undefined],
    ['GET', '/admin/inbox-settings', undefined],
    ['PUT', '/admin/inbox-settings', { auto_assign: true }],
  ] as const;

  for (const [method, path, body] of calls) {
    it(`${method} ${path}: anonymous 401; agent, client and super admin 403`, async () => {
      expect((await t.api.call(method, path, body)).statusCode).toBe(401);
      expect((await t.api.call(method, path, body, { as: agent })).statusCode).toBe(403);
      expect((await t.as('client', method, path, body)).statusCode).toBe(403);
      expect((await t.as('superAdmin', method, path, body)).statusCode).toBe(403);
    });
  }

  it("another company's admin neither sees nor changes company A's members (404)", async () => {
    const list = await t.as('otherAdmin', 'GET', '/admin/team');
    expect(list.json().data.map((m: { id: number }) => m.id)).not.toContain(agent.user.id);
    const update = await t.as('otherAdmin', 'PUT', `/admin/team/${agent.user.id}`, member());
    expect(update.statusCode).toBe(404);
    expect((await t.as('otherAdmin', 'DELETE', `/admin/team/${agent.user.id}`)).statusCode).toBe(404);
    expect(await t.api.container.users.findUserById(agent.user.id)).toMatchObject({
      name: agent.user.name,
      company_id: t.companyA,
    });
  });
});

describe(`team list (${engine})`, () => {
  it('lists the admins and agents of the caller’s company with their role, open conversations and presence', async () => {
    const own = await t.api.user({ role: 'agent', companyId: t.companyA });
    // Not of the team: a client user of the same company, and an agent of company B.
    const outsider = await t.api.user({ role: 'client', companyId: t.companyA });
    const otherAgent = await t.api.user({ role: 'agent', companyId: t.companyB });
    await conversation(t.companyA, own.user.id);
    await conversation(t.companyA, own.user.id);
    await conversation(t.companyA, own.user.id, 'resolved');
    await conversation(t.companyA, null);
    await conversation(t.companyA, t.cast.admin.user.id);
    const seen = new Date(clock.now() - ONLINE_WINDOW_MS / 2).toISOString();
    const stale = new Date(clock.now() - ONLINE_WINDOW_MS - 1).toISOString();
    const { db } = t.api.container;
    await db.updateTable('users').set({ stream_seen_at: seen }).where('id', '=', own.user.id).execute();
    await db.updateTable('users').set({ stream_seen_at: stale }).where('id', '=', agent.user.id).execute();

    const res = await t.as('admin', 'GET', '/admin/team');
    expect(res.statusCode).toBe(200);
    const data: { id: number }[] = res.json().data;
    const byId = new Map(data.map((m) => [m.id, m]));
    expect(byId.get(own.user.id)).toEqual({
      id: own.user.id,
      name: own.user.name,
      email: own.user.email,
      role: 'agent',
      open_conversations: 2,
      online: true,
      created_at: own.user.created_at,
    });
    expect(byId.get(agent.user.id)).toMatchObject({ role: 'agent', open_conversations: 0, online: false });
    expect(byId.get(t.cast.admin.user.id)).toMatchObject({
      role: 'admin',
      open_conversations: 1,
      online: false,
    });
    expect(byId.has(outsider.user.id)).toBe(false);
    expect(byId.has(otherAgent.user.id)).toBe(false);

    // No sign of presence for longer than the window: offline.
    clock.advance(ONLINE_WINDOW_MS / 2 + 1);
    const later = (await t.as('admin', 'GET', '/admin/team')).json().data;
    expect(later.find((m: { id: number }) => m.id === own.user.id).online).toBe(false);
  });
});

describe(`team changes (${engine})`, () => {
  it('creates an agent (201) who signs in as an agent; a taken email is 409 on email', async () => {
    const input = member({ name: 'Pablo Soporte' });
    const res = await t.as('admin', 'POST', '/admin/team', input);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      message: 'Miembro del equipo creado.',
      data: {
        name: 'Pablo Soporte',
        email: input.email,
        role: 'agent',
        open_conversations: 0,
        online: false,
      },
    });
    const login = await t.api.post('/auth/login', { email: input.email, password: input.password });
    expect(login.statusCode).toBe(200);
    expect(login.json().user).toMatchObject({ company_id: t.companyA, roles: [{ name: 'agent' }] });

    const again = await t.as(
      'admin',
      'POST',
      '/admin/team',
      { ...input, email: input.email.toUpperCase() },
      'en',
    );
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      message: 'A user with this email address already exists.',
      errors: { email: ['A user with this email address already exists.'] },
    });
  });

  it('refuses a weak password and an unknown role with 422', async () => {
    const weak = await t.as('admin', 'POST', '/admin/team', member({ password: 'short' }));
    expect(weak.statusCode).toBe(422);
    expect(weak.json().errors.password).toBeDefined();
    const role = await t.as('admin', 'POST', '/admin/team', member({ role: 'super_admin' }));
    expect(role.statusCode).toBe(422);
    expect(role.json().errors.role).toBeDefined();
  });

  it('updates a member; an empty password keeps the current one, a new one signs them out', async () => {
    const input = member();
    const created = (await t.as('admin', 'POST', '/admin/team', input)).json().data;
    const token = await t.api.signIn(input.email, input.password);
    const renamed = await t.as('admin', 'PUT', `/admin/team/${created.id}`, {
      ...input,
      name: 'Marta Renombrada',
      password: '',
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({
      message: 'Miembro del equipo actualizado.',
      data: { name: 'Marta Renombrada' },
    });
    expect((await t.api.get('/admin/quick-replies', { as: token })).statusCode).toBe(200);
    await t.api.signIn(input.email, input.password);

    const changed = await t.as('admin', 'PUT', `/admin/team/${created.id}`, {
      ...input,
      password: 'blue-river-9931',
    });
    expect(changed.statusCode).toBe(200);
    expect((await t.api.get('/admin/quick-replies', { as: token })).statusCode).toBe(401);
    await t.api.signIn(input.email, 'blue-river-9931');
  });

  it('a taken email on update is 409 on email', async () => {
    const input = member();
    const created = (await t.as('admin', 'POST', '/admin/team', input)).json().data;
    const res = await t.as('admin', 'PUT', `/admin/team/${created.id}`, {
      ...input,
      email: agent.user.email,
    });
    expect(res.statusCode).toBe(409);
    expect(Object.keys(res.json().errors)).toEqual(['email']);
  });

  it('a demoted admin loses the admin area at once, and a deleted member’s token stops working', async () => {
    const input = member({ role: 'admin' });
    const created = (await t.as('admin', 'POST', '/admin/team', input)).json().data;
    const token = await t.api.signIn(input.email, input.password);
    // Cached as an admin now.
    expect((await t.api.get('/admin/team', { as: token })).statusCode).toBe(200);

    const demoted = await t.as('admin', 'PUT', `/admin/team/${created.id}`, {
      ...input,
      password: null,
      role: 'agent',
    });
    expect(demoted.json().data.role).toBe('agent');
    expect((await t.api.get('/admin/team', { as: token })).statusCode).toBe(403);
    expect((await t.api.get('/admin/quick-replies', { as: token })).statusCode).toBe(200);

    const removed = await t.as('admin', 'DELETE', `/admin/team/${created.id}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ message: 'Miembro del equipo eliminado.' });
    expect((await t.api.get('/admin/quick-replies', { as: token })).statusCode).toBe(401);
  });

  it('tells the auth cache about the member it changed, so their open streams are checked again', async () => {
    const input = member();
    const created = (await t.as('admin', 'POST', '/admin/team', input)).json().data;
    const heard: (number[] | 'all')[] = [];
    const stop = t.api.container.infra.authCache.onForget((users) => heard.push(users));
    try {
      await t.as('admin', 'PUT', `/admin/team/${created.id}`, { ...input, role: 'admin' });
      await t.as('admin', 'DELETE', `/admin/team/${created.id}`);
    } finally {
      stop();
    }
    expect(heard).toEqual([[created.id], [created.id]]);
  });

  it('a deleted member’s conversations become unassigned', async () => {
    const input = member();
    const created = (await t.as('admin', 'POST', '/admin/team', input)).json().data;
    const conv = await conversation(t.companyA, created.id);
    expect((await t.as('admin', 'DELETE', `/admin/team/${created.id}`)).statusCode).toBe(200);
    const row = await t.api.container.db
      .selectFrom('conversations')
      .select('assignee_user_id')
      .where('id', '=', conv.id)
      .executeTakeFirstOrThrow();
    expect(row.assignee_user_id).toBeNull();
  });

  it('never deletes yourself, never the last admin, and never demotes the last admin (409)', async () => {
    const solo = await t.api.user({ role: 'admin' });
    const company = solo.user.company_id!;
    const self = await t.api.delete(`/admin/team/${solo.user.id}`, undefined, { as: solo });
    expect(self.statusCode).toBe(409);
    expect(self.json().message).toBe('No puedes eliminarte a ti mismo.');

    const demote = await t.api.put(
      `/admin/team/${solo.user.id}`,
      { name: solo.user.name, email: solo.user.email, role: 'agent' },
      { as: solo },
    );
    expect(demote.statusCode).toBe(409);
    expect(demote.json()).toEqual({
      message: 'La compañía debe conservar al menos un administrador.',
      errors: { role: ['La compañía debe conservar al menos un administrador.'] },
    });
    expect((await t.api.container.users.findUserById(solo.user.id))!.roles.map((r) => r.name)).toEqual([
      'admin',
    ]);

    // With a second admin, the first may step down; then the second is the last one.
    const second = await t.api.user({ role: 'admin', companyId: company });
    const stepDown = await t.api.put(
      `/admin/team/${solo.user.id}`,
      { name: solo.user.name, email: solo.user.email, role: 'agent' },
      { as: solo },
    );
    expect(stepDown.statusCode).toBe(200);
    expect((await t.api.get('/admin/team', { as: solo })).statusCode).toBe(403);
    const other = await t.api.user({ role: 'admin', companyId: company });
    // `second` deleting `other` leaves `second`; then `second` is the last admin and cannot be deleted by anyone.
    expect((await t.api.delete(`/admin/team/${other.user.id}`, undefined, { as: second })).statusCode).toBe(
      200,
    );
    const demoteLast = await t.api.put(
      `/admin/team/${second.user.id}`,
      { name: second.user.name, email: second.user.email, role: 'agent' },
      { as: second },
    );
    expect(demoteLast.statusCode).toBe(409);
  });

  it('the last admin cannot be deleted by an admin who is on the way out (checked in the transaction)', async () => {
    const first = await t.api.user({ role: 'admin' });
    const company = first.user.company_id!;
    const second = await t.api.user({ role: 'admin', companyId: company });
    // Both delete each other at the same moment: one wins, the company keeps an admin.
    const [a, b] = await Promise.all([
      t.api.delete(`/admin/team/${second.user.id}`, undefined, { as: first }),
      t.api.delete(`/admin/team/${first.user.id}`, undefined, { as: second }),
    ]);
    const statuses = [a.statusCode, b.statusCode].sort();
    expect(statuses[0]).toBe(200);
    expect([401, 409]).toContain(statuses[1]);
    const admins = await t.api.container.db
      .selectFrom('users')
      .select('id')
      .where('company_id', '=', company)
      .execute();
    expect(admins).toHaveLength(1);
  });

  it('a member who is also a super admin is only the super admin’s to change (403)', async () => {
    const both = await t.api.user({ role: 'super_admin' });
    const adminRole = await t.api.container.identity.findRoleByName('admin');
    await t.api.container.db
      .updateTable('users')
      .set({ company_id: t.companyA })
      .where('id', '=', both.user.id)
      .execute();
    await t.api.container.db
      .insertInto('user_roles')
      .values({ user_id: both.user.id, role_id: adminRole!.id })
      .execute();
    const res = await t.as('admin', 'PUT', `/admin/team/${both.user.id}`, member({ role: 'admin' }));
    expect(res.statusCode).toBe(403);
    expect((await t.as('admin', 'DELETE', `/admin/team/${both.user.id}`)).statusCode).toBe(403);
  });
});

describe(`inbox settings (${engine})`, () => {
  it('answers the defaults, saves the fields given and keeps the others', async () => {
    const admin = await t.api.user({ role: 'admin' });
    const res = await t.api.get('/admin/inbox-settings', { as: admin });
    expect(res.json()).toEqual({ data: DEFAULT_INBOX_SETTINGS });
    const saved = await t.api.put(
      '/admin/inbox-settings',
      { auto_assign: true, agent_capacity: 5 },
      { as: admin },
    );
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({
      message: 'Ajustes de la bandeja guardados.',
      data: { ...DEFAULT_INBOX_SETTINGS, agents_see_all: false, auto_assign: true, agent_capacity: 5 },
    });
    await t.api.put('/admin/inbox-settings', { agents_see_all: true }, { as: admin });
    expect((await t.api.get('/admin/inbox-settings', { as: admin })).json().data).toEqual({
      ...DEFAULT_INBOX_SETTINGS,
      agents_see_all: true,
      auto_assign: true,
      agent_capacity: 5,
    });
    // Another company still has the defaults.
    expect((await t.as('otherAdmin', 'GET', '/admin/inbox-settings')).json().data.auto_assign).toBe(false);
  });

  it('refuses a capacity out of range with 422 on the field', async () => {
    const res = await t.as('admin', 'PUT', '/admin/inbox-settings', { agent_capacity: 0 }, 'en');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.agent_capacity).toBeDefined();
  });
});
