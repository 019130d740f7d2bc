import { MESSAGE_STATUS } from '@hablabot/contract';
import {
  type ReportedStatus,
  type StatusReport,
  readWebhook,
  verifyWebhookSignature,
  WEBHOOK_LIMITS,
  webhookOverLimit,
} from '../../integrations/whatsapp/webhook';
import { AppError, invalid } from '../../platform/errors';
import type { WithTransaction } from '../../repositories';
import type { ConversationArrival } from '../conversations/auto-assign';
import type { SettingsService } from '../settings/settings.service';
import { createPacer, nextTurn } from '../../platform/turns';
import { type Stored, type ToStore, type WebhookLog, storeBatch } from './inbound-batch';
import { createLogWindow, WEBHOOK_TURN_MS } from './webhook-pace';

export type { WebhookLog } from './inbound-batch';

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
 * Customer messages written per transaction (`processMany`): on SQLite a transaction is synchronous work,
 * so a chunk is kept short enough (~10–20 ms) for acknowledgements to be answered between chunks.
 */
const CHUNK = 100;

const silentLog: WebhookLog = { info: () => {}, warn: () => {}, error: () => {} };

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
     * now. The messages of all the deliveries are written together, `CHUNK` to a transaction with
     * set-based statements (inbound-batch.ts), in their order, so one customer's messages keep theirs; the
     * event loop turns between chunks, so acknowledgements are answered meanwhile. Each delivery has its
     * own result: a chunk that fails is written again delivery by delivery, so one that cannot be written
     * leaves the others done. Running a delivery again is harmless (a stored wamid is a duplicate, a
     * status never goes back), so a retry after a failure or a crash repeats it whole.
     */
    async processMany(
      deliveries: { body: unknown; log: WebhookLog }[],
    ): Promise<({ ok: true; outcome: WebhookOutcome } | { ok: false; error: unknown })[]> {
      const parsed = deliveries.map((d) => readWebhook(d.body));
      const owners = await ownersOf(parsed.flat(), deliveries[0]?.log ?? silentLog);
      // A large batch lets other requests run between its writes (webhook-pace.ts).
      const pace = createPacer(turnMs);
      const work: { outcome: WebhookOutcome; statuses: { companyId: number; s: StatusReport }[] }[] = [];
      const items: (ToStore & { delivery: number })[] = [];
      for (const [i, changes] of parsed.entries()) {
        const { log } = deliveries[i]!;
        const outcome: WebhookOutcome = { stored: 0, duplicates: 0, statuses: 0, ignored: 0 };
        const statuses: { companyId: number; s: StatusReport }[] = [];
        for (const change of changes) {
          const companyId = owners.get(change.phoneNumberId)?.companyId;
          if (companyId === undefined) {
            outcome.ignored += change.messages.length + change.statuses.length;
            continue;
          }
          if (change.errors.length) log.warn({ companyId, errors: change.errors }, 'whatsapp webhook errors');
          for (const m of change.messages) items.push({ companyId, m, log, delivery: i });
          for (const s of change.statuses) statuses.push({ companyId, s });
        }
        work.push({ outcome, statuses });
      }
      const failed = new Map<number, unknown>();
      const count = (list: typeof items, stored: Stored[]) => {
        for (const [i, item] of list.entries()) {
          const { outcome } = work[item.delivery]!;
          if (stored[i] === 'stored') outcome.stored++;
          else if (stored[i] === 'duplicate') outcome.duplicates++;
          else outcome.ignored++;
        }
      };
      const write = (list: typeof items) =>
        withTransaction((tx) => storeBatch(tx, list, deps.onCustomerMessage));
      for (let start = 0; start < items.length; start += CHUNK) {
        // Acknowledgements first: the deliveries waiting for their insert are answered between chunks.
        if (start > 0) await nextTurn();
        const chunk = items.slice(start, start + CHUNK);
        try {
          count(chunk, await write(chunk));
        } catch {
          // Delivery by delivery, so the one that cannot be written does not hold back the others.
          const byDelivery = new Map<number, typeof items>();
          for (const item of chunk)
            byDelivery.set(item.delivery, [...(byDelivery.get(item.delivery) ?? []), item]);
          for (const [delivery, list] of byDelivery) {
            if (failed.has(delivery)) continue;
            try {
              count(list, await write(list));
            } catch (error) {
              failed.set(delivery, error);
            }
          }
        }
      }
      const results: ({ ok: true; outcome: WebhookOutcome } | { ok: false; error: unknown })[] = [];
      for (const [i, { outcome, statuses }] of work.entries()) {
        if (failed.has(i)) {
          results.push({ ok: false, error: failed.get(i) });
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
