import type {
  CreateTeamMemberRequest,
  Language,
  TeamMember,
  UpdateTeamMemberRequest,
} from '@hablabot/contract';
import { isUniqueViolation } from '../../db/errors';
import type { UsersRepository } from '../identity/users.repository';
import type { AuthCache } from '../../platform/auth-cache';
import { type Clock, realClock } from '../../platform/clock';
import { AppError, conflict, notFound } from '../../platform/errors';
import { hashPassword } from '../../platform/passwords';
import { isOnline } from './presence';
import type { MemberRow, TeamRepository } from './team.repository';

/** A lost race on the unique email index reads like the check that ran just before it. */
function uniqueEmail(err: unknown): never {
  if (isUniqueViolation(err)) throw conflict('users.email_taken', 'email');
  throw err;
}

/**
 * A company's team as its admins manage it: admins and agents of their own company only. A member who
 * is also a super administrator is the super admin's to change, never a company admin's (403).
 * Whatever changes what a member's token grants (role, password, deletion) tells the auth cache before
 * answering, so their next request — and their open live streams — are judged again.
 */
export function createTeamService(deps: {
  teamRepository: TeamRepository;
  users: Pick<UsersRepository, 'emailTaken'>;
  authCache: Pick<AuthCache, 'forgetUsers'>;
  clock?: Pick<Clock, 'now'>;
}) {
  const { teamRepository: repo, users, authCache } = deps;
  const clock = deps.clock ?? realClock;

  function toMember(row: MemberRow, at: number): TeamMember {
    return {
      id: row.id,
      name: row.name,
      email: row.email,
      role: row.role,
      open_conversations: row.open_conversations,
      online: isOnline(row.stream_seen_at, at),
      created_at: row.created_at,
    };
  }

  async function getMember(companyId: number, id: number): Promise<TeamMember> {
    const row = await repo.findMember(companyId, id);
    if (!row) throw notFound('team.not_found');
    return toMember(row, clock.now());
  }

  /** The member the caller may change: of their company (else 404), not a super administrator (403). */
  async function changeable(companyId: number, id: number): Promise<MemberRow> {
    const row = await repo.findMember(companyId, id);
    if (!row) throw notFound('team.not_found');
    if (row.super_admin) throw new AppError(403, 'team.super_admin_member');
    return row;
  }

  return {
    async list(companyId: number): Promise<TeamMember[]> {
      const at = clock.now();
      return (await repo.listMembers(companyId)).map((row) => toMember(row, at));
    },

    async create(companyId: number, input: CreateTeamMemberRequest, language: Language): Promise<TeamMember> {
      if (await users.emailTaken(input.email)) throw conflict('users.email_taken', 'email');
      const id = await repo
        .createMember(companyId, {
          name: input.name,
          email: input.email,
          passwordHash: await hashPassword(input.password),
          role: input.role,
          language,
        })
        .catch(uniqueEmail);
      return getMember(companyId, id);
    },

    /** Same fields as creation; an empty password keeps the current one. */
    async update(companyId: number, id: number, input: UpdateTeamMemberRequest): Promise<TeamMember> {
      await changeable(companyId, id);
      if (await users.emailTaken(input.email, id)) throw conflict('users.email_taken', 'email');
      const passwordHash = input.password ? await hashPassword(input.password) : undefined;
      await repo
        .updateMember(companyId, id, { name: input.name, email: input.email, passwordHash, role: input.role })
        .catch(uniqueEmail);
      // Role, password (which signs them out everywhere) or the name their session shows may have changed.
      await authCache.forgetUsers([id]);
      return getMember(companyId, id);
    },

    /** Never the caller themself, never the company's last admin (409 both). */
    async remove(companyId: number, id: number, actorId: number): Promise<void> {
      if (id === actorId) throw conflict('team.cannot_delete_self', 'id');
      await changeable(companyId, id);
      await repo.deleteMember(companyId, id);
      await authCache.forgetUsers([id]);
    },
  };
}

export type TeamService = ReturnType<typeof createTeamService>;
