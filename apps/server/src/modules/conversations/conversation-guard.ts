import type { FastifyRequest } from 'fastify';
import { type Guard, type Guards, companyIdOf } from '../../platform/auth';
import { notFound } from '../../platform/errors';
import type { ConversationAccess } from './conversation-access';

/**
 * The inbox's privacy rule (conversation-access.ts) as the chat's routes apply it, behind
 * guards.requireCompanyMember: a conversation the caller may not see does not exist for them (404, with
 * the text the route gives for a missing one), and lists leave it out.
 */
export function conversationGuard(access: Pick<ConversationAccess, 'maySee' | 'visibilityOf'>) {
  return {
    /** 404 (`notFoundKey`) unless the caller may see the conversation of client `clientId`. */
    async assertVisible(request: FastifyRequest, clientId: number, notFoundKey = 'clients.not_found') {
      if (!(await access.maySee(request.auth!, companyIdOf(request), clientId))) throw notFound(notFoundKey);
    },

    /** For a list: the agent who sees only their own and unassigned conversations; undefined: all. */
    async onlyFor(request: FastifyRequest): Promise<number | undefined> {
      const visibility = await access.visibilityOf(request.auth!, companyIdOf(request));
      return visibility.kind === 'own' ? visibility.userId : undefined;
    },
  };
}

export type ConversationGuard = ReturnType<typeof conversationGuard>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route lets a company's agents in too (guards.requireCompanyMember), not only its admins. */
    teamMembers?: boolean;
  }
}

/** Route options that open a chat route to agents (see `adminsOrMembers`). */
export const forTeamMembers = { config: { teamMembers: true } } as const;

/**
 * The onRequest guard of a route file whose routes are for admins except those marked `forTeamMembers`
 * (the chat's routes, which agents use too): a route added later stays admin-only unless it says so.
 */
export function adminsOrMembers(guards: Pick<Guards, 'requireCompanyAdmin' | 'requireCompanyMember'>): Guard {
  return (request) =>
    request.routeOptions.config.teamMembers
      ? guards.requireCompanyMember(request)
      : guards.requireCompanyAdmin(request);
}
