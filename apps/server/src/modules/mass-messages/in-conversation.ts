import { MESSAGE_STATUS } from '@hablabot/contract';
import type { Outbox } from '../../platform/outbox/outbox';
import {
  CAMPAIGN_BATCH_MAX,
  type CampaignMessage,
  insertCampaignMessages,
} from '../messaging/campaign-messages.repository';
import { createMessagesRepository } from '../messaging/messages.repository';
import type { MassMessagesRepository } from './mass-messages.repository';
import type { OnSent } from './recipient-request';

/** A recipient waiting for its batch, with the sender's promise to settle. */
interface Waiting {
  recipientId: number;
  message: CampaignMessage;
  done: () => void;
  failed: (err: unknown) => void;
}

/**
 * What a recipient of a mass message got shows in their conversation: the template as they read it, as the
 * company's message (author `campaign`; it does not pause the bot: only a person writing does), with the
 * send's wamid, so the statuses WhatsApp reports reach it too, and its status history from `sent`. It
 * becomes the client's last message in the chat list (`message.sent`), and keeps the template request, so
 * a resend from the chat sends the template again, never its text as free text. A status that came
 * before the message was kept went to the recipient only: it is copied over.
 *
 * Recipients are kept in batches, per company: the recipients accepted while a batch is written, or
 * within `gatherMs` of the first, are written together in one transaction (their messages, status
 * histories, conversations and events, a statement each), so a send at hundreds a second costs a few
 * statements per batch instead of several per recipient. The sender's promise for a recipient settles
 * when its batch committed, so a run that ends has every accepted recipient in its conversation.
 */
export function keepInConversation(deps: {
  outbox: Pick<Outbox, 'transaction'>;
  massMessagesRepository: Pick<MassMessagesRepository, 'reportedStatuses'>;
  /** How long the first recipient of a batch waits for others (20 ms by default; 0: the next turn). */
  gatherMs?: number;
}): OnSent {
  const { outbox, massMessagesRepository } = deps;
  const gatherMs = deps.gatherMs ?? 20;
  /** Per company: recipients waiting, and whether a batch of it is being written or about to be. */
  const companies = new Map<number, { waiting: Waiting[]; busy: boolean }>();

  async function write(companyId: number, batch: Waiting[]) {
    const kept = await outbox.transaction(async (trx, events) => {
      const rows = await insertCampaignMessages(
        trx,
        companyId,
        batch.map((w) => w.message),
      );
      for (const row of rows)
        events.emit('message.sent', { companyId, clientId: row.clientId, messageId: row.id });
      return rows;
    });
    if (!kept.length) return;
    const keptWamids = new Set(kept.map((k) => k.wamid));
    const ids = batch.filter((w) => keptWamids.has(w.message.wamid)).map((w) => w.recipientId);
    const caught = await massMessagesRepository.reportedStatuses(ids);
    if (!caught.length) return;
    const byId = new Map(batch.map((w) => [w.recipientId, w.message]));
    await outbox.transaction(async (trx, events) => {
      const messages = createMessagesRepository(trx);
      for (const c of caught) {
        const message = byId.get(c.id)!;
        const updated = await messages.applyStatus(companyId, message.wamid, {
          status: MESSAGE_STATUS[c.status as 'delivered' | 'read' | 'failed'],
          at: new Date().toISOString(),
          errorCode: c.error_code,
          errorMessage: c.error_message,
        });
        if (updated)
          events.emit('message.status_changed', {
            companyId,
            clientId: message.clientId,
            messageId: updated.id,
            status: updated.status,
          });
      }
    });
  }

  /** Writes the company's waiting recipients, a batch at a time, until none waits. */
  async function drain(companyId: number) {
    const state = companies.get(companyId)!;
    while (state.waiting.length) {
      const batch = state.waiting.splice(0, CAMPAIGN_BATCH_MAX);
      try {
        await write(companyId, batch);
        for (const w of batch) w.done();
      } catch (err) {
        for (const w of batch) w.failed(err);
      }
    }
    state.busy = false;
  }

  return (send, recipient, sent) => {
    const clientId = recipient.client_id;
    if (clientId === null) return Promise.resolve();
    const companyId = send.company_id;
    let state = companies.get(companyId);
    if (!state) {
      state = { waiting: [], busy: false };
      companies.set(companyId, state);
    }
    const message: CampaignMessage = {
      clientId,
      massMessageId: send.id,
      wamid: sent.wamid,
      content: sent.text,
      phone: recipient.phone,
      outboundRequest: JSON.stringify({ content: sent.content }),
      createdAt: new Date().toISOString(),
    };
    const promise = new Promise<void>((done, failed) =>
      state.waiting.push({ recipientId: recipient.id, message, done, failed }),
    );
    if (!state.busy) {
      state.busy = true;
      const start = () => void drain(companyId);
      if (gatherMs > 0) setTimeout(start, gatherMs);
      else setImmediate(start);
    }
    return promise;
  };
}
