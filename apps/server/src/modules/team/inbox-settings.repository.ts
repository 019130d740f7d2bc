import { DEFAULT_INBOX_SETTINGS, type InboxSettings } from '@hablabot/contract';
import { prepared } from '../../db/prepared';
import type { Executor } from '../../db/transactions';

const now = () => new Date().toISOString();

const COLUMNS = [
  'agents_see_all',
  'auto_assign',
  'agent_capacity',
  'opt_out_keywords',
  'opt_in_keywords',
  'opt_out_reply',
  'handoff_phrases',
  'handoff_message',
] as const;

/** The company's stored settings: read for every customer message (consent, hand-off, auto-assign). */
const settingsRow = prepared((db, v: { companyId: number }) =>
  db.selectFrom('inbox_settings').select(COLUMNS).where('company_id', '=', v.companyId),
);

/** A list column (JSON array of text) as read; anything unreadable is the default list. */
function readList(json: string, fallback: string[]): string[] {
  try {
    const value: unknown = JSON.parse(json);
    if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value;
  } catch {
    // falls through to the default
  }
  return [...fallback];
}

/**
 * A company's inbox settings; a company that never saved them has the defaults. The word lists are
 * stored as JSON arrays of text.
 */
export function createInboxSettingsRepository(db: Executor) {
  return {
    async get(companyId: number): Promise<InboxSettings> {
      const [row] = (await settingsRow(db, { companyId })).rows;
      const d = DEFAULT_INBOX_SETTINGS;
      if (!row)
        return {
          ...d,
          opt_out_keywords: [...d.opt_out_keywords],
          opt_in_keywords: [...d.opt_in_keywords],
          handoff_phrases: [...d.handoff_phrases],
        };
      return {
        agents_see_all: row.agents_see_all === 1,
        auto_assign: row.auto_assign === 1,
        agent_capacity: row.agent_capacity,
        opt_out_keywords: readList(row.opt_out_keywords, d.opt_out_keywords),
        opt_in_keywords: readList(row.opt_in_keywords, d.opt_in_keywords),
        opt_out_reply: row.opt_out_reply,
        handoff_phrases: readList(row.handoff_phrases, d.handoff_phrases),
        handoff_message: row.handoff_message,
      };
    },

    /** Saves the fields given, the others keeping their value; answers the settings as saved. */
    async save(companyId: number, change: Partial<InboxSettings>): Promise<InboxSettings> {
      const next = { ...(await this.get(companyId)), ...change };
      const values = {
        agents_see_all: next.agents_see_all ? 1 : 0,
        auto_assign: next.auto_assign ? 1 : 0,
        agent_capacity: next.agent_capacity,
        opt_out_keywords: JSON.stringify(next.opt_out_keywords),
        opt_in_keywords: JSON.stringify(next.opt_in_keywords),
        opt_out_reply: next.opt_out_reply,
        handoff_phrases: JSON.stringify(next.handoff_phrases),
        handoff_message: next.handoff_message,
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
