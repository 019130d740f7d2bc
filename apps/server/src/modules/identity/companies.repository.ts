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

    /** Creates a company with no users and no settings yet; answers it as it reads back. */
    async createCompany(name: string) {
      const at = new Date().toISOString();
      return db
        .insertInto('companies')
        .values({ name, created_at: at, updated_at: at })
        .returning(['id', 'name', 'created_at'])
        .executeTakeFirstOrThrow();
    },

    /** Renames a company; false when it does not exist. */
    async renameCompany(id: number, name: string) {
      const result = await db
        .updateTable('companies')
        .set({ name, updated_at: new Date().toISOString() })
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}

export type CompaniesRepository = ReturnType<typeof createCompaniesRepository>;
