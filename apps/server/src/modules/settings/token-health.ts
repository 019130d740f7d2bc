import type { Kysely } from 'kysely';
import type { Executor } from '../../db/transactions';
import type { DB } from '../../db/schema';
import type { Outbox } from '../../platform/outbox/outbox';

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
 *
 * A change of the column (set, or cleared) writes `channel.token_changed` to the outbox in the same
 * transaction, so the admins' screens show or hide the token banner live (modules/realtime/channel-events.ts);
 * a call that changes nothing (already refused, already fine) writes no event.
 */
export function createTokenHealth(deps: {
  db: Kysely<DB>;
  /** Where a change writes its `channel.token_changed` event (none: the column alone, as in unit tests). */
  outbox?: Pick<Outbox, 'transaction'>;
  now?: () => number;
  okCacheMs?: number;
}) {
  const { db } = deps;
  const clock = deps.now ?? Date.now;
  const okCacheMs = deps.okCacheMs ?? TOKEN_OK_CACHE_MS;
  /** Companies whose token this process last saw accepted, with when it was checked. */
  const knownOk = new Map<number, number>();

  /** Sets or clears the mark when it is not so already; with the event when a row changed. */
  async function mark(companyId: number, refused: boolean): Promise<void> {
    const write = async (executor: Executor) => {
      const result = await executor
        .updateTable('channels')
        .set({ token_refused_at: refused ? new Date(clock()).toISOString() : null })
        .where('company_id', '=', companyId)
        .where('token_refused_at', refused ? 'is' : 'is not', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    };
    if (!deps.outbox) {
      await write(db);
      return;
    }
    await deps.outbox.transaction(async (trx, events) => {
      if (await write(trx)) events.emit('channel.token_changed', { companyId, refused });
    });
  }

  return {
    /** WhatsApp refused the company's stored token (190). */
    async refused(companyId: number): Promise<void> {
      knownOk.delete(companyId);
      await mark(companyId, true);
    },

    /** WhatsApp accepted a call made with the company's stored token. */
    async accepted(companyId: number): Promise<void> {
      const checked = knownOk.get(companyId);
      if (checked !== undefined && clock() - checked < okCacheMs) return;
      await mark(companyId, false);
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

    /** What GET /admin/setting says of the connection now (`whatsapp_status`), with the refusal's time. */
    async status(
      companyId: number,
    ): Promise<{ whatsapp_status: WhatsAppStatus; whatsapp_token_refused_at: string | null }> {
      const row = await db
        .selectFrom('channels')
        .select(['token_refused_at', 'access_token_enc', 'phone_number_id'])
        .where('company_id', '=', companyId)
        .executeTakeFirst();
      const refusedAt = row?.token_refused_at ?? null;
      return {
        whatsapp_status:
          !row?.access_token_enc || !row.phone_number_id
            ? 'not_configured'
            : refusedAt
              ? 'token_invalid'
              : 'ok',
        whatsapp_token_refused_at: refusedAt,
      };
    },
  };
}

export type TokenHealth = ReturnType<typeof createTokenHealth>;

/** The same calls for a caller that may have none (a test wiring a module by itself). */
export const noTokenHealth: Pick<TokenHealth, 'refused' | 'accepted'> = {
  refused: async () => {},
  accepted: async () => {},
};
