import { MESSAGE_STATUS, cleanText, hasForbiddenCharacters } from '@hablabot/contract';
import type { InboundMessage } from '../../integrations/whatsapp/webhook';
import { phoneKey } from '../../platform/phone';
import type { TransactionScope } from '../../repositories';
import type { ConversationArrival } from '../conversations/auto-assign';
import { storedContent } from './inbound-content';
import type { NewMessage } from './message-rows';

export interface WebhookLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** One customer message of a batch: the company that owns its phone number id, what came, its log. */
export interface ToStore {
  companyId: number;
  m: InboundMessage;
  log: WebhookLog;
}

export type Stored = 'stored' | 'duplicate' | 'ignored';

/** A customer's message dated later than this ahead of our clock is dated now. */
const CLOCK_SKEW_MS = 5 * 60 * 1000;
const NAME_MAX = 120;

/** The WhatsApp profile name as a client name: cleaned, without control characters, at most 120 long. */
function clientName(profileName: string | null, phone: string): string {
  const name = profileName ? cleanText(profileName).slice(0, NAME_MAX) : '';
  return name && !hasForbiddenCharacters(name) ? name : phone;
}

function dateOf(sent: Date | null): string {
  const now = Date.now();
  return sent && sent.getTime() <= now + CLOCK_SKEW_MS ? sent.toISOString() : new Date(now).toISOString();
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The inbox settings read once per company in a transaction (auto-assign reads them for every new,
 * reopened or unassigned conversation).
 */
function withSettingsOnce(tx: TransactionScope): TransactionScope {
  const read = new Map<number, ReturnType<TransactionScope['inboxSettings']['get']>>();
  const inboxSettings = Object.create(tx.inboxSettings) as TransactionScope['inboxSettings'];
  inboxSettings.get = (companyId: number) => {
    let settings = read.get(companyId);
    if (!settings) {
      settings = tx.inboxSettings.get(companyId);
      read.set(companyId, settings);
    }
    return settings;
  };
  return { ...tx, inboxSettings };
}

/**
 * The transaction as one client's arrival sees it when several of their messages came in one batch:
 * "their first message" is the batch's first one (auto-assign asks whether a conversation the company
 * started gets the customer's first answer).
 */
function arrivalScope(
  tx: TransactionScope,
  clientId: number,
  firstId: number,
  count: number,
): TransactionScope {
  if (count === 1) return tx;
  const inboxRepository = Object.create(tx.inboxRepository) as TransactionScope['inboxRepository'];
  inboxRepository.isFirstCustomerMessage = async (companyId: number, id: number) =>
    id === clientId
      ? !(await tx.messagesRepository.customerWroteBefore(companyId, clientId, firstId))
      : tx.inboxRepository.isFirstCustomerMessage(companyId, id);
  return { ...tx, inboxRepository };
}

/**
 * Stores a batch of customer messages with their clients, inside the caller's transaction, with
 * set-based statements: per company, the clients of the batch's distinct phones found or created at once
 * (clients-whatsapp.repository.ts `upsertManyFromWhatsApp`; by WhatsApp's user id when no phone came), the
 * messages in one multi-row insert that skips a wamid already stored, then — for each new message, in
 * order — its conversation's unread count and last message, what the arrival does to the conversation
 * (`onCustomerMessage`: reopening, auto-assign), and its events: `message.received` (the bot, the media
 * download, consent, the chat screens react to it) and `conversation.updated`, written to the outbox
 * with the messages. The messages go in the order of company and phone (stable, so one customer's keep
 * theirs), so two processes writing at once take row locks in one order. What became of each message,
 * in the order given.
 */
export async function storeBatch(
  scope: TransactionScope,
  items: ToStore[],
  onCustomerMessage?: ConversationArrival,
): Promise<Stored[]> {
  const tx = withSettingsOnce(scope);
  const results: Stored[] = new Array(items.length).fill('ignored');
  const order = items
    .map((item, index) => ({ item, index }))
    .sort(
      (a, b) =>
        a.item.companyId - b.item.companyId ||
        compareText(a.item.m.phone ?? '', b.item.m.phone ?? '') ||
        a.index - b.index,
    );
  const companies = new Map<number, typeof order>();
  for (const entry of order) {
    const list = companies.get(entry.item.companyId);
    if (list) list.push(entry);
    else companies.set(entry.item.companyId, [entry]);
  }
  for (const [companyId, entries] of companies) {
    const phones = entries.flatMap(({ item: { m } }) =>
      m.phone ? [{ phone: m.phone, name: clientName(m.profileName, m.phone), waUserId: m.userId }] : [],
    );
    const byKey = phones.length
      ? await tx.clientsRepository.upsertManyFromWhatsApp(companyId, phones)
      : new Map<string, number>();
    const rows: { index: number; row: NewMessage; content: string; media: boolean }[] = [];
    for (const { item, index } of entries) {
      const { m, log } = item;
      let clientId = m.phone ? byKey.get(phoneKey(m.phone)) : undefined;
      let phone = m.phone;
      if (!m.phone && m.userId) {
        const known = await tx.clientsRepository.findByWaUserId(companyId, m.userId);
        if (known) {
          clientId = known.id;
          phone = known.whatsapp_cellphone;
        }
      }
      if (clientId === undefined || !phone) {
        log.warn({ companyId, wamid: m.wamid }, 'whatsapp message without a phone or a known user id');
        continue;
      }
      const stored = storedContent(m.content);
      rows.push({
        index,
        content: stored.content,
        media: Boolean(stored.media?.id),
        row: {
          clientId,
          wamid: m.wamid,
          sender: 'client',
          messageType: stored.messageType,
          waType: m.waType,
          content: stored.content,
          phone,
          contextWamid: m.contextWamid,
          // The quoted message, when it is the company's (WhatsApp's `context.id`); a reply to one we never
          // stored quotes nothing.
          replyToId: m.contextWamid
            ? ((await tx.messagesRepository.idByWamid(companyId, m.contextWamid)) ?? null)
            : null,
          media: stored.media,
          // A customer's message is delivered to us; it becomes read when an admin opens the chat.
          status: MESSAGE_STATUS.delivered,
          createdAt: dateOf(m.sentAt),
        },
      });
    }
    if (!rows.length) continue;
    const ids = await tx.messagesRepository.insertCustomerMessages(
      companyId,
      rows.map((r) => r.row),
    );
    const stored = rows.flatMap((r, i) => {
      results[r.index] = ids[i] === undefined ? 'duplicate' : 'stored';
      return ids[i] === undefined ? [] : [{ ...r, messageId: ids[i]! }];
    });
    if (!stored.length) continue;
    const conversations = await tx.clientsRepository.noteIncomingMessages(
      companyId,
      stored.map(({ row, content }) => ({ clientId: row.clientId, content, date: row.createdAt })),
    );
    // Each client's new messages, in order; the conversation is seen as their first one left it.
    const byClient = new Map<number, typeof stored>();
    for (const s of stored) byClient.set(s.row.clientId, [...(byClient.get(s.row.clientId) ?? []), s]);
    for (const [clientId, list] of byClient) {
      for (const { messageId, media } of list)
        tx.events.emit('message.received', { companyId, clientId, messageId, media });
      const after = conversations.get(clientId);
      if (after && onCustomerMessage)
        await onCustomerMessage(
          arrivalScope(tx, clientId, list[0]!.messageId, list.length),
          companyId,
          clientId,
          { ...after, messagesCount: after.messagesCount - (list.length - 1) },
        );
      tx.events.emit('conversation.updated', { companyId, clientId, changed: ['unread', 'last_message'] });
    }
  }
  return results;
}
