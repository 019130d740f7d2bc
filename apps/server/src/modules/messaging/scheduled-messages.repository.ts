import { MESSAGE_STATUS, type Message } from '@hablabot/contract';
import { type UpdateObject, sql } from 'kysely';
import type { DB } from '../../db/schema';
import type { Executor } from '../../db/transactions';
import { recordStatus } from './message-authorship';
import { createMessagePresenter, now } from './message-rows';

/**
 * Changes to scheduled messages (status 5): each only while the message is still scheduled, so a send
 * that started, an edit and a cancel never overlap. Part of the messages repository.
 */
export function createScheduledUpdates(db: Executor) {
  const { presentOne } = createMessagePresenter(db);

  async function updateScheduled(
    companyId: number,
    id: number,
    changes: UpdateObject<DB, 'messages'>,
  ): Promise<Message | undefined> {
    const row = await db
      .updateTable('messages')
      .set({ updated_at: now(), ...changes })
      .where('company_id', '=', companyId)
      .where('id', '=', id)
      .where('status', '=', MESSAGE_STATUS.scheduled)
      .returningAll()
      .executeTakeFirst();
    return presentOne(companyId, row);
  }

  return {
    /** A scheduled message's new text (and what WhatsApp will be asked) and/or time. */
    editScheduled(
      companyId: number,
      id: number,
      change: { content?: string; outboundRequest?: string; scheduledAt?: string },
    ): Promise<Message | undefined> {
      return updateScheduled(companyId, id, {
        ...(change.content !== undefined ? { content: change.content } : {}),
        ...(change.outboundRequest !== undefined ? { outbound_request: change.outboundRequest } : {}),
        ...(change.scheduledAt !== undefined ? { scheduled_at: change.scheduledAt } : {}),
      });
    },

    /**
     * Its time came: the message becomes pending (about to be sent), dated now, so the chat shows when
     * it went out. Undefined when it is no longer scheduled.
     */
    async startScheduled(companyId: number, id: number): Promise<Message | undefined> {
      const at = now();
      const started = await updateScheduled(companyId, id, {
        status: MESSAGE_STATUS.pending,
        created_at: at,
        status_at: at,
      });
      if (started) await recordStatus(db, started.id, { status: 'pending', at });
      return started;
    },

    /** Its time came but it may not go out: not sent (status 4), with the reason. */
    async failScheduled(
      companyId: number,
      id: number,
      error: { code: number | null; message: string },
    ): Promise<Message | undefined> {
      const at = now();
      const failed = await updateScheduled(companyId, id, {
        status: MESSAGE_STATUS.failed,
        error_code: error.code,
        error_message: error.message,
        status_at: at,
      });
      if (failed)
        await recordStatus(db, failed.id, {
          status: 'failed',
          at,
          errorCode: error.code,
          errorTitle: error.message,
        });
      return failed;
    },

    /**
     * Cancels a scheduled message: its row and status history go, and its conversation counts one message
     * less. The client it belonged to, or undefined when it was not scheduled (or not the company's).
     */
    async deleteScheduled(companyId: number, id: number): Promise<{ clientId: number } | undefined> {
      const row = await db
        .selectFrom('messages')
        .select(['id', 'client_id'])
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .where('status', '=', MESSAGE_STATUS.scheduled)
        .executeTakeFirst();
      if (!row) return undefined;
      await db.deleteFrom('message_statuses').where('message_id', '=', id).execute();
      const deleted = await db
        .deleteFrom('messages')
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .where('status', '=', MESSAGE_STATUS.scheduled)
        .executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) return undefined;
      await db
        .updateTable('conversations')
        .set({ messages_count: sql`case when messages_count > 0 then messages_count - 1 else 0 end` })
        .where('company_id', '=', companyId)
        .where('client_id', '=', row.client_id)
        .execute();
      return { clientId: row.client_id };
    },
  };
}
