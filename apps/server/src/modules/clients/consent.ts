import type { InboxSettings } from '@hablabot/contract';
import { companyCheck } from '../../db/company-check';
import { prepared } from '../../db/prepared';
import type { Executor } from '../../db/transactions';
import { byCompany } from '../../platform/events/domain-events';
import { memoByList } from '../../platform/list-memo';
import type { Outbox } from '../../platform/outbox/outbox';
import type { InboxSettingsRepository } from '../team/inbox-settings.repository';

/** The customer messages that may be a consent word: a text, or the text of a tapped button. */
const CONSENT_MESSAGE_TYPES = ['text', 'button'];

/** What consent reads of a customer's message. */
const consentText = prepared((db, v: { companyId: number; messageId: number }) =>
  db
    .selectFrom('messages')
    .select(['content', 'sender_type', 'message_type'])
    .where('company_id', '=', v.companyId)
    .where('id', '=', v.messageId),
);

/** A customer's stored message that may be a consent word (CONSENT_MESSAGE_TYPES). */
const mayBeConsentWord = <M extends { sender_type: string; message_type: string }>(
  message: M | undefined,
): message is M => message?.sender_type === 'client' && CONSENT_MESSAGE_TYPES.includes(message.message_type);

/** Meta's error for a user who stopped receiving marketing messages from the business. */
export const META_USER_STOPPED_MARKETING = 131050;

/**
 * A message or a word as consent compares them: trimmed, inner spaces as one, lowercase, accents
 * removed ('Cancelár ' → 'cancelar').
 */
export function consentWord(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .trim()
    .replace(/\s+/g, ' ')
    .toLowerCase();
}

/** The list's words as consent compares them, worked out once per list (every message is compared). */
const wordSet = memoByList((words) => new Set(words.map(consentWord).filter((w) => w !== '')));

/** Whether a customer's whole message is one of the words: 'opt_out', 'opt_in' or null. */
export function consentKeyword(text: string, words: ConsentWords): 'opt_out' | 'opt_in' | null {
  const message = consentWord(text);
  if (message === '') return null;
  if (wordSet(words.opt_out_keywords).has(message)) return 'opt_out';
  if (wordSet(words.opt_in_keywords).has(message)) return 'opt_in';
  return null;
}

/** The company's consent words (its inbox settings carry them). */
export interface ConsentWords {
  opt_out_keywords: string[];
  opt_in_keywords: string[];
}

/**
 * Whether a customer's whole message is one of the company's consent words (opt-out or opt-in). Such a
 * message belongs to consent alone: the bot does not answer it, it gets no away message and it hands
 * nothing over to a person — only consent's own confirmation, when the company has one.
 */
export function isConsentKeyword(settings: ConsentWords, text: string): boolean {
  return consentKeyword(text, settings) !== null;
}

/**
 * Consent: whether the company may send campaigns to a customer (`clients.opted_out_at`). A customer
 * whose whole message (a text, or a tapped button's text) is one of the company's opt-out words is marked (and gets the company's opt-out
 * reply, when it has one, sent as the bot through the normal outbound path, so it shows in the chat);
 * one of the opt-in words clears the mark. Meta's 131050 on a message's status marks the customer too.
 * Each change happens once: a second STOP, or a handler run twice, changes and sends nothing.
 * A change writes `client.consent_changed` to the outbox in its transaction (the chat's 'Dado de baja'
 * badge follows it live, modules/realtime/realtime.subscribers.ts); no change, no event.
 */
export function createConsent(deps: {
  db: Executor;
  /** Where a change writes its `client.consent_changed` event (none: the column alone). */
  outbox?: Pick<Outbox, 'transaction'>;
  inboxSettings: Pick<InboxSettingsRepository, 'get'>;
  /** Sends a text to the customer as the bot (the outbound service's send). */
  send: (input: { companyId: number; clientId: number; sender: 'bot'; content: string }) => Promise<unknown>;
  now?: () => Date;
  log?: { warn(obj: object, msg: string): void };
}) {
  const { db } = deps;
  const now = () => (deps.now?.() ?? new Date()).toISOString();

  /** Sets or clears the client's mark when it is not so already; true (and the event) when it changed. */
  async function mark(companyId: number, clientId: number, optedOut: boolean): Promise<boolean> {
    const write = async (executor: Executor) => {
      const result = await executor
        .updateTable('clients')
        .set({ opted_out_at: optedOut ? now() : null })
        .where('company_id', '=', companyId)
        .where('id', '=', clientId)
        .where('opted_out_at', optedOut ? 'is' : 'is not', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    };
    if (!deps.outbox) return write(db);
    return deps.outbox.transaction(async (trx, events) => {
      const changed = await write(trx);
      if (changed) events.emit('client.consent_changed', { companyId, clientId, optedOut });
      return changed;
    });
  }

  /** Marks the client opted out; true when it was not already. */
  const markOptedOut = (companyId: number, clientId: number) => mark(companyId, clientId, true);

  /** What a message's text does to the customer's consent: a word marks or clears, an opt-out confirms. */
  async function applyWord(companyId: number, clientId: number, text: string, settings: InboxSettings) {
    const word = consentKeyword(text, settings);
    if (word === 'opt_in') {
      await mark(companyId, clientId, false);
      return;
    }
    if (word !== 'opt_out' || !(await markOptedOut(companyId, clientId))) return;
    if (!settings.opt_out_reply) return;
    try {
      await deps.send({ companyId, clientId, sender: 'bot', content: settings.opt_out_reply });
    } catch (err) {
      // Refused before anything was stored (the client was deleted meanwhile): nothing to confirm.
      deps.log?.warn({ companyId, clientId, err }, 'consent: opt-out reply refused');
    }
  }

  return {
    markOptedOut,

    /** Clears the mark; true when the client was opted out. */
    async markOptedIn(companyId: number, clientId: number): Promise<boolean> {
      return mark(companyId, clientId, false);
    },

    /** Whether the customer's stored message is a consent word (see `isConsentKeyword`). */
    async isKeywordMessage(companyId: number, messageId: number): Promise<boolean> {
      const [message] = (await consentText(db, { companyId, messageId })).rows;
      if (!mayBeConsentWord(message)) return false;
      return isConsentKeyword(await deps.inboxSettings.get(companyId), message.content);
    },

    /**
     * Customers' messages (a dispatch's, in the order they came): an opt-out or opt-in word changes the
     * customer's consent. One read of the messages and of the settings per company.
     */
    async afterCustomerMessages(
      messages: { companyId: number; clientId: number; messageId: number }[],
    ): Promise<void> {
      for (const [companyId, list] of byCompany(messages)) {
        const rows = await db
          .selectFrom('messages')
          .select(['id', 'content', 'sender_type', 'message_type'])
          .where(companyCheck(), '=', companyId)
          .where(
            'id',
            'in',
            list.map((m) => m.messageId),
          )
          .execute();
        const byId = new Map(rows.map((r) => [r.id, r]));
        let settings: InboxSettings | undefined;
        for (const { clientId, messageId } of list) {
          const message = byId.get(messageId);
          // A text, or a tap on a template's quick reply (its button's text), e.g. 'Detener promociones'.
          if (!mayBeConsentWord(message)) continue;
          settings ??= await deps.inboxSettings.get(companyId);
          await applyWord(companyId, clientId, message.content, settings);
        }
      }
    },

    /** A status with Meta's 131050: the customer of that message stopped marketing messages. */
    async afterStatus(companyId: number, wamid: string, errorCode: number | null): Promise<void> {
      if (errorCode !== META_USER_STOPPED_MARKETING) return;
      const message = await db
        .selectFrom('messages')
        .select('client_id')
        .where('company_id', '=', companyId)
        .where('wamid', '=', wamid)
        .executeTakeFirst();
      const clientId =
        message?.client_id ??
        (
          await db
            .selectFrom('mass_message_recipients')
            .select('client_id')
            .where('wamid', '=', wamid)
            .where('company_id', '=', companyId)
            .executeTakeFirst()
        )?.client_id;
      if (clientId != null) await markOptedOut(companyId, clientId);
    },
  };
}

export type Consent = ReturnType<typeof createConsent>;
