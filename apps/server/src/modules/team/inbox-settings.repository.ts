import { DEFAULT_INBOX_SETTINGS, type InboxSettings } from '@hablabot/contract';
import type { Executor } from '../../db/transactions';

const now = () => new Date().toISOString();

/** A company's inbox settings; a company that never saved them has the defaults. */
export function createInboxSettingsRepository(db: Executor) {
  return {
    async get(companyId: number): Promise<InboxSettings> {
      const row = await db
        .selectFrom('inbox_settings')
        .select(['agents_see_all', 'auto_assign', 'agent_capacity'])
        .where('company_id', '=', companyId)
        .executeTakeFirst();
      if (!row) return { ...DEFAULT_INBOX_SETTINGS };
      return {
        agents_see_all: row.agents_see_all === 1,
        auto_assign: row.auto_assign === 1,
        agent_capacity: row.agent_capacity,
      };
    },

    /** Saves the fields given, the others keeping their value; answers the settings as saved. */
    async save(companyId: number, change: Partial<InboxSettings>): Promise<InboxSettings> {
      const next = { ...(await this.get(companyId)), ...change };
      const values = {
        agents_see_all: next.agents_see_all ? 1 : 0,
        auto_assign: next.auto_assign ? 1 : 0,
        agent_capacity: next.agent_capacity,
      };
      const at = now();
      await db
        .insertInto('inbox_settings')
        .values({ company_id: companyId, ...values, created_at: at, updated_at: at })
        .onConflict((oc) => oc.column('company_id').doUpdateSet({ ...values, updated_at: at }))
        .execute();
      return next;
    },
  };
}

export type InboxSettingsRepository = ReturnType<typeof createInboxSettingsRepository>;
