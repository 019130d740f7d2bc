import type { AdminHomeRepository } from './admin-home.repository';

/** The admin home's figures. Today starts at midnight UTC, as the super admin's figures count days. */
export function createAdminHomeService(deps: {
  repository: AdminHomeRepository;
  /** The current time; tests pass a fixed one. */
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  return {
    async summary(companyId: number) {
      const at = now();
      const dayStart = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
      return deps.repository.summary(companyId, dayStart.toISOString());
    },
  };
}

export type AdminHomeService = ReturnType<typeof createAdminHomeService>;
