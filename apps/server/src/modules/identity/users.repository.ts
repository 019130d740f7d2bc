import type { RoleSummary, User } from '@hablabot/contract';
import { sql, type Transaction } from 'kysely';
import type { DB, RoleRow, UserRow } from '../../db/schema';
import { type Executor, atomically } from '../../db/transactions';
import { AppError } from '../../platform/errors';

const now = () => new Date().toISOString();

export interface UserWithRoles extends UserRow {
  roles: RoleSummary[];
  company_name: string | null;
}

function toRoleSummary(r: Pick<RoleRow, 'id' | 'name' | 'description' | 'color'>): RoleSummary {
  return { id: r.id, name: r.name, description: r.description, color: r.color };
}

async function rolesOf(db: Executor, userIds: number[]): Promise<Map<number, RoleSummary[]>> {
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

/** Users joined with their company's name; the caller adds the where clause. */
export function usersQuery(db: Executor) {
  return db
    .selectFrom('users')
    .leftJoin('companies', 'companies.id', 'users.company_id')
    .selectAll('users')
    .select('companies.name as company_name');
}

/** Adds each user's roles (one query for all of them). */
export async function withRoles(
  db: Executor,
  rows: (UserRow & { company_name: string | null })[],
): Promise<UserWithRoles[]> {
  const roles = await rolesOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({ ...r, roles: roles.get(r.id) ?? [] }));
}

/**
 * Holds the super-admin membership still until the transaction ends: on PostgreSQL a row lock on the
 * super_admin role, on SQLite the database's write lock (the first write of a transaction takes it).
 * Every change that could leave no super admin takes it before counting, so two such changes at the
 * same moment run one after the other and the second one sees the first.
 */
async function lockSuperAdmins(trx: Transaction<DB>): Promise<void> {
  await trx
    .updateTable('roles')
    .set({ updated_at: sql`updated_at` })
    .where('name', '=', 'super_admin')
    .execute();
}

async function countWithRole(db: Executor, roleName: string, exceptIds: number[]): Promise<number> {
  let q = db
    .selectFrom('user_roles')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .select(sql<number>`cast(count(distinct user_roles.user_id) as integer)`.as('n'))
    .where('roles.name', '=', roleName);
  if (exceptIds.length > 0) q = q.where('user_roles.user_id', 'not in', exceptIds);
  const row = await q.executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Thrown inside a transaction when a change would leave no super admin; the caller answers 409. */
export const lastSuperAdmin = (field: string) =>
  new AppError(409, 'users.last_super_admin', undefined, { [field]: ['users.last_super_admin'] });

export interface CompanyChoice {
  /** An existing company, or null for none; undefined keeps the current one. */
  companyId?: number | null;
  /** A company to create (in the same transaction) and put the user in. */
  newCompanyName?: string;
}

async function resolveCompany(trx: Transaction<DB>, choice: CompanyChoice, at: string) {
  if (!choice.newCompanyName) return choice.companyId;
  const c = await trx
    .insertInto('companies')
    .values({ name: choice.newCompanyName, created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return c.id;
}

/** Users and their roles: the SQL behind sign-in, registration and the super admin's user management. */
export function createUsersRepository(db: Executor) {
  return {
    async findUserByEmail(email: string): Promise<UserWithRoles | undefined> {
      const row = await usersQuery(db).where('users.email', '=', email.toLowerCase()).executeTakeFirst();
      return row ? (await withRoles(db, [row]))[0] : undefined;
    },

    async findUserById(id: number): Promise<UserWithRoles | undefined> {
      const row = await usersQuery(db).where('users.id', '=', id).executeTakeFirst();
      return row ? (await withRoles(db, [row]))[0] : undefined;
    },

    async listUsers(): Promise<UserWithRoles[]> {
      return withRoles(db, await usersQuery(db).orderBy('users.id').execute());
    },

    async emailTaken(email: string, exceptId?: number): Promise<boolean> {
      let q = db.selectFrom('users').select('id').where('email', '=', email.toLowerCase());
      if (exceptId) q = q.where('id', '!=', exceptId);
      return (await q.executeTakeFirst()) !== undefined;
    },

    /** Creates the user (and its company when asked) with its roles, in one transaction. */
    async createUser(
      input: {
        name: string;
        email: string;
        passwordHash: string;
        roleIds: number[];
        language?: string;
      } & CompanyChoice,
    ): Promise<number> {
      return atomically(db, async (trx) => {
        const at = now();
        const companyId = (await resolveCompany(trx, input, at)) ?? null;
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

    /**
     * Updates the user, its roles and company in one transaction. With `keepASuperAdmin`, the change is
     * refused (409, nothing written, no company created) when it would leave no super admin — checked
     * under the super-admin lock, so two demotions at the same moment cannot both pass. Hash the
     * password before calling: nothing slow runs while the lock is held.
     */
    async updateUser(
      id: number,
      input: {
        name: string;
        email: string;
        passwordHash?: string;
        roleIds: number[];
        keepASuperAdmin?: boolean;
      } & CompanyChoice,
    ): Promise<void> {
      await atomically(db, async (trx) => {
        if (input.keepASuperAdmin) {
          await lockSuperAdmins(trx);
          if ((await countWithRole(trx, 'super_admin', [id])) === 0) throw lastSuperAdmin('roles');
        }
        const at = now();
        const companyId = await resolveCompany(trx, input, at);
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

    /**
     * The user's own changes: name, language and, when given, a new password — which also signs out
     * every other session of the user (all their tokens but `keepTokenId`), in the same transaction.
     */
    async updateOwnAccount(
      id: number,
      input: { name: string; language: string; passwordHash?: string; keepTokenId: number },
    ): Promise<void> {
      await atomically(db, async (trx) => {
        await trx
          .updateTable('users')
          .set({
            name: input.name,
            language: input.language,
            updated_at: now(),
            ...(input.passwordHash ? { password_hash: input.passwordHash } : {}),
          })
          .where('id', '=', id)
          .execute();
        if (input.passwordHash)
          await trx
            .deleteFrom('access_tokens')
            .where('user_id', '=', id)
            .where('id', '!=', input.keepTokenId)
            .execute();
      });
    },

    async setUserLanguage(id: number, language: string): Promise<void> {
      await db.updateTable('users').set({ language, updated_at: now() }).where('id', '=', id).execute();
    },

    /** Deletes all the users or none; refused (409) under the super-admin lock if none would remain. */
    async deleteUsers(ids: number[]): Promise<void> {
      await atomically(db, async (trx) => {
        await lockSuperAdmins(trx);
        if ((await countWithRole(trx, 'super_admin', ids)) === 0) throw lastSuperAdmin('ids');
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
      return countWithRole(db, roleName, exceptIds);
    },

    /**
     * Gives the user the role unless it already has it; with `onlyIfNone`, only while nobody holds the
     * role (checked under the super-admin lock). True when the role was given.
     */
    async grantRole(userId: number, roleId: number, options: { onlyIfNone?: string } = {}): Promise<boolean> {
      return atomically(db, async (trx) => {
        await lockSuperAdmins(trx);
        if (options.onlyIfNone && (await countWithRole(trx, options.onlyIfNone, [])) > 0) return false;
        const has = await trx
          .selectFrom('user_roles')
          .select('user_id')
          .where('user_id', '=', userId)
          .where('role_id', '=', roleId)
          .executeTakeFirst();
        if (has) return false;
        await trx.insertInto('user_roles').values({ user_id: userId, role_id: roleId }).execute();
        return true;
      });
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;

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
