import { sql } from 'kysely';
import type { RoleRow } from '../../db/schema';
import { type Executor, atomically } from '../../db/transactions';

const now = () => new Date().toISOString();

/** Roles: the built-in three and the ones a super admin adds. */
export function createRolesRepository(db: Executor) {
  return {
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

    /** Every role's id and name (for comparisons the database cannot make, such as look-alike names). */
    async listRoleNames(): Promise<{ id: number; name: string }[]> {
      return db.selectFrom('roles').select(['id', 'name']).execute();
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
      await atomically(db, async (trx) => {
        await trx.deleteFrom('user_roles').where('role_id', '=', id).execute();
        await trx.deleteFrom('roles').where('id', '=', id).execute();
      });
    },
  };
}

export type RolesRepository = ReturnType<typeof createRolesRepository>;
