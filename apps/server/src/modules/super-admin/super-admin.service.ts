import type { CreateUserRequest, Role, RoleRequest, UpdateUserRequest, User } from '@hablabot/contract';
import { ROLE_NAMES } from '@hablabot/contract';
import { isUniqueViolation } from '../../db/errors';
import { conflict, invalid, notFound } from '../../platform/errors';
import { hashPassword } from '../../platform/passwords';
import { type IdentityRepository, toPublicUser } from '../identity/identity.repository';

const BUILTIN = new Set<string>(ROLE_NAMES);

/** A lost race on the unique email index reads like the check that ran just before it. */
function uniqueEmail(err: unknown): never {
  if (isUniqueViolation(err)) throw conflict('users.email_taken', 'email');
  throw err;
}

/** Users, roles and companies as the super administrator manages them. */
export function createSuperAdminService(deps: { identity: IdentityRepository }) {
  const { identity } = deps;

  async function checkRoles(roleIds: number[]) {
    const unique = [...new Set(roleIds)];
    const roles = await identity.findRolesByIds(unique);
    if (roles.length !== unique.length) throw invalid('roles', 'users.unknown_role');
    return roles;
  }

  /** Where the user's company comes from: an existing id, a new company by name, or one named after an admin. */
  async function companyPlan(
    input: Pick<CreateUserRequest, 'company_id' | 'company_name' | 'name'>,
    isAdmin: boolean,
    currentCompanyId: number | null,
  ): Promise<{ companyId?: number | null; newCompanyName?: string }> {
    if (input.company_id) {
      if (!(await identity.findCompanyById(input.company_id)))
        throw invalid('company_id', 'users.unknown_company');
      return { companyId: input.company_id };
    }
    if (input.company_name) return { newCompanyName: input.company_name };
    if (isAdmin && currentCompanyId === null) return { newCompanyName: input.name };
    return {};
  }

  async function getUser(id: number): Promise<User> {
    const u = await identity.findUserById(id);
    if (!u) throw notFound('users.not_found');
    return toPublicUser(u);
  }

  async function getRole(id: number): Promise<Role> {
    const role = (await identity.listRoles()).find((r) => r.id === id);
    if (!role) throw notFound('roles.not_found');
    return toRole(role);
  }

  return {
    async listUsers(): Promise<User[]> {
      return (await identity.listUsers()).map(toPublicUser);
    },

    async listCompanies() {
      return identity.listCompanies();
    },

    async createUser(input: CreateUserRequest): Promise<User> {
      if (await identity.emailTaken(input.email)) throw conflict('users.email_taken', 'email');
      const roles = await checkRoles(input.roles);
      const isAdmin = roles.some((r) => r.name === 'admin');
      const plan = await companyPlan(input, isAdmin, null);
      const id = await identity
        .createUser({
          name: input.name,
          email: input.email,
          passwordHash: await hashPassword(input.password),
          roleIds: roles.map((r) => r.id),
          ...plan,
        })
        .catch(uniqueEmail);
      return getUser(id);
    },

    async updateUser(id: number, input: UpdateUserRequest): Promise<User> {
      const existing = await identity.findUserById(id);
      if (!existing) throw notFound('users.not_found');
      if (await identity.emailTaken(input.email, id)) throw conflict('users.email_taken', 'email');
      const roles = await checkRoles(input.roles);
      const wasSuper = existing.roles.some((r) => r.name === 'super_admin');
      const staysSuper = roles.some((r) => r.name === 'super_admin');
      if (wasSuper && !staysSuper && (await identity.countUsersWithRole('super_admin', [id])) === 0) {
        throw conflict('users.last_super_admin', 'roles');
      }
      const plan = await companyPlan(
        input,
        roles.some((r) => r.name === 'admin'),
        existing.company_id,
      );
      await identity
        .updateUser(id, {
          name: input.name,
          email: input.email,
          passwordHash: input.password ? await hashPassword(input.password) : undefined,
          roleIds: roles.map((r) => r.id),
          ...plan,
        })
        .catch(uniqueEmail);
      return getUser(id);
    },

    /** Deletes all the users or none of them. */
    async deleteUsers(ids: number[], actorId: number): Promise<void> {
      const unique = [...new Set(ids)];
      if (unique.includes(actorId)) throw conflict('users.cannot_delete_self', 'ids');
      if ((await identity.countExistingUsers(unique)) !== unique.length) throw notFound('users.not_found');
      if ((await identity.countUsersWithRole('super_admin', unique)) === 0)
        throw conflict('users.last_super_admin', 'ids');
      await identity.deleteUsers(unique);
    },

    async listRoles(): Promise<Role[]> {
      return (await identity.listRoles()).map(toRole);
    },

    async createRole(input: RoleRequest): Promise<Role> {
      if (await identity.roleNameTaken(input.name)) throw conflict('roles.name_taken', 'name');
      const id = await identity.createRole({
        name: input.name,
        description: input.description ?? null,
        color: input.color,
      });
      return getRole(id);
    },

    async updateRole(id: number, input: RoleRequest): Promise<Role> {
      const role = await identity.findRoleById(id);
      if (!role) throw notFound('roles.not_found');
      if (BUILTIN.has(role.name) && input.name !== role.name) throw conflict('roles.builtin_rename', 'name');
      if (await identity.roleNameTaken(input.name, id)) throw conflict('roles.name_taken', 'name');
      await identity.updateRole(id, {
        name: input.name,
        description: input.description ?? null,
        color: input.color,
      });
      return getRole(id);
    },

    async deleteRole(id: number): Promise<void> {
      const role = await identity.findRoleById(id);
      if (!role) throw notFound('roles.not_found');
      if (BUILTIN.has(role.name)) throw conflict('roles.builtin_delete');
      await identity.deleteRole(id);
    },
  };
}

function toRole(r: {
  id: number;
  name: string;
  description: string | null;
  color: string;
  builtin: number;
  created_at: string;
  usersCount: number;
}): Role {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    color: r.color,
    builtin: r.builtin === 1,
    usersCount: r.usersCount,
    created_at: r.created_at,
  };
}

export type SuperAdminService = ReturnType<typeof createSuperAdminService>;
