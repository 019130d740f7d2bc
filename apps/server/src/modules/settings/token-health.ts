import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';

/** What the admin screens say about a company's WhatsApp connection (GET /admin/setting). */
export type WhatsAppStatus = 'ok' | 'token_invalid' | 'not_configured';

/** How long a token known to work is not written again after each accepted call (per process). */
export const TOKEN_OK_CACHE_MS = 30_000;

/**
 * Whether WhatsApp accepts a company's access token, as its last calls showed: a 190 (expired or
 * revoked) on any call — a send, the templates' sync, a connection test, a media download — marks the
 * channel (`token_refused_at`); a call WhatsApp accepted with the stored token clears it. Accepted calls
 * are many (a mass send makes hundreds a second), so a token known to work is written again at most every
 * `TOKEN_OK_CACHE_MS` per process; a refusal is always written.
 */
export function createTokenHealth(deps: { db: Kysely<DB>; now?: () => number; okCacheMs?: number }) {
  const { db } = deps;
  const clock = deps.now ?? Date.now;
  const okCacheMs = deps.okCacheMs ?? TOKEN_OK_CACHE_MS;
  /** Companies whose token this process last saw accepted, with when it was checked. */
  const knownOk = new Map<number, number>();

  return {
    /** WhatsApp refused the company's stored token (190). */
    async refused(companyId: number): Promise<void> {
      knownOk.delete(companyId);
      await db
        .updateTable('channels')
        .set({ token_refused_at: new Date(clock()).toISOString() })
        .where('company_id', '=', companyId)
        .where('token_refused_at', 'is', null)
        .execute();
    },

    /** WhatsApp accepted a call made with the company's stored token. */
    async accepted(companyId: number): Promise<void> {
      const checked = knownOk.get(companyId);
      if (checked !== undefined && clock() - checked < okCacheMs) return;
      await db
        .updateTable('channels')
        .set({ token_refused_at: null })
        .where('company_id', '=', companyId)
        .where('token_refused_at', 'is not', null)
        .execute();
      knownOk.set(companyId, clock());
    },

    /** When WhatsApp last refused the company's token; null while it works (or there is no channel). */
    async refusedAt(companyId: number): Promise<string | null> {
      const row = await db
        .selectFrom('channels')
        .select('token_refused_at')
        .where('company_id', '=', companyId)
        .executeTakeFirst();
      return row?.token_refused_at ?? null;
    },
  };
}

export type TokenHealth = ReturnType<typeof createTokenHealth>;

/** The same calls for a caller that may have none (a test wiring a module by itself). */
export const noTokenHealth: Pick<TokenHealth, 'refused' | 'accepted'> = {
  refused: async () => {},
  accepted: async () => {},
};
