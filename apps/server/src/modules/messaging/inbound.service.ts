import { MESSAGE_STATUS, type Message, cleanText, hasForbiddenCharacters } from '@hablabot/contract';
import {
  type InboundMessage,
  type ReportedStatus,
  type StatusReport,
  readWebhook,
  verifyWebhookSignature,
  WEBHOOK_LIMITS,
  webhookOverLimit,
} from '../../integrations/whatsapp/webhook';
import { AppError, invalid } from '../../platform/errors';
import { createGroupCommit } from '../../platform/group-commit';
import type { TransactionScope, WithTransaction } from '../../repositories';
import type { ConversationArrival } from '../conversations/auto-assign';
import type { SettingsService } from '../settings/settings.service';
import { storedContent } from './inbound-content';
import { createPacer } from '../../platform/turns';
import { createLogWindow, WEBHOOK_TURN_MS } from './webhook-pace';

export interface WebhookLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** What a webhook delivery did, for the log and the tests. */
export interface WebhookOutcome {
  stored: number;
  duplicates: number;
  statuses: number;
  ignored: number;
}

const STATUS_VALUE: Record<ReportedStatus, number> = {
  sent: MESSAGE_STATUS.sent,
  delivered: MESSAGE_STATUS.delivered,
  read: MESSAGE_STATUS.read,
  failed: MESSAGE_STATUS.failed,
};

/** A delivery whose signature checked: its parsed body, the companies it concerns, what it holds. */
export interface AcceptedDelivery {
  body: unknown;
  companyIds: number[];
  messages: number;
  statuses: number;
}

/**
 * Customer messages handed to the group commit before the oldest is awaited (`processMany`). A batch's
 * transaction is synchronous work on SQLite: two share one and the event loop still turns every ~30 ms
 * for a delivery at the limits; eight held it ~70 ms.
 */
const WRITE_WINDOW = 2;

const silentLog: WebhookLog = { info: () => {}, warn: () => {}, error: () => {} };

/** A customer's message dated later than this ahead of our clock is dated now. */
const CLOCK_SKEW_MS = 5 * 60 * 1000;
const NAME_MAX = 120;

/** The WhatsApp profile name as a client name: cleaned, without control characters, at most 120 long. */
function clientName(profileName: string | null, phone: string): string {
  const name = profileName ? cleanText(profileName).slice(0, NAME_MAX) : '';
  return name && !hasForbiddenCharacters(name) ? name : phone;
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function dateOf(sent: Date | null): string {
  const now = Date.now();
  return sent && sent.getTime() <= now + CLOCK_SKEW_MS ? sent.toISOString() : new Date(now).toISOString();
}

export function createInboundService(deps: {
  settings: Pick<SettingsService, 'webhookOwners'>;
  /**
   * Refuse unsigned deliveries even for a company without an app secret (production): a delivery is
   * only ever taken once the app secret of the number's company verified it.
   */
  requireSignature?: boolean;
  /** How often deliveries for unknown phone number ids are logged, with their count (1 minute). */
  unknownLogWindowMs?: number;
  /** How long a delivery works before letting other requests run (webhook-pace.ts). */
  turnMs?: number;
  now?: () => number;
  withTransaction: WithTransaction;
  /**
   * What the message does to its conversation beyond the chat list (reopening a resolved one,
   * auto-assign: modules/conversations/auto-assign.ts), in the same transaction.
   */
  onCustomerMessage?: ConversationArrival;
}) {
  const { settings, withTransaction } = deps;
  const requireSignature = deps.requireSignature ?? false;
  const turnMs = deps.turnMs ?? WEBHOOK_TURN_MS;
  const unknownIds = createLogWindow({ windowMs: deps.unknownLogWindowMs ?? 60_000, now: deps.now });

  type Stored = { kind: 'ignored' } | { kind: 'duplicate' } | { kind: 'stored'; message: Message };
  interface ToStore {
    companyId: number;
    m: InboundMessage;
    log: WebhookLog;
  }

  /**
   * Stores one customer message with its client, inside the caller's transaction: the client found or
   * created by phone (by WhatsApp's user id when no phone came), the message once by wamid, then the
   * client's unread count and last message. Undefined message for a duplicate or a customer that cannot
   * be told. Emits `message.received` (the bot, the media download, the chat screens react to it) and
   * `conversation.updated`, written to the outbox with the message.
   */
  async function storeIn(tx: TransactionScope, { companyId, m, log }: ToStore): Promise<Stored> {
    const stored = storedContent(m.content);
    const createdAt = dateOf(m.sentAt);
    let client: { id: number } | undefined;
    let phone = m.phone;
    if (phone) {
      client = await tx.clientsRepository.upsertFromWhatsApp(companyId, {
        phone,
        name: clientName(m.profileName, phone),
        waUserId: m.userId,
      });
    } else if (m.userId) {
      const known = await tx.clientsRepository.findByWaUserId(companyId, m.userId);
      if (known) {
        client = known;
        phone = known.whatsapp_cellphone;
      }
    }
    if (!client || !phone) {
      log.warn({ companyId, wamid: m.wamid }, 'whatsapp message without a phone or a known user id');
      return { kind: 'ignored' };
    }
    const message = await tx.messagesRepository.insertMessage(companyId, {
      clientId: client.id,
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
      createdAt,
    });
    if (!message) return { kind: 'duplicate' };
    const after = await tx.clientsRepository.noteIncomingMessage(companyId, client.id, {
      content: stored.content,
      date: createdAt,
    });
    if (after && deps.onCustomerMessage) await deps.onCustomerMessage(tx, companyId, client.id, after);
    tx.events.emit('message.received', {
      companyId,
      clientId: client.id,
      messageId: message.id,
      media: Boolean(stored.media?.id),
    });
    tx.events.emit('conversation.updated', {
      companyId,
      clientId: client.id,
      changed: ['unread', 'last_message'],
    });
    return { kind: 'stored', message };
  }

  /**
   * Customer messages are written by group commit (platform/group-commit.ts): the messages of the
   * deliveries that arrive while a transaction is being written share the next one. Within a batch
   * they go in the order of company and phone (stable, so one customer's messages keep theirs), so two
   * app processes writing batches at once take row locks in the same order.
   */
  const writer = createGroupCommit<ToStore, Stored>({
    writeBatch: (items) =>
      withTransaction(async (tx) => {
        const order = items
          .map((item, index) => ({ item, index }))
          .sort(
            (a, b) =>
              a.item.companyId - b.item.companyId ||
              compareText(a.item.m.phone ?? '', b.item.m.phone ?? '') ||
              a.index - b.index,
          );
        const results: Stored[] = new Array(items.length);
        for (const { item, index } of order) results[index] = await storeIn(tx, item);
        return results;
      }),
    writeOne: (item) => withTransaction((tx) => storeIn(tx, item)),
  });

  /**
   * A status WhatsApp reported: applied to the conversation's message with that wamid when it moves its
   * status up (`message.status_changed`), and told to every other sender (`whatsapp.status_reported`:
   * a mass message's recipient takes it by wamid), in one transaction.
   */
  function applyStatus(companyId: number, s: StatusReport) {
    const at = (s.at ?? new Date()).toISOString();
    return withTransaction(async (tx) => {
      const message = await tx.messagesRepository.applyStatus(companyId, s.wamid, {
        status: STATUS_VALUE[s.status],
        at,
        errorCode: s.errorCode,
        errorMessage: s.errorMessage,
        errorTitle: s.errorTitle,
      });
      if (message)
        tx.events.emit('message.status_changed', {
          companyId,
          clientId: message.client_id,
          messageId: message.id,
          status: message.status,
        });
      tx.events.emit('whatsapp.status_reported', {
        companyId,
        wamid: s.wamid,
        status: s.status,
        at,
        errorCode: s.errorCode,
        errorMessage: s.errorMessage,
        errorTitle: s.errorTitle,
      });
      return message;
    });
  }

  /** The companies of the deliveries' phone number ids, unknown ones logged once per window. */
  async function ownersOf(changes: ReturnType<typeof readWebhook>, log: WebhookLog) {
    const phoneIds = [...new Set(changes.map((c) => c.phoneNumberId))];
    const owners = await settings.webhookOwners(phoneIds);
    const unknown = phoneIds.filter((id) => !owners.has(id));
    if (unknown.length) {
      const summary = unknownIds.note(unknown[0]!);
      if (summary)
        log.warn(
          { deliveries: summary.count, phoneNumberIds: summary.examples },
          'whatsapp webhook for unknown phone number ids',
        );
    }
    return owners;
  }

  return {
    /**
     * Checks one delivery of the webhook before it is taken: the raw bytes (the signature covers them
     * exactly) and the X-Hub-Signature-256 header. A body past WEBHOOK_LIMITS is refused (422) before any
     * lookup. The phone number ids of all its changes are looked up at once; each belongs to one company
     * at most, and that company's app secret must have signed the bytes, or nothing of the delivery is
     * taken (401). A company without an app secret gets unsigned deliveries only where signatures are not
     * required (never in production). Unknown phone number ids are skipped, and logged once per window,
     * so WhatsApp stops retrying them and nobody can fill the log with them. Writes nothing: the caller
     * keeps the delivery (webhook-inbox.ts) and `processMany` does the work.
     */
    async accept(raw: Buffer, signature: string | undefined, log: WebhookLog): Promise<AcceptedDelivery> {
      let body: unknown;
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        throw invalid('body', 'messaging.invalid_body');
      }
      const over = webhookOverLimit(body);
      if (over) throw invalid('body', `messaging.too_many_${over}`, { max: WEBHOOK_LIMITS[over] });
      const changes = readWebhook(body);

      // Route and authenticate every change before taking anything.
      const owners = await ownersOf(changes, log);
      const checked = new Map<string, boolean>();
      for (const [phoneId, owner] of owners) {
        const secret = owner.appSecret;
        let verified = secret === null && !requireSignature;
        if (typeof secret === 'string') {
          // Companies of one Meta app share its secret: the bytes are hashed once per secret.
          verified = checked.get(secret) ?? verifyWebhookSignature(secret, raw, signature);
          checked.set(secret, verified);
        }
        if (verified) continue;
        log.warn(
          {
            phoneNumberId: phoneId,
            companyId: owner.companyId,
            signed: Boolean(signature),
            appSecret:
              owner.appSecret === null ? 'none' : owner.appSecret === undefined ? 'unreadable' : 'set',
          },
          'whatsapp webhook with a missing or wrong signature',
        );
        throw new AppError(401, 'messaging.bad_signature');
      }
      return {
        body,
        companyIds: [...new Set([...owners.values()].map((o) => o.companyId))],
        messages: changes.reduce((n, c) => n + c.messages.length, 0),
        statuses: changes.reduce((n, c) => n + c.statuses.length, 0),
      };
    },

    /**
     * Does what taken deliveries (their parsed bodies, in the order they came) say: each customer message
     * stored once by wamid, then each status applied, for the companies that own their phone number ids
     * now. The messages of all the deliveries are handed to the group commit in their order before any
     * is awaited, so they share transactions and one customer's messages keep their order. Each delivery
     * has its own result: one that fails (a message or a status that could not be written) leaves the
     * others done. Running a delivery again is harmless (a stored wamid is a duplicate, a status never
     * goes back), so a retry after a failure or a crash repeats it whole.
     */
    async processMany(
      deliveries: { body: unknown; log: WebhookLog }[],
    ): Promise<({ ok: true; outcome: WebhookOutcome } | { ok: false; error: unknown })[]> {
      const parsed = deliveries.map((d) => readWebhook(d.body));
      const owners = await ownersOf(parsed.flat(), deliveries[0]?.log ?? silentLog);
      // A large batch lets other requests run between its writes (webhook-pace.ts).
      const pace = createPacer(turnMs);
      const work = [];
      const inFlight: Promise<void>[] = [];
      for (const [i, changes] of parsed.entries()) {
        const { log } = deliveries[i]!;
        const outcome: WebhookOutcome = { stored: 0, duplicates: 0, statuses: 0, ignored: 0 };
        const writes: Promise<void>[] = [];
        const statuses: { companyId: number; s: StatusReport }[] = [];
        for (const change of changes) {
          const companyId = owners.get(change.phoneNumberId)?.companyId;
          if (companyId === undefined) {
            outcome.ignored += change.messages.length + change.statuses.length;
            continue;
          }
          if (change.errors.length) log.warn({ companyId, errors: change.errors }, 'whatsapp webhook errors');
          for (const m of change.messages) {
            await pace();
            // A window of writes in flight: the group commit's transactions stay short enough for the
            // event loop to turn between them (each write is synchronous work on SQLite).
            while (inFlight.length >= WRITE_WINDOW) await inFlight.shift();
            const write = writer.write({ companyId, m, log }).then((result) => {
              if (result.kind === 'stored') outcome.stored++;
              else if (result.kind === 'duplicate') outcome.duplicates++;
              else outcome.ignored++;
            });
            writes.push(write);
            inFlight.push(write.catch(() => {}));
          }
          for (const s of change.statuses) statuses.push({ companyId, s });
        }
        work.push({ outcome, writes, statuses });
      }
      const results: ({ ok: true; outcome: WebhookOutcome } | { ok: false; error: unknown })[] = [];
      for (const { outcome, writes, statuses } of work) {
        const failed = (await Promise.allSettled(writes)).find((r) => r.status === 'rejected');
        if (failed) {
          results.push({ ok: false, error: failed.reason });
          continue;
        }
        try {
          // One wamid can be both a message of a conversation and a recipient of a mass message (what a
          // send delivered shows in the chat too): the status goes to each.
          for (const { companyId, s } of statuses) {
            await pace();
            await applyStatus(companyId, s);
            outcome.statuses++;
          }
          results.push({ ok: true, outcome });
        } catch (error) {
          results.push({ ok: false, error });
        }
      }
      return results;
    },
  };
}

export type InboundService = ReturnType<typeof createInboundService>;
