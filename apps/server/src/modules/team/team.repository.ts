import type { TeamRole } from '@hablabot/contract';
import { type Expression, type SqlBool, sql } from 'kysely';
import type { Timestamp } from '../../db/schema';
import { type Executor, atomically } from '../../db/transactions';
import { AppError } from '../../platform/errors';

const now = () => new Date().toISOString();

/** A member as read from the database: the caller turns `stream_seen_at` into online or not. */
export interface MemberRow {
  id: number;
  name: string;
  email: string;
  role: TeamRole;
  /** Holds the super administrator's role too: a company admin never changes such a member. */
  super_admin: boolean;
  open_conversations: number;
  stream_seen_at: Timestamp | null;
  created_at: Timestamp;
}

/** Thrown inside the transaction when a change would leave the company without an admin: 409. */
const lastAdmin = (field: string) =>
  new AppError(409, 'team.last_admin', undefined, { [field]: ['team.last_admin'] });

/** Whether the user (`users.id` of the outer query) holds one of the named roles. */
function holds(db: Executor, names: string[]): Expression<SqlBool> {
  return sql<SqlBool>`exists ${db
    .selectFrom('user_roles')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .select('user_roles.user_id')
    .where('user_roles.user_id', '=', sql.ref<number>('users.id'))
    .where('roles.name', 'in', names)}`;
}

/**
 * A company's team: its users holding the admin or agent role, read in one query — the role, the open
 * conversations assigned (the partial index on the assignee) and the stream's last sign of presence.
 * Changes that could leave the company without an admin are checked under the company's lock.
 */
export function createTeamRepository(db: Executor) {
  function membersQuery(companyId: number) {
    // The open conversations of the company by assignee, counted once for the whole team: a range of
    // the inbox's (company, status, …) index, a few milliseconds at 50,000 conversations, where a count
    // per member would read every conversation ever assigned to them. Materialized, so no engine runs
    // it again for each member.
    return db
      .with(
        (cte) => cte('open_by_assignee').materialized(),
        (qb) =>
          qb
            .selectFrom('conversations')
            .select(['assignee_user_id', sql<number>`cast(count(*) as integer)`.as('n')])
            .where('company_id', '=', companyId)
            .where('status', '=', 'open')
            .where('assignee_user_id', 'is not', null)
            .groupBy('assignee_user_id'),
      )
      .selectFrom('users')
      .leftJoin('open_by_assignee as open', 'open.assignee_user_id', 'users.id')
      .select(['users.id', 'users.name', 'users.email', 'users.stream_seen_at', 'users.created_at'])
      .select(sql<number>`case when ${holds(db, ['admin'])} then 1 else 0 end`.as('is_admin'))
      .select(sql<number>`case when ${holds(db, ['super_admin'])} then 1 else 0 end`.as('is_super'))
      .select('open.n as open_conversations')
      .where('users.company_id', '=', companyId)
      .where(holds(db, ['admin', 'agent']));
  }

  function toRow(r: {
    id: number;
    name: string;
    email: string;
    stream_seen_at: Timestamp | null;
    created_at: Timestamp;
    is_admin: number;
    is_super: number;
    open_conversations: number | null;
  }): MemberRow {
    return {
      id: r.id,
      name: r.name,
      email: r.email,
      role: Number(r.is_admin) === 1 ? 'admin' : 'agent',
      super_admin: Number(r.is_super) === 1,
      open_conversations: Number(r.open_conversations ?? 0),
      stream_seen_at: r.stream_seen_at,
      created_at: r.created_at,
    };
  }

  /**
   * Holds the company's team still until the transaction ends: on PostgreSQL a row lock on the company,
   * on SQLite the database's write lock (the first write of a transaction takes it). Two admins
   * demoting or deleting each other at the same moment run one after the other, and the second sees
   * the first, so one admin always remains.
   */
  async function lockCompany(trx: Executor, companyId: number): Promise<void> {
    await trx
      .updateTable('companies')
      .set({ updated_at: sql`updated_at` })
      .where('id', '=', companyId)
      .execute();
  }

  /** The company's admins other than `exceptId`. */
  async function otherAdmins(trx: Executor, companyId: number, exceptId: number): Promise<number> {
    const row = await trx
      .selectFrom('users')
      .select(sql<number>`cast(count(*) as integer)`.as('n'))
      .where('users.company_id', '=', companyId)
      .where('users.id', '!=', exceptId)
      .where(holds(trx, ['admin']))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async function roleIds(trx: Executor): Promise<Record<TeamRole, number>> {
    const rows = await trx
      .selectFrom('roles')
      .select(['id', 'name'])
      .where('name', 'in', ['admin', 'agent'])
      .execute();
    const admin = rows.find((r) => r.name === 'admin');
    const agent = rows.find((r) => r.name === 'agent');
    if (!admin || !agent) throw new Error('the admin and agent roles are missing');
    return { admin: admin.id, agent: agent.id };
  }

  return {
    /** The team, by name. */
    async listMembers(companyId: number): Promise<MemberRow[]> {
      const rows = await membersQuery(companyId).orderBy('users.name').orderBy('users.id').execute();
      return rows.map(toRow);
    },

    async findMember(companyId: number, id: number): Promise<MemberRow | undefined> {
      const row = await membersQuery(companyId).where('users.id', '=', id).executeTakeFirst();
      return row ? toRow(row) : undefined;
    },

    /** Creates a user of the company with the one team role; answers its id. */
    async createMember(
      companyId: number,
      input: { name: string; email: string; passwordHash: string; role: TeamRole; language: string },
    ): Promise<number> {
      return atomically(db, async (trx) => {
        const at = now();
        const ids = await roleIds(trx);
        const u = await trx
          .insertInto('users')
          .values({
            name: input.name,
            email: input.email.toLowerCase(),
            password_hash: input.passwordHash,
            company_id: companyId,
            language: input.language,
            created_at: at,
            updated_at: at,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx.insertInto('user_roles').values({ user_id: u.id, role_id: ids[input.role] }).execute();
        return u.id;
      });
    },

    /**
     * Updates a member: name, email, a new password when given (which signs them out everywhere) and the
     * team role, replacing admin/agent and keeping any other role. Refused (409, nothing written) when it
     * would leave the company without an admin. Hash the password before calling.
     */
    async updateMember(
      companyId: number,
      id: number,
      input: { name: string; email: string; passwordHash?: string; role: TeamRole },
    ): Promise<void> {
      await atomically(db, async (trx) => {
        await lockCompany(trx, companyId);
        if (input.role !== 'admin' && (await otherAdmins(trx, companyId, id)) === 0) throw lastAdmin('role');
        const ids = await roleIds(trx);
        await trx
          .updateTable('users')
          .set({
            name: input.name,
            email: input.email.toLowerCase(),
            updated_at: now(),
            ...(input.passwordHash ? { password_hash: input.passwordHash } : {}),
          })
          .where('id', '=', id)
          .where('company_id', '=', companyId)
          .execute();
        await trx
          .deleteFrom('user_roles')
          .where('user_id', '=', id)
          .where('role_id', 'in', [ids.admin, ids.agent])
          .execute();
        await trx.insertInto('user_roles').values({ user_id: id, role_id: ids[input.role] }).execute();
        if (input.passwordHash) await trx.deleteFrom('access_tokens').where('user_id', '=', id).execute();
      });
    },

    /**
     * Deletes a member with their sessions; their conversations become unassigned (the foreign key sets
     * the assignee to null). Refused (409) when they are the company's last admin.
     */
    async deleteMember(companyId: number, id: number): Promise<void> {
      await atomically(db, async (trx) => {
        await lockCompany(trx, companyId);
        if ((await otherAdmins(trx, companyId, id)) === 0) throw lastAdmin('id');
        await trx.deleteFrom('access_tokens').where('user_id', '=', id).execute();
        await trx.deleteFrom('user_roles').where('user_id', '=', id).execute();
        await trx.deleteFrom('users').where('id', '=', id).where('company_id', '=', companyId).execute();
      });
    },
  };
}

export type TeamRepository = ReturnType<typeof createTeamRepository>;
