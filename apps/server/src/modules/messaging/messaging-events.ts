import type { EventMessage, Message } from '@hablabot/contract';
import type { EventBus } from '../../platform/events/events';
import type { ClientAfterMessage, ClientsRepository } from '../clients/clients.repository';
import type { MessagingHooks } from './inbound.service';

/** A stored message as the event stream carries it. */
export function eventMessage(m: Message): EventMessage {
  return {
    id: m.id,
    client_id: m.client_id,
    content: m.content,
    phone: m.phone,
    sender_type: m.sender_type,
    message_type: m.message_type,
    media_url: m.media_url,
    media_caption: m.media_caption,
    status: m.status,
    error_message: m.error_message,
    kind: m.kind,
    created_at: m.created_at,
  };
}

/**
 * Every hook in order, each called even when an earlier one threw; the first error is thrown after all
 * ran (the caller logs it).
 */
export function composeHooks(...all: (MessagingHooks | undefined)[]): MessagingHooks {
  const hooks = all.filter((h): h is MessagingHooks => h !== undefined);
  const run = async (calls: (() => void | Promise<void> | undefined)[]) => {
    const results = await Promise.allSettled(calls.map(async (call) => call()));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  };
  return {
    onInbound: (companyId, message, client) =>
      run(hooks.map((h) => () => h.onInbound?.(companyId, message, client))),
    onStatus: (companyId, message) => run(hooks.map((h) => () => h.onStatus?.(companyId, message))),
    onMarkedRead: (companyId, clientId, lastWamid) =>
      run(hooks.map((h) => () => h.onMarkedRead?.(companyId, clientId, lastWamid))),
  };
}

/**
 * The chat's live events (see `packages/contract/src/events.schema.ts`), each on its company's stream
 * only: a stored customer message gives `message.created` then `client.unread` (the client's unread count
 * and last message as stored after it); a status change gives `message.status`; a read gives
 * `client.unread` with the count at 0.
 */
export function createMessagingEvents(deps: {
  events: Pick<EventBus, 'publish'>;
  clientsRepository: Pick<ClientsRepository, 'findClient'>;
}) {
  const { events, clientsRepository } = deps;

  /** The client's unread count and last message; read from the database unless the caller has them. */
  async function publishUnread(companyId: number, clientId: number, known?: ClientAfterMessage) {
    const client = known ?? (await clientsRepository.findClient(companyId, clientId));
    if (!client) return;
    await events.publish(companyId, {
      type: 'client.unread',
      data: {
        client_id: clientId,
        unread_messages_count: client.unread_messages_count,
        last_message_content: client.last_message_content,
        last_message_date: client.last_message_date,
      },
    });
  }

  /** A message written by us (the bot's reply, its failure note) or changed (media fetched). */
  async function publishMessage(
    companyId: number,
    message: Message,
    type: 'message.created' | 'message.updated',
  ) {
    await events.publish(companyId, {
      type,
      data: { client_id: message.client_id, message: eventMessage(message) },
    });
  }

  const hooks: MessagingHooks = {
    async onInbound(companyId, message, client) {
      await publishMessage(companyId, message, 'message.created');
      await publishUnread(companyId, message.client_id, client);
    },
    async onStatus(companyId, message) {
      await events.publish(companyId, {
        type: 'message.status',
        data: {
          client_id: message.client_id,
          message_id: message.id,
          status: message.status,
          error: message.error_message,
        },
      });
    },
    async onMarkedRead(companyId, clientId) {
      await publishUnread(companyId, clientId);
    },
  };

  return { hooks, publishMessage, publishUnread };
}

export type MessagingEvents = ReturnType<typeof createMessagingEvents>;
