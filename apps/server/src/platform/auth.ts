import type { BuiltinRoleName, Language } from '@hablabot/contract';
import type { FastifyRequest } from 'fastify';
import type { IdentityRepository, UserWithRoles } from '../modules/identity/identity.repository';
import type { AuthCache } from './auth-cache';
import { forbidden, unauthenticated } from './errors';
import { hashToken } from './tokens';

export interface AuthContext {
  user: UserWithRoles;
  tokenId: number;
  /** The SHA-256 of the bearer token (what `recheck` looks up again). */
  tokenHash: string;
  /** When the token stops working, in milliseconds since the epoch. */
  expiresAt: number;
  roleNames: Set<string>;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
    lang: Language;
  }
}

export type Guard = (request: FastifyRequest) => Promise<void>;

function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

/**
 * Route guards: each resolves the bearer token once and refuses with 401 or 403. Tokens are looked up by
 * their hash through the auth cache (see platform/auth-cache.ts for what must invalidate it).
 */
export function createGuards(identity: Pick<IdentityRepository, 'findUserByTokenHash'>, cache: AuthCache) {
  async function authenticate(request: FastifyRequest): Promise<AuthContext> {
    if (request.auth) return request.auth;
    const token = bearerOf(request);
    if (!token || token.length > 200) throw unauthenticated();
    const hash = hashToken(token);
    const found = await cache.lookup(hash, () => identity.findUserByTokenHash(hash));
    if (!found) throw unauthenticated();
    request.auth = contextOf(hash, found);
    return request.auth;
  }

  /**
   * What the token grants now, read from the database past the cache; undefined once it no longer signs
   * anyone in (signed out, expired, its user deleted). For what outlives one request: an open stream.
   */
  async function recheck(tokenHash: string): Promise<AuthContext | undefined> {
    const found = await identity.findUserByTokenHash(tokenHash);
    return found ? contextOf(tokenHash, found) : undefined;
  }

  const requireAuth: Guard = async (request) => {
    await authenticate(request);
  };

  /** Signs the caller in when a token is sent (a bad token is still a 401); anonymous otherwise. */
  const optionalAuth: Guard = async (request) => {
    if (bearerOf(request) || request.headers.authorization) await authenticate(request);
  };

  function requireRole(...roles: BuiltinRoleName[]): Guard {
    return async (request) => {
      const auth = await authenticate(request);
      if (!roles.some((r) => auth.roleNames.has(r))) throw forbidden();
    };
  }

  /** An admin of a company; every query the route makes is scoped to that company. */
  const requireCompanyAdmin: Guard = async (request) => {
    const auth = await authenticate(request);
    if (!auth.roleNames.has('admin') || auth.user.company_id === null) throw forbidden();
  };

  /**
   * A member of a company's team: an admin or an agent. Only the chat's routes (conversations, messages,
   * notes, reading quick replies, the live stream) let agents in; which conversations an agent may touch
   * is the inbox's rule (modules/conversations/conversation-access.ts).
   */
  const requireCompanyMember: Guard = async (request) => {
    const auth = await authenticate(request);
    if (auth.user.company_id === null || !(auth.roleNames.has('admin') || auth.roleNames.has('agent')))
      throw forbidden();
  };

  return {
    authenticate,
    recheck,
    requireAuth,
    optionalAuth,
    requireRole,
    requireCompanyAdmin,
    requireCompanyMember,
  };
}

export type Guards = ReturnType<typeof createGuards>;

function contextOf(
  tokenHash: string,
  found: { tokenId: number; user: UserWithRoles; expiresAt: number },
): AuthContext {
  return {
    user: found.user,
    tokenId: found.tokenId,
    tokenHash,
    expiresAt: found.expiresAt,
    roleNames: new Set(found.user.roles.map((r) => r.name)),
  };
}

/** Whether a signed-in user may read a company's admin area (what requireCompanyAdmin lets through). */
export function isAdminOf(auth: AuthContext, companyId: number): boolean {
  return auth.roleNames.has('admin') && auth.user.company_id === companyId;
}

/** Whether a signed-in user is on a company's team (an admin or an agent of it). */
export function isMemberOf(auth: AuthContext, companyId: number): boolean {
  return (auth.roleNames.has('admin') || auth.roleNames.has('agent')) && auth.user.company_id === companyId;
}

/** Whether the caller is an agent only (no admin role): the inbox's privacy rules apply to them. */
export function isAgentOnly(auth: AuthContext): boolean {
  return auth.roleNames.has('agent') && !auth.roleNames.has('admin');
}

/** The signed-in user's company; only call behind requireCompanyAdmin or requireCompanyMember. */
export function companyIdOf(request: FastifyRequest): number {
  const id = request.auth?.user.company_id;
  if (id === null || id === undefined) throw forbidden();
  return id;
}

export function userOf(request: FastifyRequest): UserWithRoles {
  if (!request.auth) throw unauthenticated();
  return request.auth.user;
}
