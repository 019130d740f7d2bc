import type { Executor } from '../../db/transactions';
import { createCompaniesRepository } from './companies.repository';
import { createRolesRepository } from './roles.repository';
import { createTokensRepository } from './tokens.repository';
import { createUsersRepository } from './users.repository';

export { toPublicUser, type UserWithRoles } from './users.repository';

/**
 * The four identity repositories (users, roles, companies, tokens) as one object, for code that needs
 * several of them (start-up, test factories). Services take only the repositories they use.
 */
export function createIdentityRepository(db: Executor) {
  return {
    ...createUsersRepository(db),
    ...createRolesRepository(db),
    ...createCompaniesRepository(db),
    ...createTokensRepository(db),
  };
}

export type IdentityRepository = ReturnType<typeof createIdentityRepository>;
