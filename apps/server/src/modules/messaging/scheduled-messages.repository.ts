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
  const { present, presentOne } = createMessagePresenter(db);

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

  /** The conversation counts one message less (a scheduled row that left). */
  async function uncount(companyId: number, clientId: number): Promise<void> {
    await db
      .updateTable('conversations')
      .set({ messages_count: sql`case when messages_count > 0 then messages_count - 1 else 0 end` })
      .where('company_id', '=', companyId)
      .where('client_id', '=', clientId)
      .execute();
  }

  return {
    /**
     * The client's messages still scheduled, by their time (then id): the history shows them apart,
     * below the conversation. Read from the partial index of scheduled messages alone.
     */
    async listScheduled(companyId: number, clientId: number): Promise<Message[]> {
      const rows = await db
        .selectFrom('messages')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('client_id', '=', clientId)
        .where('status', '=', MESSAGE_STATUS.scheduled)
        .orderBy('scheduled_at')
        .orderBy('id')
        .execute();
      return present(companyId, rows);
    },

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
     * Its time came: the message takes its place in the conversation at this moment, as a new row (a new
     * id, dated now) that replaces the scheduled one — pending when it goes out, not sent (status 4, with
     * the reason) when it may not. The history is paged by id, so only a new id puts it after what the
     * customer wrote since it was scheduled. Its status history moves with it (it starts with
     * 'scheduled'); nothing else refers to a scheduled message (it has no wamid, so nothing quotes it),
     * and the conversation's count stays the same. The old row is locked first, so an edit or a cancel at
     * the same moment waits and then finds it gone. Undefined when it is no longer scheduled.
     */
    async placeScheduled(
      companyId: number,
      id: number,
      outcome: { status: 'pending' } | { status: 'failed'; code: number | null; message: string },
    ): Promise<{ message: Message; replacedId: number } | undefined> {
      const at = now();
      const failed = outcome.status === 'failed';
      const changes = {
        status: failed ? MESSAGE_STATUS.failed : MESSAGE_STATUS.pending,
        error_code: failed ? outcome.code : null,
        error_message: failed ? outcome.message : null,
        status_at: at,
        created_at: at,
        updated_at: at,
      };
      const old = await db
        .updateTable('messages')
        .set(changes)
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .where('status', '=', MESSAGE_STATUS.scheduled)
        .returningAll()
        .executeTakeFirst();
      if (!old) return undefined;
      const { id: _old, ...columns } = old;
      const row = await db.insertInto('messages').values(columns).returningAll().executeTakeFirstOrThrow();
      await db
        .updateTable('message_statuses')
        .set({ message_id: row.id })
        .where('message_id', '=', id)
        .execute();
      await db.updateTable('messages').set({ reply_to_id: row.id }).where('reply_to_id', '=', id).execute();
      await db.deleteFrom('messages').where('company_id', '=', companyId).where('id', '=', id).execute();
      // The new row's insert counted one more message; the old one left.
      await uncount(companyId, row.client_id);
      await recordStatus(db, row.id, {
        status: failed ? 'failed' : 'pending',
        at,
        errorCode: changes.error_code,
        errorTitle: changes.error_message,
      });
      const message = await presentOne(companyId, row);
      return message ? { message, replacedId: id } : undefined;
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
      await uncount(companyId, row.client_id);
      return { clientId: row.client_id };
    },
  };
}
