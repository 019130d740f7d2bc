import type { Executor } from '../../db/transactions';

/** Companies (tenants): looked up on their own by every module that works per company. */
export function createCompaniesRepository(db: Executor) {
  return {
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
  };
}

export type CompaniesRepository = ReturnType<typeof createCompaniesRepository>;
