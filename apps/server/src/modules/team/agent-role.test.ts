// The built-in role `agent`: listed in 'Administrar roles' as built-in, never renamed or deleted; a super
// admin gives it to a user of a company (never to one without a company); an agent signs in with the
// agent role first, which is what the web's landing (/admin/chat) is chosen by.
import { ROLE_LANDINGS } from '@hablabot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CastApi, createCastApi } from '../../../test/http';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

let t: CastApi;
let agentRoleId: number;

beforeAll(async () => {
  t = await createCastApi();
  agentRoleId = (await t.api.container.identity.findRoleByName('agent'))!.id;
});
afterAll(async () => {
  await t?.api.close();
});

describe(`the agent role (${engine})`, () => {
  it('is listed as a built-in role and cannot be renamed or deleted (409)', async () => {
    const roles = (await t.as('superAdmin', 'GET', '/super-admin/roles')).json().data;
    expect(roles.find((r: { name: string }) => r.name === 'agent')).toMatchObject({
      id: agentRoleId,
      builtin: true,
    });
    const rename = await t.as('superAdmin', 'PUT', `/super-admin/roles/${agentRoleId}`, {
      name: 'agente',
      color: '#f59e0b',
    });
    expect(rename.statusCode).toBe(409);
    expect(rename.json().message).toBe('Los roles del sistema no se pueden renombrar.');
    const remove = await t.as('superAdmin', 'DELETE', `/super-admin/roles/${agentRoleId}`);
    expect(remove.statusCode).toBe(409);
    expect(await t.api.container.identity.findRoleByName('agent')).toBeDefined();
  });

  it('a super admin creates an agent of a company, who signs in with the agent role first', async () => {
    const input = {
      name: 'Ana Agente',
      email: 'ana.agente@acme.test',
      password: 'green-tea-4821',
      roles: [agentRoleId],
      company_id: t.companyA,
    };
    const res = await t.as('superAdmin', 'POST', '/super-admin/create-user', input);
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ company_id: t.companyA, roles: [{ name: 'agent' }] });

    const login = await t.api.post('/auth/login', { email: input.email, password: input.password });
    expect(login.statusCode).toBe(200);
    const rol = login.json().user.roles[0].name;
    expect(rol).toBe('agent');
    expect(ROLE_LANDINGS[rol as 'agent']).toBe('/admin/chat');
    // The company's team lists them.
    const team = (await t.as('admin', 'GET', '/admin/team')).json().data;
    expect(team.find((m: { email: string }) => m.email === input.email)).toMatchObject({ role: 'agent' });
  });

  it('an agent must belong to a company (422 on company_id, on create and update)', async () => {
    const create = await t.as('superAdmin', 'POST', '/super-admin/create-user', {
      name: 'Sin Empresa',
      email: 'sin.empresa@acme.test',
      password: 'green-tea-4821',
      roles: [agentRoleId],
    });
    expect(create.statusCode).toBe(422);
    expect(create.json().errors).toEqual({ company_id: ['Un agente debe pertenecer a una compañía.'] });

    const agent = await t.api.user({ role: 'agent', companyId: t.companyA });
    const detach = await t.api.updateUser(
      agent,
      { roles: [agentRoleId], company_id: null },
      { as: t.cast.superAdmin },
    );
    expect(detach.statusCode).toBe(422);
    expect(Object.keys(detach.json().errors)).toEqual(['company_id']);
    expect((await t.api.container.users.findUserById(agent.user.id))!.company_id).toBe(t.companyA);
  });
});
