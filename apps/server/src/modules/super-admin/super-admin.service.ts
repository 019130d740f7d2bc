import type { CreateUserRequest, Role, RoleRequest, UpdateUserRequest, User } from '@hablabot/contract';
import { cleanText, foldText, ROLE_NAMES } from '@hablabot/contract';
import { isUniqueViolation } from '../../db/errors';
import type { AuthCache } from '../../platform/auth-cache';
import { conflict, invalid, notFound } from '../../platform/errors';
import { hashPassword } from '../../platform/passwords';
import type { CompaniesRepository } from '../identity/companies.repository';
import type { RolesRepository } from '../identity/roles.repository';
import { type UsersRepository, toPublicUser } from '../identity/users.repository';

const BUILTIN = new Set<string>(ROLE_NAMES);

/**
 * A name as two names are compared for "the same": compatibility forms folded (full-width `ａｄｍｉｎ`
 * reads `admin`), invisible characters removed, case, accents and repeated spaces ignored.
 */
export function sameNameKey(name: string): string {
  return foldText(cleanText(name.normalize('NFKC')));
}

/** A lost race on the unique email index reads like the check that ran just before it. */
function uniqueEmail(err: unknown): never {
  if (isUniqueViolation(err)) throw conflict('users.email_taken', 'email');
  throw err;
}

/** Users, roles and companies as the super administrator manages them. */
export function createSuperAdminService(deps: {
  users: UsersRepository;
  roles: RolesRepository;
  companies: CompaniesRepository;
  /** Every change below that alters what someone's token grants tells the cache, before answering. */
  authCache: Pick<AuthCache, 'forgetUsers' | 'forgetAll'>;
}) {
  const { users, roles, companies, authCache } = deps;

  async function checkRoles(roleIds: number[]) {
    const unique = [...new Set(roleIds)];
    const found = await roles.findRolesByIds(unique);
    if (found.length !== unique.length) throw invalid('roles', 'users.unknown_role');
    return found;
  }

  /** A role name that reads like another role's (case, accents, full-width letters, invisible characters). */
  async function roleNameTaken(name: string, exceptId?: number): Promise<boolean> {
    const key = sameNameKey(name);
    return (await roles.listRoleNames()).some((r) => r.id !== exceptId && sameNameKey(r.name) === key);
  }

  /** A free company name based on `base`: `base`, else `base (2)`, `base (3)`… */
  async function freeCompanyName(base: string): Promise<string> {
    const taken = new Set((await companies.listCompanies()).map((c) => sameNameKey(c.name)));
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? base : `${base} (${n})`;
      if (!taken.has(sameNameKey(candidate))) return candidate;
    }
  }

  /**
   * Where the user's company comes from: an existing id; `null` for none (detaches the user; an admin
   * cannot be left without one); a new company by name (refused when one reads the same); or, for an
   * admin without a company, a new one named after them. An agent must be given a company.
   */
  async function companyPlan(
    input: Pick<CreateUserRequest, 'company_id' | 'company_name' | 'name'>,
    isAdmin: boolean,
    currentCompanyId: number | null,
    isAgent = false,
  ): Promise<{ companyId?: number | null; newCompanyName?: string }> {
    if (input.company_id) {
      if (!(await companies.findCompanyById(input.company_id)))
        throw invalid('company_id', 'users.unknown_company');
      return { companyId: input.company_id };
    }
    if (input.company_name) {
      const key = sameNameKey(input.company_name);
      if ((await companies.listCompanies()).some((c) => sameNameKey(c.name) === key))
        throw conflict('companies.name_taken', 'company_name');
      return { newCompanyName: input.company_name };
    }
    const detach = input.company_id === null;
    if (isAdmin && (detach || currentCompanyId === null)) {
      if (detach && currentCompanyId !== null) throw invalid('company_id', 'users.admin_needs_company');
      return { newCompanyName: await freeCompanyName(input.name) };
    }
    // An agent answers one company's chats: never without a company.
    if (isAgent && (detach || currentCompanyId === null))
      throw invalid('company_id', 'users.agent_needs_company');
    return detach ? { companyId: null } : {};
  }

  async function getUser(id: number): Promise<User> {
    const u = await users.findUserById(id);
    if (!u) throw notFound('users.not_found');
    return toPublicUser(u);
  }

  async function getRole(id: number): Promise<Role> {
    const role = (await roles.listRoles()).find((r) => r.id === id);
    if (!role) throw notFound('roles.not_found');
    return toRole(role);
  }

  return {
    async listUsers(): Promise<User[]> {
      return (await users.listUsers()).map(toPublicUser);
    },

    async listCompanies() {
      return companies.listCompanies();
    },

    /** Creates a company (its admins are created or moved there later); refused when a name reads the same. */
    async createCompany(name: string) {
      const key = sameNameKey(name);
      if ((await companies.listCompanies()).some((c) => sameNameKey(c.name) === key))
        throw conflict('companies.name_taken', 'name');
      return companies.createCompany(name);
    },

    /** Renames a company; refused when another company's name reads the same. */
    async renameCompany(id: number, name: string) {
      if (!(await companies.findCompanyById(id))) throw notFound('companies.not_found');
      const key = sameNameKey(name);
      if ((await companies.listCompanies()).some((c) => c.id !== id && sameNameKey(c.name) === key))
        throw conflict('companies.name_taken', 'name');
      await companies.renameCompany(id, name);
      return (await companies.findCompanyById(id))!;
    },

    async createUser(input: CreateUserRequest): Promise<User> {
      if (await users.emailTaken(input.email)) throw conflict('users.email_taken', 'email');
      const found = await checkRoles(input.roles);
      const isAdmin = found.some((r) => r.name === 'admin');
      const isAgent = found.some((r) => r.name === 'agent');
      const plan = await companyPlan(input, isAdmin, null, isAgent);
      const id = await users
        .createUser({
          name: input.name,
          email: input.email,
          passwordHash: await hashPassword(input.password),
          roleIds: found.map((r) => r.id),
          ...plan,
        })
        .catch(uniqueEmail);
      return getUser(id);
    },

    /**
     * Updates a user. Taking the super_admin role away is checked and written in one transaction under
     * the super-admin lock, with the password hashed before it, so two super admins demoting each other
     * at the same moment leave one of them. A refused change writes nothing (no company either).
     */
    async updateUser(id: number, input: UpdateUserRequest): Promise<User> {
      const existing = await users.findUserById(id);
      if (!existing) throw notFound('users.not_found');
      if (await users.emailTaken(input.email, id)) throw conflict('users.email_taken', 'email');
      const found = await checkRoles(input.roles);
      const wasSuper = existing.roles.some((r) => r.name === 'super_admin');
      const staysSuper = found.some((r) => r.name === 'super_admin');
      const plan = await companyPlan(
        input,
        found.some((r) => r.name === 'admin'),
        existing.company_id,
        found.some((r) => r.name === 'agent'),
      );
      const passwordHash = input.password ? await hashPassword(input.password) : undefined;
      await users
        .updateUser(id, {
          name: input.name,
          email: input.email,
          passwordHash,
          roleIds: found.map((r) => r.id),
          keepASuperAdmin: wasSuper && !staysSuper,
          ...plan,
        })
        .catch(uniqueEmail);
      // Roles, company or password (which signs the user out everywhere) may have changed.
      await authCache.forgetUsers([id]);
      return getUser(id);
    },

    /** Deletes all the users or none of them; never the last super admin (checked in the same transaction). */
    async deleteUsers(ids: number[], actorId: number): Promise<void> {
      const unique = [...new Set(ids)];
      if (unique.includes(actorId)) throw conflict('users.cannot_delete_self', 'ids');
      if ((await users.countExistingUsers(unique)) !== unique.length) throw notFound('users.not_found');
      await users.deleteUsers(unique);
      await authCache.forgetUsers(unique);
    },

    async listRoles(): Promise<Role[]> {
      return (await roles.listRoles()).map(toRole);
    },

    async createRole(input: RoleRequest): Promise<Role> {
      if (await roleNameTaken(input.name)) throw conflict('roles.name_taken', 'name');
      const id = await roles.createRole({
        name: input.name,
        description: input.description ?? null,
        color: input.color,
      });
      return getRole(id);
    },

    async updateRole(id: number, input: RoleRequest): Promise<Role> {
      const role = await roles.findRoleById(id);
      if (!role) throw notFound('roles.not_found');
      if (BUILTIN.has(role.name) && input.name !== role.name) throw conflict('roles.builtin_rename', 'name');
      if (await roleNameTaken(input.name, id)) throw conflict('roles.name_taken', 'name');
      await roles.updateRole(id, {
        name: input.name,
        description: input.description ?? null,
        color: input.color,
      });
      // Signed-in users carry their roles' names and colours.
      await authCache.forgetAll();
      return getRole(id);
    },

    async deleteRole(id: number): Promise<void> {
      const role = await roles.findRoleById(id);
      if (!role) throw notFound('roles.not_found');
      if (BUILTIN.has(role.name)) throw conflict('roles.builtin_delete');
      await roles.deleteRole(id);
      await authCache.forgetAll();
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
