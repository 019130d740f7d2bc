import { MESSAGE_STATUS, type Message, type MessageSender } from '@hablabot/contract';
import {
  type CloudApiClient,
  type OutgoingContent,
  type SendResult,
  templateContent,
  textContent,
} from '../../integrations/whatsapp/cloud-api';
import type { Metrics } from '../../platform/metrics';
import { invalid, notFound } from '../../platform/errors';
import type { JobQueue } from '../../platform/jobs/jobs';
import type { ClientsRepository } from '../clients/clients.repository';
import type { TransactionScope, WithTransaction } from '../../repositories';
import { assertResendable, type MessagesRepository } from './messages.repository';
import { sendJobs } from './outbound.jobs';
import { createStaleSweeper } from './outbound-sweeper';
import { type Outgoing, insertOutgoing, outgoingOf } from './outgoing-message';
import { createScheduledMessages } from './scheduled-messages';
import {
  CUSTOMER_WINDOW_MS,
  type OutboundContent,
  type OutboundLog,
  type OutboundRetryOptions,
  type SendFailure,
  type SendOutcome,
  retryWait,
} from './send-outcome';

export * from './send-outcome';

const silent: OutboundLog = { warn() {}, error() {} };

/**
 * Sending messages to customers on WhatsApp: every message is stored first (pending), then sent, then
 * stored as sent with its wamid or as not sent (status 4) with WhatsApp's reason, and the chat is told by
 * live events. Failures that may pass (rate limits, an outage, WhatsApp unreachable before anything went
 * out) are tried again by a job with growing waits; a send whose answer never came is not repeated, since
 * WhatsApp may have delivered it. An admin's message pauses the bot for that client.
 */
export function createOutboundService(deps: {
  clientsRepository: ClientsRepository;
  messagesRepository: MessagesRepository;
  cloudApi: CloudApiClient;
  jobs: JobQueue;
  withTransaction: WithTransaction;
  retry?: OutboundRetryOptions;
  log?: OutboundLog;
  /** Counts each send WhatsApp accepted or refused, by who sent it. */
  metrics?: Pick<Metrics, 'sent'>;
}) {
  const { clientsRepository, messagesRepository, cloudApi, jobs, withTransaction } = deps;
  const attempts = Math.max(1, deps.retry?.attempts ?? 4);
  const backoffMs = deps.retry?.backoffMs ?? 1000;
  const log = deps.log ?? silent;

  /** A status change of a conversation's message and its event, in one transaction. */
  function changeStatus(
    companyId: number,
    change: (tx: TransactionScope) => Promise<Message | undefined>,
  ): Promise<Message | undefined> {
    return withTransaction(async (tx) => {
      const changed = await change(tx);
      if (changed)
        tx.events.emit('message.status_changed', {
          companyId,
          clientId: changed.client_id,
          messageId: changed.id,
          status: changed.status,
        });
      return changed;
    });
  }

  async function clientOf(companyId: number, clientId: number) {
    const client = await clientsRepository.findClient(companyId, clientId);
    if (!client) throw notFound('clients.not_found');
    return client;
  }

  /** 422 unless the customer wrote within the last 24 hours (free text and media only). */
  async function assertWindowOpen(companyId: number, clientId: number) {
    const last = await clientsRepository.lastCustomerMessageAt(companyId, clientId);
    if (last === null) throw invalid('content', 'messaging.no_customer_message');
    if (Date.now() - Date.parse(last) > CUSTOMER_WINDOW_MS)
      throw invalid('content', 'messaging.window_closed');
  }

  /** An admin wrote: the bot stops answering this client until it is switched back on. */
  async function takeOver(tx: TransactionScope, companyId: number, clientId: number, sender: MessageSender) {
    if (sender !== 'admin') return;
    if (await tx.clientsRepository.pauseBot(companyId, clientId))
      tx.events.emit('conversation.updated', { companyId, clientId, changed: ['bot_mode'] });
  }

  async function fail(companyId: number, message: Message, failure: SendFailure): Promise<SendOutcome> {
    const failed = await changeStatus(companyId, (tx) =>
      tx.messagesRepository.markFailed(companyId, message.id, failure),
    );
    deps.metrics?.sent(message.sender_type, 'failed');
    return { message: failed ?? message, outcome: 'failed', failure };
  }

  /**
   * One try of a stored pending message. Sent: the wamid is kept. Refused for now: another try is queued
   * while tries are left. Otherwise: status 4 with the reason.
   */
  async function attempt(
    companyId: number,
    message: Message,
    request: { content: OutgoingContent; contextWamid?: string },
    tryNumber: number,
  ): Promise<SendOutcome> {
    let result: SendResult;
    try {
      result = await cloudApi.send(companyId, message.phone, request.content, request.contextWamid);
    } catch (err) {
      // Settings could not be read, or a bug: nothing is known to have gone out.
      log.error({ err, companyId, messageId: message.id }, 'whatsapp send failed unexpectedly');
      return fail(companyId, message, {
        code: null,
        message: 'The message could not be sent',
        kind: 'whatsapp',
      });
    }
    if (result.ok) {
      const sent = await changeStatus(companyId, (tx) =>
        tx.messagesRepository.markSent(companyId, message.id, result.wamid),
      );
      deps.metrics?.sent(message.sender_type, 'sent');
      return { message: sent ?? message, outcome: 'sent' };
    }
    const code = result.code === 0 ? null : result.code;
    if (result.transient && !result.unconfirmed && tryNumber < attempts) {
      try {
        await jobs.enqueue(
          'messaging.send-retry',
          { companyId, messageId: message.id, attempt: tryNumber + 1 },
          { delayMs: retryWait(backoffMs, tryNumber, result.code), attempts: 1 },
        );
        log.warn(
          { companyId, messageId: message.id, code: result.code, attempt: tryNumber },
          'whatsapp refused the message for now; retrying',
        );
        return { message, outcome: 'retrying' };
      } catch (err) {
        log.error({ err, companyId, messageId: message.id }, 'send retry could not be queued');
      }
    }
    const kind: SendFailure['kind'] = result.unconfirmed
      ? 'unconfirmed'
      : code === null && !result.transient && /not configured/.test(result.message)
        ? 'not_configured'
        : 'whatsapp';
    return fail(companyId, message, { code, message: result.message, kind });
  }

  /**
   * Stores an outgoing message as pending, tells the chat, and sends it (first try); one with a time to
   * send it at is kept for then instead (scheduled-messages.ts).
   */
  async function storeAndSend(companyId: number, out: Outgoing): Promise<SendOutcome> {
    if (out.stored.sendAt) return scheduled.store(companyId, out, out.stored.sendAt);
    const { clientId, sender } = out;
    // The message, the chat list's last message and the bot's pause are kept together, with their events.
    const message = await withTransaction(async (tx) => {
      const row = await insertOutgoing(tx, companyId, out);
      await tx.clientsRepository.noteOutgoingMessage(companyId, clientId, {
        content: out.stored.content,
        date: row.created_at,
      });
      tx.events.emit('message.sent', { companyId, clientId, messageId: row.id });
      await takeOver(tx, companyId, clientId, sender);
      return row;
    });
    return attempt(companyId, message, out.request, 1);
  }

  /**
   * The wamid of the message an agent answers: WhatsApp quotes a message by it. A message of another
   * conversation (or none) is a 422 on `reply_to_id`.
   */
  async function quotableWamid(companyId: number, clientId: number, messageId: number): Promise<string> {
    const quoted = await messagesRepository.findWamid(companyId, messageId);
    if (!quoted || quoted.clientId !== clientId)
      throw invalid('reply_to_id', 'messaging.reply_not_in_conversation');
    if (!quoted.wamid) throw invalid('reply_to_id', 'messaging.reply_not_quotable');
    return quoted.wamid;
  }

  async function retry(payload: { companyId: number; messageId: number; attempt: number }) {
    const { companyId, messageId } = payload;
    const message = await messagesRepository.findMessage(companyId, messageId);
    // Deleted, or already settled (sent, or failed and resent by hand): nothing to do.
    if (!message || message.status !== MESSAGE_STATUS.pending) return;
    const raw = await messagesRepository.findOutboundRequest(companyId, messageId);
    if (!raw) {
      await fail(companyId, message, { code: null, message: 'Nothing kept to send', kind: 'whatsapp' });
      return;
    }
    await attempt(companyId, message, JSON.parse(raw), payload.attempt);
  }

  const scheduled = createScheduledMessages({
    withTransaction,
    messagesRepository,
    clientsRepository,
    jobs,
    log,
    attempt,
    takeOver: (tx, companyId, clientId) => takeOver(tx, companyId, clientId, 'admin'),
  });
  const outboundJobs = [...sendJobs({ retry, cloudApi, log }), scheduled.job];

  const sweeper = createStaleSweeper({ messagesRepository, changeStatus });

  return {
    /** Its jobs: another try of a send, telling WhatsApp a chat was read, a scheduled send. */
    jobs: outboundJobs,
    /** Scheduled messages changed or cancelled before they go out (scheduled-messages.ts). */
    scheduled: { update: scheduled.update, cancel: scheduled.cancel },
    assertWindowOpen,
    sweepStale: sweeper.sweepStale,
    startSweeper: sweeper.startSweeper,

    /**
     * Sends text or a media to a client of the company, as an admin or the bot: 404 when the client is
     * not the company's, 422 when the customer has not written in the last 24 hours (WhatsApp refuses
     * free messages then; a template is needed). The stored message and how the send went.
     */
    async send(input: {
      companyId: number;
      clientId: number;
      sender: 'admin' | 'bot';
      content: string | OutboundContent;
      /** The customer's message this one answers. */
      contextWamid?: string;
      /** The agent writing (an admin's message). */
      authorUserId?: number;
      /** A message of the client this one answers, by id: 422 when it is not theirs or has no wamid. */
      replyToId?: number;
      /** A text the company sends on its own (AUTOMATIC_TEXT_TYPE), rather than an answer. */
      automatic?: boolean;
      /** Send it later (an agent's message): the window is checked at that time instead. */
      sendAt?: string;
    }): Promise<SendOutcome> {
      const { companyId, clientId, sender, sendAt } = input;
      const content: OutboundContent =
        typeof input.content === 'string' ? { type: 'text', text: input.content } : input.content;
      const client = await clientOf(companyId, clientId);
      if (!sendAt) await assertWindowOpen(companyId, clientId);
      const contextWamid = input.replyToId
        ? await quotableWamid(companyId, clientId, input.replyToId)
        : input.contextWamid;
      const { stored, request } = outgoingOf(content, { ...input, contextWamid });
      return storeAndSend(companyId, { clientId, sender, stored, request, phone: client.whatsapp_cellphone });
    },

    /**
     * Sends an approved template (allowed at any time, inside the 24-hour window or not). `content` is
     * the text the chat shows (the template with its parameters filled in). 404 when the client is not
     * the company's.
     */
    async sendTemplate(input: {
      companyId: number;
      clientId: number;
      template: { name: string; language: string };
      bodyParameters: string[];
      content: string;
      sender?: 'admin' | 'bot';
      /** More components (a media header, buttons), as WhatsApp takes them. */
      components?: unknown[];
      /** The agent sending it. */
      authorUserId?: number;
      /** Send it later, at this time (a template goes out whatever the window). */
      sendAt?: string;
    }): Promise<SendOutcome> {
      const { companyId, clientId } = input;
      const client = await clientOf(companyId, clientId);
      return storeAndSend(companyId, {
        clientId,
        sender: input.sender ?? 'admin',
        stored: { ...input, messageType: 'text', waType: 'template' },
        request: { content: templateContent(input.template, input.bodyParameters, input.components) },
        phone: client.whatsapp_cellphone,
      });
    },

    /**
     * Sends a not-sent (status 4) message of the client again, as it was first asked (same row, back to
     * pending). 404 when the message is not the company's client's; 422 when it is not status 4, or when
     * it is free text and the 24-hour window has closed.
     */
    async resend(input: { companyId: number; clientId: number; messageId: number }): Promise<SendOutcome> {
      const { companyId, clientId, messageId } = input;
      await clientOf(companyId, clientId);
      const message = await messagesRepository.findMessage(companyId, messageId);
      if (!message || message.client_id !== clientId || message.sender_type === 'client')
        throw notFound('messaging.message_not_found');
      if (message.status !== MESSAGE_STATUS.failed) throw invalid('id', 'messaging.not_resendable');
      // The bot's note that it could not answer is not a message: there is nothing to send.
      assertResendable(message);
      const raw = await messagesRepository.findOutboundRequest(companyId, messageId);
      const request: { content: OutgoingContent; contextWamid?: string } = raw
        ? JSON.parse(raw)
        : { content: textContent(message.content) };
      if (request.content.type !== 'template') await assertWindowOpen(companyId, clientId);
      const restarted = await changeStatus(companyId, async (tx) => {
        const again = await tx.messagesRepository.restartFailed(companyId, messageId);
        if (again) await takeOver(tx, companyId, clientId, 'admin');
        return again;
      });
      if (!restarted) throw invalid('id', 'messaging.not_resendable');
      return attempt(companyId, restarted, request, 1);
    },

    /** Tells WhatsApp, in a job, that the customer's messages up to this one were read. */
    async markReadLater(companyId: number, wamid: string): Promise<void> {
      await jobs.enqueue('messaging.mark-read', { companyId, wamid }, { attempts: 3, backoff: backoffMs });
    },
  };
}

export type OutboundService = ReturnType<typeof createOutboundService>;
