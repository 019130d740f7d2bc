// The super admin's tools under races and look-alikes: at least one super admin always remains, and
// names that read the same are the same name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApi, type TestUser, createTestApi } from '../../../test/http';
import { ensureSuperAdmin } from '../../bootstrap';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
let api: TestApi;
let roleIds: Record<string, number>;

beforeAll(async () => {
  api = await createTestApi();
  roleIds = Object.fromEntries((await api.container.roles.listRoles()).map((r) => [r.name, r.id]));
});
afterAll(async () => {
  await api.close();
});

const superAdminCount = () => api.container.users.countUsersWithRole('super_admin');
const companyCount = async () => (await api.container.companies.listCompanies()).length;

/** Removes every super admin but the given ones (each race starts from exactly these). */
async function onlySuperAdmins(keep: TestUser[]) {
  const keepIds = new Set(keep.map((u) => u.user.id));
  for (const u of await api.container.users.listUsers()) {
    if (keepIds.has(u.id) || !u.roles.some((r) => r.name === 'super_admin')) continue;
    await api.container.db.deleteFrom('user_roles').where('user_id', '=', u.id).execute();
  }
}

const demote = (actor: TestUser, target: TestUser) =>
  api.updateUser(target, { roles: [roleIds.client], password: 'a-fresh-passphrase-9' }, { as: actor });

describe(`two super admins at the same moment (${engine})`, () => {
  it('demoting each other in parallel leaves one super admin (5 rounds)', async () => {
    for (let round = 0; round < 5; round++) {
      const a = await api.user({ role: 'super_admin' });
      const b = await api.user({ role: 'super_admin' });
      await onlySuperAdmins([a, b]);
      expect(await superAdminCount()).toBe(2);
      const answers = await Promise.all([demote(a, b), demote(b, a)]);
      expect(answers.map((r) => r.statusCode).sort(), `round ${round}`).toEqual([200, 409]);
      const refused = answers.find((r) => r.statusCode === 409)!;
      expect(refused.json().errors.roles).toEqual(['Debe quedar al menos un superadministrador.']);
      expect(await superAdminCount()).toBe(1);
    }
  });

  it('deleting each other in parallel leaves one super admin', async () => {
    const a = await api.user({ role: 'super_admin' });
    const b = await api.user({ role: 'super_admin' });
    await onlySuperAdmins([a, b]);
    const remove = (actor: TestUser, target: TestUser) =>
      api.delete('/super-admin/delete-user', { ids: [target.user.id] }, { as: actor });
    const answers = await Promise.all([remove(a, b), remove(b, a)]);
    // One wins. The other is refused: 409 when its request was signed in before the winner's delete
    // landed (the last super admin stays), 401 when its account was already gone by the time its request
    // was checked — which of the two depends on timing, never that both go through.
    const [won, lost] = answers.map((r) => r.statusCode).sort();
    expect(won).toBe(200);
    expect([401, 409]).toContain(lost);
    expect(await superAdminCount()).toBe(1);
  });

  it('a refused self-demotion writes nothing: no company appears, the password stays', async () => {
    const only = await api.user({ role: 'super_admin' });
    await onlySuperAdmins([only]);
    const companies = await companyCount();
    const res = await api.updateUser(
      only,
      { roles: [roleIds.admin], password: 'another-passphrase-1' },
      { as: only },
    );
    expect(res.statusCode).toBe(409);
    expect(await companyCount()).toBe(companies);
    expect((await api.container.users.findUserById(only.user.id))?.password_hash).toBe(
      only.user.password_hash,
    );
  });

  it('a self-demotion to client while another super admin remains creates no company', async () => {
    const me = await api.user({ role: 'super_admin' });
    await api.user({ role: 'super_admin' });
    const companies = await companyCount();
    const res = await api.updateUser(me, { roles: [roleIds.client] }, { as: me });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.company_id).toBeNull();
    expect(await companyCount()).toBe(companies);
  });
});

describe(`start-up gives SUPERADMIN_EMAIL's user the role back (${engine})`, () => {
  it('when no super admin is left', async () => {
    const fresh = await createTestApi();
    try {
      const former = await fresh.user({ role: 'client', email: 'boss@hablabot.test' });
      const log = { info: () => {}, warn: () => {} };
      const result = await ensureSuperAdmin(fresh.container.identity, { email: 'boss@hablabot.test' }, log);
      expect(result).toMatchObject({ created: false, restored: true });
      const after = await fresh.container.users.findUserById(former.user.id);
      expect(after?.roles.map((r) => r.name).sort()).toEqual(['client', 'super_admin']);
      expect(after?.password_hash).toBe(former.user.password_hash);
      expect(await ensureSuperAdmin(fresh.container.identity, { email: 'boss@hablabot.test' }, log)).toEqual({
        created: false,
      });
    } finally {
      await fresh.close();
    }
  });
});

describe(`names that read the same (${engine})`, () => {
  let boss: TestUser;
  beforeAll(async () => {
    boss = await api.user({ role: 'super_admin' });
  });

  it.each([
    ['admin + zero-width space', 'admin\u200B'],
    ['a zero-width space inside', 'ad\u200Bmin'],
    ['full-width letters', 'ａｄｍｉｎ'],
    ['capitals', 'ADMIN'],
    ['an accent', 'Ádmin'],
    ['a soft hyphen at the end', 'admin\u00AD'],
  ])('refuses a role named like "admin" with %s', async (_label, name) => {
    const res = await api.post('/super-admin/roles', { name, color: '#123456' }, { as: boss });
    expect(res.statusCode).toBe(409);
    expect(res.json().errors.name).toEqual(['Ya existe un rol con este nombre.']);
  });

  it('refuses a company name that another company already has, ignoring case and accents', async () => {
    const create = (email: string, company_name: string) =>
      api.post(
        '/super-admin/create-user',
        { name: 'Staff', email, password: 'green-tea-4821', roles: [roleIds.client], company_name },
        { as: boss },
      );
    expect((await create('one@acme-corp.test', 'Café Acme')).statusCode).toBe(201);
    const companies = await companyCount();
    for (const name of ['café acme', 'CAFE ACME', ' Cafe\u200B  Acme ', 'Ｃａｆé Acme']) {
      const res = await create(`x${companies}${name.length}@acme-corp.test`, name);
      expect(res.statusCode, name).toBe(409);
      expect(res.json().errors.company_name).toEqual(['Ya existe una compañía con este nombre.']);
    }
    expect(await companyCount()).toBe(companies);
  });

  it('an admin named like an existing company gets a company of their own, not a clash', async () => {
    const first = await api.user({ role: 'admin', name: 'Lola Flores' });
    expect(first.user.company_name).toBe('Company of Lola Flores');
    const res = await api.post(
      '/super-admin/create-user',
      {
        name: 'Company of Lola Flores',
        email: 'lola2@x.test',
        password: 'green-tea-4821',
        roles: [roleIds.admin],
      },
      { as: boss },
    );
    expect(res.statusCode).toBe(201);
    expect(res.json().data.company_name).toBe('Company of Lola Flores (2)');
  });

  it('company_id: null detaches a user from its company; an admin cannot be left without one', async () => {
    const admin = await api.user({ role: 'admin' });
    const staff = await api.user({ role: 'client', companyId: admin.user.company_id! });
    expect(staff.user.company_id).toBe(admin.user.company_id);
    const update = (u: TestUser, roles: number[]) =>
      api.updateUser(u, { roles, company_id: null }, { as: boss });
    const detached = await update(staff, [roleIds.client]);
    expect(detached.statusCode).toBe(200);
    expect(detached.json().data).toMatchObject({ company_id: null, company_name: null });
    const refused = await update(admin, [roleIds.admin]);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.company_id).toEqual(['Un administrador debe pertenecer a una compañía.']);
    expect((await api.container.users.findUserById(admin.user.id))?.company_id).toBe(admin.user.company_id);
  });
});
