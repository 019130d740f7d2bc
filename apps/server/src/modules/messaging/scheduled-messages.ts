import { DEFAULT_LANGUAGE, MESSAGE_STATUS, type Message } from '@hablabot/contract';
import { z } from 'zod';
import { textContent } from '../../integrations/whatsapp/cloud-api';
import { conflict, invalid, notFound } from '../../platform/errors';
import { defineJob } from '../../platform/jobs/definitions';
import type { JobQueue } from '../../platform/jobs/jobs';
import { translate } from '../../platform/locale';
import type { TransactionScope, WithTransaction } from '../../repositories';
import type { ClientsRepository } from '../clients/clients.repository';
import type { MessagesRepository } from './messages.repository';
import { type Outgoing, type OutboundRequest, insertOutgoing } from './outgoing-message';
import { CUSTOMER_WINDOW_MS, type OutboundLog, type SendOutcome } from './send-outcome';

declare module '../../platform/jobs/jobs' {
  interface JobPayloads {
    /** A scheduled message whose time came; `sendAt` is the time it was queued for. */
    'messaging.scheduled-send': { companyId: number; messageId: number; sendAt: string };
  }
}

/**
 * The code a scheduled free text message fails with when the customer's 24-hour window had closed at its
 * time: WhatsApp's own code for that refusal, so the chat explains it the same way (send a template).
 */
export const WINDOW_CLOSED_CODE = 131047;

/**
 * Messages sent later ('Programar envío': `send_at` on POST /admin/message and the template send). A
 * scheduled message is stored at once in its conversation with status 5 and its time (`scheduled_at`),
 * and a delayed job (database queue or BullMQ alike, so it
 * survives restarts) carries the same time. While scheduled it is not in the history's pages: page 1
 * lists it apart, below the conversation. At that time it takes its place in the conversation as a new
 * row (new id, dated then; the history is paged by id) and the job sends it through the outbound path as
 * any message — unless it is free text and the customer's 24-hour window has closed: then it is marked
 * not sent with an explanation suggesting a template. Until then it may be edited (its text, its time:
 * a new job is queued and the old one, finding another time, does nothing) or cancelled (its row goes).
 */
export function createScheduledMessages(deps: {
  withTransaction: WithTransaction;
  messagesRepository: MessagesRepository;
  clientsRepository: ClientsRepository;
  jobs: JobQueue;
  log: OutboundLog;
  /** One try of a stored pending message (the outbound service's). */
  attempt(
    companyId: number,
    message: Message,
    request: OutboundRequest,
    tryNumber: number,
  ): Promise<SendOutcome>;
  /** An admin's message pauses the bot for that client (the outbound service's rule). */
  takeOver(tx: TransactionScope, companyId: number, clientId: number): Promise<void>;
}) {
  const { withTransaction, messagesRepository, clientsRepository, jobs } = deps;

  /** Queues the send of a scheduled message for its time. */
  async function queue(companyId: number, messageId: number, sendAt: string): Promise<void> {
    await jobs.enqueue(
      'messaging.scheduled-send',
      { companyId, messageId, sendAt },
      { delayMs: Math.max(0, Date.parse(sendAt) - Date.now()), attempts: 1 },
    );
  }

  async function requestOf(companyId: number, message: Message): Promise<OutboundRequest> {
    const raw = await messagesRepository.findOutboundRequest(companyId, message.id);
    return raw ? JSON.parse(raw) : { content: textContent(message.content) };
  }

  async function windowOpen(companyId: number, clientId: number): Promise<boolean> {
    const last = await clientsRepository.lastCustomerMessageAt(companyId, clientId);
    return last !== null && Date.now() - Date.parse(last) <= CUSTOMER_WINDOW_MS;
  }

  /** A scheduled message of the company; 404 when not found, 409 once it is no longer scheduled. */
  async function scheduledOf(companyId: number, id: number): Promise<Message> {
    const message = await messagesRepository.findMessage(companyId, id);
    if (!message) throw notFound('messaging.message_not_found');
    if (message.status !== MESSAGE_STATUS.scheduled) throw conflict('messaging.not_scheduled');
    return message;
  }

  /** The job: sends the message if it is still scheduled for this time. */
  async function run(payload: { companyId: number; messageId: number; sendAt: string }): Promise<void> {
    const { companyId, messageId } = payload;
    const message = await messagesRepository.findMessage(companyId, messageId);
    // Cancelled, already handled, or moved to another time (whose own job will come).
    if (!message || message.status !== MESSAGE_STATUS.scheduled) return;
    if (message.scheduled_at && Date.parse(message.scheduled_at) !== Date.parse(payload.sendAt)) return;
    const request = await requestOf(companyId, message);
    const clientId = message.client_id;
    // Either way it now takes its place in the conversation (a new row, see `placeScheduled`): the chat
    // hears the scheduled one leave and the new one arrive.
    if (request.content.type !== 'template' && !(await windowOpen(companyId, clientId))) {
      await withTransaction(async (tx) => {
        const placed = await tx.messagesRepository.placeScheduled(companyId, messageId, {
          status: 'failed',
          code: WINDOW_CLOSED_CODE,
          message: translate(DEFAULT_LANGUAGE, 'messaging.scheduled_window_closed'),
        });
        if (placed) moved(tx, companyId, clientId, placed);
      });
      return;
    }
    // Now it is an ordinary message on its way: the chat list's last message, the bot's pause, then a try.
    const started = await withTransaction(async (tx) => {
      const placed = await tx.messagesRepository.placeScheduled(companyId, messageId, { status: 'pending' });
      if (!placed) return undefined;
      const pending = placed.message;
      await tx.clientsRepository.noteOutgoingMessage(companyId, clientId, {
        content: pending.content,
        date: pending.created_at,
      });
      moved(tx, companyId, clientId, placed);
      tx.events.emit('conversation.updated', { companyId, clientId, changed: ['last_message'] });
      await deps.takeOver(tx, companyId, clientId);
      return pending;
    });
    if (started) await deps.attempt(companyId, started, request, 1);
  }

  /** The scheduled row left and its new row arrived: what the chat hears. */
  function moved(
    tx: TransactionScope,
    companyId: number,
    clientId: number,
    placed: { message: Message; replacedId: number },
  ): void {
    tx.events.emit('message.deleted', { companyId, clientId, messageId: placed.replacedId });
    tx.events.emit('message.sent', { companyId, clientId, messageId: placed.message.id });
  }

  return {
    /**
     * Stores a message to send at `sendAt` (status 5) and queues its job. The chat hears of it at once;
     * the chat list's last message and the bot's pause wait for its time (`run`).
     */
    async store(companyId: number, out: Outgoing, sendAt: string): Promise<SendOutcome> {
      const message = await withTransaction(async (tx) => {
        const row = await insertOutgoing(tx, companyId, { ...out, stored: { ...out.stored, sendAt } });
        tx.events.emit('message.sent', { companyId, clientId: out.clientId, messageId: row.id });
        return row;
      });
      await queue(companyId, message.id, sendAt);
      return { message, outcome: 'scheduled' };
    },

    /** The scheduled send, as its job definition (never run twice: a crash leaves it pending, not doubled). */
    job: defineJob({
      name: 'messaging.scheduled-send',
      schema: z.object({ companyId: z.number().int(), messageId: z.number().int(), sendAt: z.string() }),
      handler: run,
      options: { atMostOnce: true },
    }),

    /**
     * Changes a scheduled message: its text (free text only; a template or a file keeps what it sends)
     * and/or its time. 404 when it is not the company's, 409 once it is no longer scheduled.
     */
    async update(
      companyId: number,
      id: number,
      change: { content?: string; sendAt?: string },
    ): Promise<Message> {
      const message = await scheduledOf(companyId, id);
      let outboundRequest: string | undefined;
      if (change.content !== undefined) {
        const request = await requestOf(companyId, message);
        if (request.content.type !== 'text') throw invalid('content', 'messaging.scheduled_content_fixed');
        outboundRequest = JSON.stringify({ ...request, content: textContent(change.content) });
      }
      const edited = await withTransaction(async (tx) => {
        const row = await tx.messagesRepository.editScheduled(companyId, id, {
          content: change.content,
          outboundRequest,
          scheduledAt: change.sendAt,
        });
        if (row) tx.events.emit('message.updated', { companyId, clientId: row.client_id, messageId: id });
        return row;
      });
      if (!edited) throw conflict('messaging.not_scheduled');
      if (change.sendAt) await queue(companyId, id, change.sendAt);
      return edited;
    },

    /** Cancels a scheduled message (it leaves the conversation). 404 / 409 as `update`. */
    async cancel(companyId: number, id: number): Promise<void> {
      await scheduledOf(companyId, id);
      const done = await withTransaction(async (tx) => {
        const deleted = await tx.messagesRepository.deleteScheduled(companyId, id);
        if (deleted)
          tx.events.emit('message.deleted', { companyId, clientId: deleted.clientId, messageId: id });
        return deleted;
      });
      if (!done) throw conflict('messaging.not_scheduled');
    },
  };
}

export type ScheduledMessages = ReturnType<typeof createScheduledMessages>;
