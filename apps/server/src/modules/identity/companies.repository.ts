import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';

/** Companies (tenants): looked up on their own by every module that works per company. */
export function createCompaniesRepository(db: Kysely<DB>) {
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
