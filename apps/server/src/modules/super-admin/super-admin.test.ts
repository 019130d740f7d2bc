import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cast, type TestApi, createTestApi } from '../../../test/http';
import { SUPER_ADMIN_ONLY, expectRoleMatrix } from '../../../test/role-matrix';

let api: TestApi;
let cast: Cast;
let roleIds: Record<string, number>;

beforeAll(async () => {
  api = await createTestApi();
  cast = await api.cast();
  const roles = await api.container.identity.listRoles();
  roleIds = Object.fromEntries(roles.map((r) => [r.name, r.id]));
});
afterAll(async () => {
  await api.close();
});

describe(`super-admin access (${process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite'})`, () => {
  const routes = [
    { method: 'GET', url: '/api/v1/super-admin/users' },
    { method: 'GET', url: '/api/v1/super-admin/companies' },
    { method: 'POST', url: '/api/v1/super-admin/companies', payload: { name: 'Nunca Creada' } },
    { method: 'POST', url: '/api/v1/super-admin/create-user', payload: {} },
    { method: 'PUT', url: '/api/v1/super-admin/update-user/1', payload: {} },
    { method: 'DELETE', url: '/api/v1/super-admin/delete-user', payload: { ids: [999] } },
    { method: 'GET', url: '/api/v1/super-admin/roles' },
    { method: 'POST', url: '/api/v1/super-admin/roles', payload: {} },
    { method: 'PUT', url: '/api/v1/super-admin/roles/1', payload: {} },
    { method: 'DELETE', url: '/api/v1/super-admin/roles/1' },
  ] as const;

  for (const route of routes) {
    it(`${route.method} ${route.url} refuses anonymous (401), client and admin (403)`, async () => {
      await expectRoleMatrix(api, cast, { ...route }, SUPER_ADMIN_ONLY);
    });
  }

  it('lets the super admin in', async () => {
    await expectRoleMatrix(
      api,
      cast,
      { method: 'GET', url: '/api/v1/super-admin/users' },
      { superAdmin: 200 },
    );
    await expectRoleMatrix(
      api,
      cast,
      { method: 'GET', url: '/api/v1/super-admin/roles' },
      { superAdmin: 200 },
    );
  });
});

describe('super-admin users', () => {
  it('lists users with their roles, company and creation date', async () => {
    const res = await api.get('/super-admin/users', { as: cast.superAdmin });
    expect(res.statusCode).toBe(200);
    const admin = res.json().data.find((u: { id: number }) => u.id === cast.admin.user.id);
    expect(admin).toMatchObject({
      email: cast.admin.user.email,
      roles: [{ name: 'admin' }],
      company_id: cast.admin.user.company_id,
    });
    expect(admin.company_name).toMatch(/^Company of/);
    expect(admin.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(admin).not.toHaveProperty('password_hash');
  });

  it('creates an admin with a new company named after them, who can then sign in', async () => {
    const res = await api.post(
      '/super-admin/create-user',
      {
        name: 'Lucía Pérez',
        email: 'lucia@acme.test',
        password: 'green-tea-4821',
        roles: [roleIds.admin],
      },
      { as: cast.superAdmin },
    );
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ success: true, message: 'Usuario creado con éxito.' });
    const created = res.json().data;
    expect(created.company_name).toBe('Lucía Pérez');
    expect(created.company_id).toEqual(expect.any(Number));
    const login = await api.post('/auth/login', { email: 'lucia@acme.test', password: 'green-tea-4821' });
    expect(login.statusCode).toBe(200);
    expect(login.json().user.roles[0].name).toBe('admin');
  });

  it('creates an admin in an existing company by id, or in a new one by name', async () => {
    const byId = await api.post(
      '/super-admin/create-user',
      {
        name: 'Second admin',
        email: 'second@acme.test',
        password: 'green-tea-4821',
        roles: [roleIds.admin],
        company_id: cast.admin.user.company_id,
      },
      { as: cast.superAdmin },
    );
    expect(byId.statusCode).toBe(201);
    expect(byId.json().data.company_id).toBe(cast.admin.user.company_id);

    const byName = await api.post(
      '/super-admin/create-user',
      {
        name: 'Third admin',
        email: 'third@acme.test',
        password: 'green-tea-4821',
        roles: [roleIds.admin],
        company_name: 'Frutas del Sur',
      },
      { as: cast.superAdmin },
    );
    expect(byName.json().data.company_name).toBe('Frutas del Sur');

    const unknown = await api.post(
      '/super-admin/create-user',
      {
        name: 'X',
        email: 'x@acme.test',
        password: 'green-tea-4821',
        roles: [roleIds.admin],
        company_id: 99999,
      },
      { as: cast.superAdmin },
    );
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors.company_id).toEqual(['La compañía no existe.']);
  });

  it('validates the user form: required fields, email, password length, roles', async () => {
    const res = await api.post(
      '/super-admin/create-user',
      { name: '', email: 'bad', password: '123', roles: [] },
      { as: cast.superAdmin, lang: 'en' },
    );
    expect(res.statusCode).toBe(422);
    const { errors } = res.json();
    expect(Object.keys(errors).sort()).toEqual(['email', 'name', 'password', 'roles']);
    expect(errors.name).toEqual(['The name field is required.']);
    expect(errors.roles).toEqual(['Select at least 1 item(s) in roles.']);

    const unknownRole = await api.post(
      '/super-admin/create-user',
      { name: 'Y', email: 'y@acme.test', password: 'green-tea-4821', roles: [424242] },
      { as: cast.superAdmin },
    );
    expect(unknownRole.statusCode).toBe(422);
    expect(unknownRole.json().errors.roles).toEqual(['Uno o más roles no existen.']);
  });

  it('refuses a duplicate email with 409 on the email field', async () => {
    const res = await api.post(
      '/super-admin/create-user',
      {
        name: 'Dup',
        email: cast.client.user.email.toUpperCase(),
        password: 'green-tea-4821',
        roles: [roleIds.client],
      },
      { as: cast.superAdmin },
    );
    expect(res.statusCode).toBe(409);
    expect(res.json().errors.email).toEqual(['Ya existe un usuario con este correo electrónico.']);
  });

  it('updates a user; the password changes only when sent, and a change revokes old tokens', async () => {
    const u = await api.user({ role: 'client', name: 'Old name' });
    const keep = await api.updateUser(
      u,
      { name: 'New name', roles: [roleIds.client], password: '' },
      { as: cast.superAdmin },
    );
    expect(keep.statusCode).toBe(200);
    expect(keep.json()).toMatchObject({ success: true, data: { name: 'New name' } });
    const stillIn = await api.post('/language/set', { language: 'es' }, { as: u });
    expect(stillIn.json().message).toBe('Language updated successfully.');

    const change = await api.updateUser(
      u,
      { name: 'New name', roles: [roleIds.client], password: 'brand-new-pass' },
      { as: cast.superAdmin },
    );
    expect(change.statusCode).toBe(200);
    const revoked = await api.post('/auth/logout', undefined, { as: u });
    expect(revoked.statusCode).toBe(401);
    const login = await api.post('/auth/login', { email: u.user.email, password: 'brand-new-pass' });
    expect(login.statusCode).toBe(200);
  });

  it('promoting a client to admin gives them a company', async () => {
    const u = await api.user({ role: 'client', name: 'Promoted' });
    const res = await api.updateUser(
      u,
      { name: 'Promoted', roles: [roleIds.admin] },
      { as: cast.superAdmin },
    );
    expect(res.json().data).toMatchObject({ company_name: 'Promoted', roles: [{ name: 'admin' }] });
  });

  it('answers 404 for an unknown user', async () => {
    const res = await api.put(
      '/super-admin/update-user/987654',
      { name: 'N', email: 'n@x.test', roles: [roleIds.client] },
      { as: cast.superAdmin },
    );
    expect(res.statusCode).toBe(404);
  });

  it('never demotes or deletes the last super admin, and nobody deletes themselves', async () => {
    const isolated = await createTestApi();
    try {
      const solo = await isolated.user({ role: 'super_admin' });
      const roles = Object.fromEntries(
        (await isolated.container.identity.listRoles()).map((r) => [r.name, r.id]),
      );
      const demote = await isolated.updateUser(solo, { name: 'Solo', roles: [roles.admin] }, { as: solo });
      expect(demote.statusCode).toBe(409);
      expect(demote.json().message).toBe('Debe quedar al menos un superadministrador.');

      const self = await isolated.delete('/super-admin/delete-user', { ids: [solo.user.id] }, { as: solo });
      expect(self.statusCode).toBe(409);
      expect(self.json().message).toBe('No puedes eliminar tu propio usuario.');

      const other = await isolated.user({ role: 'super_admin' });
      const both = await isolated.delete('/super-admin/delete-user', { ids: [other.user.id] }, { as: solo });
      expect(both.statusCode).toBe(200);
      // `solo` is the last one again: demoting it is refused once more.
      expect(
        (await isolated.updateUser(solo, { name: 'Solo', roles: [roles.client] }, { as: solo })).statusCode,
      ).toBe(409);
    } finally {
      await isolated.close();
    }
  });

  it('deletes all the users or none: an unknown id leaves everyone in place', async () => {
    const a = await api.user({ role: 'client' });
    const b = await api.user({ role: 'client' });
    const partial = await api.delete(
      '/super-admin/delete-user',
      { ids: [a.user.id, 987654] },
      { as: cast.superAdmin },
    );
    expect(partial.statusCode).toBe(404);
    expect(await api.container.identity.findUserById(a.user.id)).toBeDefined();

    const ok = await api.delete(
      '/super-admin/delete-user',
      { ids: [a.user.id, b.user.id] },
      { as: cast.superAdmin },
    );
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ success: true, message: 'Usuario eliminado con éxito.' });
    expect(await api.container.identity.findUserById(a.user.id)).toBeUndefined();
    expect((await api.post('/auth/logout', undefined, { as: b })).statusCode).toBe(401);
  });
});

describe('super-admin companies', () => {
  it('creates a company from its name alone, refusing one that reads like another', async () => {
    const res = await api.post(
      '/super-admin/companies',
      { name: '  Ferretería Núñez ' },
      { as: cast.superAdmin },
    );
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ success: true, message: 'Compañía creada con éxito.' });
    expect(body.data).toMatchObject({ id: expect.any(Number), name: 'Ferretería Núñez' });
    const listed = (await api.get('/super-admin/companies', { as: cast.superAdmin })).json().data;
    expect(listed.map((c: { id: number }) => c.id)).toContain(body.data.id);

    const again = await api.post(
      '/super-admin/companies',
      { name: 'FERRETERIA nuñez' },
      { as: cast.superAdmin, lang: 'en' },
    );
    expect(again.statusCode).toBe(409);
    expect(again.json().errors.name).toEqual(['A company with this name already exists.']);

    const blank = await api.post('/super-admin/companies', { name: '   ' }, { as: cast.superAdmin });
    expect(blank.statusCode).toBe(422);
    expect(Object.keys(blank.json().errors)).toEqual(['name']);
    const tooLong = await api.post(
      '/super-admin/companies',
      { name: 'x'.repeat(121) },
      { as: cast.superAdmin },
    );
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.json().errors.name).toHaveLength(1);
  });
});

describe('super-admin roles', () => {
  it('lists the built-in roles with their user counts', async () => {
    const res = await api.get('/super-admin/roles', { as: cast.superAdmin });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    const names = body.data.map((r: { name: string }) => r.name);
    expect(names).toEqual(expect.arrayContaining(['super_admin', 'admin', 'client']));
    const admin = body.data.find((r: { name: string }) => r.name === 'admin');
    const users = await api.container.identity.listUsers();
    expect(admin.usersCount).toBe(users.filter((u) => u.roles.some((r) => r.name === 'admin')).length);
    expect(admin.builtin).toBe(true);
  });

  it('creates, renames, recolours and deletes a custom role', async () => {
    const created = await api.post(
      '/super-admin/roles',
      { name: 'supervisor', description: 'Revisa chats', color: '#ff8800' },
      { as: cast.superAdmin },
    );
    expect(created.statusCode).toBe(201);
    const role = created.json().data;
    expect(role).toMatchObject({ name: 'supervisor', usersCount: 0, builtin: false });

    const dup = await api.post(
      '/super-admin/roles',
      { name: 'Supervisor', color: '#ff8800' },
      { as: cast.superAdmin },
    );
    expect(dup.statusCode).toBe(409);

    const updated = await api.put(
      `/super-admin/roles/${role.id}`,
      { name: 'auditor', description: null, color: '#123456' },
      { as: cast.superAdmin },
    );
    expect(updated.statusCode).toBe(200);
    expect(updated.json().data).toMatchObject({ name: 'auditor', description: null, color: '#123456' });

    const del = await api.delete(`/super-admin/roles/${role.id}`, undefined, { as: cast.superAdmin });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ success: true, message: 'Rol eliminado con éxito.' });
    const gone = await api.delete(`/super-admin/roles/${role.id}`, undefined, { as: cast.superAdmin });
    expect(gone.statusCode).toBe(404);
  });

  it('validates name and colour', async () => {
    const res = await api.post('/super-admin/roles', { name: '', color: 'red' }, { as: cast.superAdmin });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      name: ['El campo nombre es obligatorio.'],
      color: ['El color debe tener el formato #RRGGBB.'],
    });
  });

  it('built-in roles keep their names and cannot be deleted, but can be recoloured', async () => {
    const rename = await api.put(
      `/super-admin/roles/${roleIds.admin}`,
      { name: 'boss', color: '#000000' },
      { as: cast.superAdmin },
    );
    expect(rename.statusCode).toBe(409);
    expect(rename.json().message).toBe('Los roles del sistema no se pueden renombrar.');
    const recolour = await api.put(
      `/super-admin/roles/${roleIds.admin}`,
      { name: 'admin', description: 'Admins', color: '#00aa00' },
      { as: cast.superAdmin },
    );
    expect(recolour.statusCode).toBe(200);
    const del = await api.delete(`/super-admin/roles/${roleIds.client}`, undefined, {
      as: cast.superAdmin,
      lang: 'en',
    });
    expect(del.statusCode).toBe(409);
    expect(del.json().message).toBe('Built-in roles cannot be deleted.');
  });

  it('deleting a custom role in use removes it from its users', async () => {
    const created = await api.post(
      '/super-admin/roles',
      { name: 'temporary', color: '#abcdef' },
      { as: cast.superAdmin },
    );
    const roleId = created.json().data.id;
    const u = await api.user({ role: 'client' });
    await api.updateUser(u, { roles: [roleIds.client, roleId] }, { as: cast.superAdmin });
    const del = await api.delete(`/super-admin/roles/${roleId}`, undefined, { as: cast.superAdmin });
    expect(del.statusCode).toBe(200);
    expect((await api.container.identity.findUserById(u.user.id))?.roles.map((r) => r.name)).toEqual([
      'client',
    ]);
  });
});
