import type { RoleSummary, User } from '@hablabot/contract';
import { type Kysely, sql } from 'kysely';
import type { DB, RoleRow, UserRow } from '../../db/schema';

const now = () => new Date().toISOString();

export interface UserWithRoles extends UserRow {
  roles: RoleSummary[];
  company_name: string | null;
}

function toRoleSummary(r: Pick<RoleRow, 'id' | 'name' | 'description' | 'color'>): RoleSummary {
  return { id: r.id, name: r.name, description: r.description, color: r.color };
}

/** Users, roles, companies and access tokens: the only SQL of the identity area. */
export function createIdentityRepository(db: Kysely<DB>) {
  async function rolesOf(userIds: number[]): Promise<Map<number, RoleSummary[]>> {
    const map = new Map<number, RoleSummary[]>();
    if (userIds.length === 0) return map;
    const rows = await db
      .selectFrom('user_roles')
      .innerJoin('roles', 'roles.id', 'user_roles.role_id')
      .select(['user_roles.user_id', 'roles.id', 'roles.name', 'roles.description', 'roles.color'])
      .where('user_roles.user_id', 'in', userIds)
      .orderBy('roles.id')
      .execute();
    for (const r of rows) {
      const list = map.get(r.user_id) ?? [];
      list.push(toRoleSummary(r));
      map.set(r.user_id, list);
    }
    return map;
  }

  function usersQuery(trx: Kysely<DB> = db) {
    return trx
      .selectFrom('users')
      .leftJoin('companies', 'companies.id', 'users.company_id')
      .selectAll('users')
      .select('companies.name as company_name');
  }

  async function withRoles(rows: (UserRow & { company_name: string | null })[]): Promise<UserWithRoles[]> {
    const roles = await rolesOf(rows.map((r) => r.id));
    return rows.map((r) => ({ ...r, roles: roles.get(r.id) ?? [] }));
  }

  return {
    async findUserByEmail(email: string): Promise<UserWithRoles | undefined> {
      const row = await usersQuery().where('users.email', '=', email.toLowerCase()).executeTakeFirst();
      return row ? (await withRoles([row]))[0] : undefined;
    },

    async findUserById(id: number): Promise<UserWithRoles | undefined> {
      const row = await usersQuery().where('users.id', '=', id).executeTakeFirst();
      return row ? (await withRoles([row]))[0] : undefined;
    },

    async listUsers(): Promise<UserWithRoles[]> {
      return withRoles(await usersQuery().orderBy('users.id').execute());
    },

    async emailTaken(email: string, exceptId?: number): Promise<boolean> {
      let q = db.selectFrom('users').select('id').where('email', '=', email.toLowerCase());
      if (exceptId) q = q.where('id', '!=', exceptId);
      return (await q.executeTakeFirst()) !== undefined;
    },

    /** Creates the user (and its company when asked) with its roles, in one transaction. */
    async createUser(input: {
      name: string;
      email: string;
      passwordHash: string;
      roleIds: number[];
      companyId?: number | null;
      newCompanyName?: string;
      language?: string;
    }): Promise<number> {
      return db.transaction().execute(async (trx) => {
        const at = now();
        let companyId = input.companyId ?? null;
        if (input.newCompanyName) {
          const c = await trx
            .insertInto('companies')
            .values({ name: input.newCompanyName, created_at: at, updated_at: at })
            .returning('id')
            .executeTakeFirstOrThrow();
          companyId = c.id;
        }
        const u = await trx
          .insertInto('users')
          .values({
            name: input.name,
            email: input.email.toLowerCase(),
            password_hash: input.passwordHash,
            company_id: companyId,
            language: input.language ?? 'es',
            created_at: at,
            updated_at: at,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        if (input.roleIds.length > 0) {
          await trx
            .insertInto('user_roles')
            .values(input.roleIds.map((role_id) => ({ user_id: u.id, role_id })))
            .execute();
        }
        return u.id;
      });
    },

    async updateUser(
      id: number,
      input: {
        name: string;
        email: string;
        passwordHash?: string;
        roleIds: number[];
        companyId?: number | null;
        newCompanyName?: string;
      },
    ): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const at = now();
        let companyId = input.companyId;
        if (input.newCompanyName) {
          const c = await trx
            .insertInto('companies')
            .values({ name: input.newCompanyName, created_at: at, updated_at: at })
            .returning('id')
            .executeTakeFirstOrThrow();
          companyId = c.id;
        }
        await trx
          .updateTable('users')
          .set({
            name: input.name,
            email: input.email.toLowerCase(),
            updated_at: at,
            ...(input.passwordHash ? { password_hash: input.passwordHash } : {}),
            ...(companyId !== undefined ? { company_id: companyId } : {}),
          })
          .where('id', '=', id)
          .execute();
        await trx.deleteFrom('user_roles').where('user_id', '=', id).execute();
        await trx
          .insertInto('user_roles')
          .values(input.roleIds.map((role_id) => ({ user_id: id, role_id })))
          .execute();
        if (input.passwordHash) await trx.deleteFrom('access_tokens').where('user_id', '=', id).execute();
      });
    },

    async setUserLanguage(id: number, language: string): Promise<void> {
      await db.updateTable('users').set({ language, updated_at: now() }).where('id', '=', id).execute();
    },

    async deleteUsers(ids: number[]): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('access_tokens').where('user_id', 'in', ids).execute();
        await trx.deleteFrom('user_roles').where('user_id', 'in', ids).execute();
        await trx.deleteFrom('users').where('id', 'in', ids).execute();
      });
    },

    async countExistingUsers(ids: number[]): Promise<number> {
      const row = await db
        .selectFrom('users')
        .select(sql<number>`cast(count(*) as integer)`.as('n'))
        .where('id', 'in', ids)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Users holding the named role, optionally ignoring some ids. */
    async countUsersWithRole(roleName: string, exceptIds: number[] = []): Promise<number> {
      let q = db
        .selectFrom('user_roles')
        .innerJoin('roles', 'roles.id', 'user_roles.role_id')
        .select(sql<number>`cast(count(distinct user_roles.user_id) as integer)`.as('n'))
        .where('roles.name', '=', roleName);
      if (exceptIds.length > 0) q = q.where('user_roles.user_id', 'not in', exceptIds);
      const row = await q.executeTakeFirstOrThrow();
      return Number(row.n);
    },

    // --- roles ---

    async listRoles(): Promise<(RoleRow & { usersCount: number })[]> {
      const rows = await db
        .selectFrom('roles')
        .leftJoin('user_roles', 'user_roles.role_id', 'roles.id')
        .selectAll('roles')
        .select(sql<number>`cast(count(user_roles.user_id) as integer)`.as('usersCount'))
        .groupBy([
          'roles.id',
          'roles.name',
          'roles.description',
          'roles.color',
          'roles.builtin',
          'roles.created_at',
          'roles.updated_at',
        ])
        .orderBy('roles.id')
        .execute();
      return rows.map((r) => ({ ...r, usersCount: Number(r.usersCount) }));
    },

    async findRoleById(id: number): Promise<RoleRow | undefined> {
      return db.selectFrom('roles').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async findRoleByName(name: string): Promise<RoleRow | undefined> {
      return db.selectFrom('roles').selectAll().where('name', '=', name).executeTakeFirst();
    },

    async findRolesByIds(ids: number[]): Promise<RoleRow[]> {
      if (ids.length === 0) return [];
      return db.selectFrom('roles').selectAll().where('id', 'in', ids).execute();
    },

    async roleNameTaken(name: string, exceptId?: number): Promise<boolean> {
      let q = db.selectFrom('roles').select('id').where(sql`lower(name)`, '=', name.toLowerCase());
      if (exceptId) q = q.where('id', '!=', exceptId);
      return (await q.executeTakeFirst()) !== undefined;
    },

    async createRole(input: { name: string; description: string | null; color: string }): Promise<number> {
      const at = now();
      const r = await db
        .insertInto('roles')
        .values({ ...input, builtin: 0, created_at: at, updated_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      return r.id;
    },

    async updateRole(
      id: number,
      input: { name: string; description: string | null; color: string },
    ): Promise<void> {
      await db
        .updateTable('roles')
        .set({ ...input, updated_at: now() })
        .where('id', '=', id)
        .execute();
    },

    async deleteRole(id: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('user_roles').where('role_id', '=', id).execute();
        await trx.deleteFrom('roles').where('id', '=', id).execute();
      });
    },

    // --- companies ---

    async listCompanies() {
      return db.selectFrom('companies').select(['id', 'name', 'created_at']).orderBy('name').execute();
    },

    async findCompanyById(id: number) {
      return db
        .selectFrom('companies')
        .select(['id', 'name', 'created_at'])
        .where('id', '=', id)
        .executeTakeFirst();
    },

    // --- access tokens ---

    async createToken(userId: number, tokenHash: string, ttlMs: number): Promise<void> {
      const at = new Date();
      await db
        .insertInto('access_tokens')
        .values({
          user_id: userId,
          token_hash: tokenHash,
          created_at: at.toISOString(),
          last_used_at: null,
          expires_at: new Date(at.getTime() + ttlMs).toISOString(),
        })
        .execute();
    },

    /** The token's user when the token exists and has not expired. */
    async findUserByTokenHash(
      tokenHash: string,
    ): Promise<{ tokenId: number; user: UserWithRoles } | undefined> {
      const token = await db
        .selectFrom('access_tokens')
        .select(['id', 'user_id'])
        .where('token_hash', '=', tokenHash)
        .where('expires_at', '>', new Date().toISOString())
        .executeTakeFirst();
      if (!token) return undefined;
      const row = await usersQuery().where('users.id', '=', token.user_id).executeTakeFirst();
      if (!row) return undefined;
      return { tokenId: token.id, user: (await withRoles([row]))[0] };
    },

    async deleteToken(tokenId: number): Promise<void> {
      await db.deleteFrom('access_tokens').where('id', '=', tokenId).execute();
    },

    async deleteExpiredTokens(): Promise<void> {
      await db.deleteFrom('access_tokens').where('expires_at', '<=', new Date().toISOString()).execute();
    },
  };
}

export type IdentityRepository = ReturnType<typeof createIdentityRepository>;

export function toPublicUser(u: UserWithRoles): User {
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    company_id: u.company_id,
    company_name: u.company_name,
    language: u.language === 'en' ? 'en' : 'es',
    roles: u.roles,
    created_at: u.created_at,
  };
}
