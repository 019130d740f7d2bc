import { MESSAGE_STATUS, type Message } from '@hablabot/contract';
import { type UpdateObject, type UpdateQueryBuilder, type UpdateResult, sql } from 'kysely';
import type { DB } from '../../db/schema';
import type { Executor } from '../../db/transactions';
import { recordStatus } from './message-authorship';
import {
  BOT_FAILURE_TYPE,
  STATUS_RANK,
  type StatusChange,
  createMessagePresenter,
  now,
  rankOfStored,
} from './message-rows';

/**
 * Changes to stored messages: their status (WhatsApp's reports, a send settled or restarted, each added
 * to the message's status history) and their media (fetched or not). Every function takes the company it
 * is scoped to; part of the messages repository (see createMessagesRepository).
 */
export function createMessageUpdates(db: Executor) {
  type MessagesUpdate = UpdateQueryBuilder<DB, 'messages', 'messages', UpdateResult>;
  const { presentOne } = createMessagePresenter(db);

  /** A customer's media download still pending: no file yet, not given up on. */
  const pendingMedia = (q: MessagesUpdate) =>
    q
      .where('media_storage_key', 'is', null)
      .where((eb) => eb.or([eb('media_status', 'is', null), eb('media_status', '=', 'pending')]));

  /** Adds the message's status, as it now is, to its history. */
  async function noteStatus(
    message: Message | undefined,
    error?: { code: number | null; title: string | null },
  ) {
    if (!message) return;
    await recordStatus(db, message.id, {
      status: message.status_name,
      at: now(),
      errorCode: error?.code,
      errorTitle: error?.title,
    });
  }

  /**
   * Changes one message of the company in one statement and returns it as it now is; `only` narrows
   * which message (by id, by wamid) and in which state it may be. Undefined when none matched.
   */
  async function updateOne(
    companyId: number,
    changes: UpdateObject<DB, 'messages'>,
    only: (query: MessagesUpdate) => MessagesUpdate,
  ): Promise<Message | undefined> {
    const row = await only(
      db
        .updateTable('messages')
        .set({ updated_at: now(), ...changes })
        .where('company_id', '=', companyId),
    )
      .returningAll()
      .executeTakeFirst();
    return presentOne(companyId, row);
  }

  return {
    /**
     * Moves the message with this wamid to the status when that is a step up (see STATUS_RANK), in one
     * statement, so two reports at once cannot move it backwards. Failed keeps WhatsApp's code and text;
     * any other status clears them. The message when it changed; undefined when the wamid is unknown or
     * the status is not a step up.
     */
    async applyStatus(companyId: number, wamid: string, change: StatusChange): Promise<Message | undefined> {
      const failed = change.status === MESSAGE_STATUS.failed;
      const changed = await updateOne(
        companyId,
        {
          status: change.status,
          error_code: failed ? (change.errorCode ?? null) : null,
          error_message: failed ? (change.errorMessage ?? null) : null,
          status_at: change.at,
        },
        (q) => q.where('wamid', '=', wamid).where(rankOfStored, '<', STATUS_RANK[change.status] ?? 0),
      );
      if (changed)
        await recordStatus(db, changed.id, {
          status: changed.status_name,
          at: change.at,
          errorCode: change.errorCode,
          errorTitle: change.errorTitle ?? change.errorMessage,
        });
      return changed;
    },

    /**
     * An outgoing message WhatsApp accepted: its wamid, and status sent unless a report already moved it
     * further. Undefined when the message is not the company's.
     */
    async markSent(companyId: number, id: number, wamid: string): Promise<Message | undefined> {
      const sent = await updateOne(
        companyId,
        {
          wamid,
          status: sql<number>`case when status = ${MESSAGE_STATUS.pending} then ${MESSAGE_STATUS.sent} else status end`,
          error_code: null,
          error_message: null,
          status_at: now(),
        },
        (q) => q.where('id', '=', id),
      );
      // A report that came first already moved it further and noted that step.
      if (sent?.status === MESSAGE_STATUS.sent) await noteStatus(sent);
      return sent;
    },

    /**
     * An outgoing message that could not be sent: status 4 with WhatsApp's code and text (or ours when
     * nothing answered). Only a pending message changes; undefined otherwise.
     */
    async markFailed(
      companyId: number,
      id: number,
      error: { code: number | null; message: string },
    ): Promise<Message | undefined> {
      const failed = await updateOne(
        companyId,
        {
          status: MESSAGE_STATUS.failed,
          error_code: error.code,
          error_message: error.message.slice(0, 2000),
          status_at: now(),
        },
        (q) => q.where('id', '=', id).where('status', '=', MESSAGE_STATUS.pending),
      );
      await noteStatus(failed, { code: error.code, title: error.message });
      return failed;
    },

    /**
     * Outgoing messages still pending that have not changed since `before`: a send whose process died
     * between storing the message and settling it. At most `limit`, oldest first.
     */
    async findStalePending(before: string, limit: number): Promise<{ id: number; company_id: number }[]> {
      return db
        .selectFrom('messages')
        .select(['id', 'company_id'])
        .where('status', '=', MESSAGE_STATUS.pending)
        .where('updated_at', '<', before)
        .orderBy('updated_at')
        .limit(limit)
        .execute();
    },

    /**
     * Puts a failed (status 4) message back to pending for another send, its error and old wamid cleared,
     * in one statement, so two resends at once start one send. Undefined when it is not failed.
     */
    async restartFailed(companyId: number, id: number): Promise<Message | undefined> {
      const restarted = await updateOne(
        companyId,
        {
          status: MESSAGE_STATUS.pending,
          wamid: null,
          error_code: null,
          error_message: null,
          status_at: now(),
        },
        (q) =>
          q
            .where('id', '=', id)
            .where('status', '=', MESSAGE_STATUS.failed)
            // A bot failure note is never sent (see assertResendable).
            .where('wa_type', '!=', BOT_FAILURE_TYPE),
      );
      await noteStatus(restarted);
      return restarted;
    },

    /**
     * Records the fetched file of a message (once: a message that already has one keeps it) and clears a
     * note of an earlier failure. The message, or undefined when nothing changed.
     */
    async setMediaStored(
      companyId: number,
      id: number,
      file: { storageKey: string; mimeType: string },
    ): Promise<Message | undefined> {
      return updateOne(
        companyId,
        {
          media_storage_key: file.storageKey,
          media_mime_type: file.mimeType,
          media_status: 'ready',
          error_message: null,
        },
        (q) => q.where('id', '=', id).where('media_storage_key', 'is', null),
      );
    },

    /**
     * Gives up on a customer's media: failed, with why in `error_message` (the message itself stays as it
     * was). Only a pending download fails, so two runs at once fail it once. Undefined when nothing changed.
     */
    async setMediaFailed(companyId: number, id: number, note: string): Promise<Message | undefined> {
      return updateOne(companyId, { media_status: 'failed', error_message: note }, (q) =>
        pendingMedia(q.where('id', '=', id)),
      );
    },

    /** Counts a try of a pending download that will be tried again; false when it is no longer pending. */
    async noteMediaTry(companyId: number, id: number, attempts: number): Promise<boolean> {
      const result = await pendingMedia(
        db
          .updateTable('messages')
          .set({ media_status: 'pending', media_attempts: attempts, updated_at: now() })
          .where('company_id', '=', companyId)
          .where('id', '=', id),
      ).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /**
     * Makes a failed download of a customer's media pending again, its tries counted from zero and its
     * note cleared, in one statement (two retries at once restart it once). Undefined when its media had
     * not failed.
     */
    async restartMedia(companyId: number, id: number): Promise<Message | undefined> {
      return updateOne(companyId, { media_status: 'pending', media_attempts: 0, error_message: null }, (q) =>
        q
          .where('id', '=', id)
          .where('sender_type', '=', 'client')
          .where('media_id', 'is not', null)
          .where('media_storage_key', 'is', null)
          .where('media_status', '=', 'failed'),
      );
    },
  };
}
