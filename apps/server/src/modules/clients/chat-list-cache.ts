import { DOMAIN_EVENTS, type DomainEventType, onMany } from '../../platform/events/domain-events';
import type { AnswerCache } from '../../platform/answer-cache';
import type { Outbox } from '../../platform/outbox/outbox';

/**
 * The chat list's pages (GET /admin/client/messages-summary) kept serialised per company, viewer and
 * query (platform/answer-cache.ts). A page shows clients (name, phone, email, avatar, notes, consent),
 * their segment chips and their conversation's row (unread count, last message, bot mode; for an agent
 * who sees only their own, the assignee decides which rows are in). What changes them and drops the
 * company's pages:
 *
 * - every write through the API by a company's user (client form, import, segments, mark as read,
 *   assignment, sends, inbox settings…): app.ts drops the caller's company before answering; a write
 *   without a signed-in company user (the WordPress API, the super admin) drops every company's;
 * - every domain event but the few listed below, after its transaction committed, in whichever instance handles it (a
 *   webhook's message, the bot, mass sends, scheduled messages, consent's opt-out from a word or a
 *   status). These subscribers are declared after every other module's, so a subscriber that writes
 *   the chat row while handling the same event (consent) has committed before the pages are dropped.
 *
 * With Redis every invalidation reaches every instance (a Redis broadcast); an instance not subscribed
 * serves no kept page.
 */
const NOT_IN_THE_CHAT_LIST: readonly string[] = [
  'template.changed',
  'channel.saved',
  'channel.token_changed',
  'mass_message.progress',
];
/** Every event but those that cannot touch a chat row: one added later drops pages until listed here. */
const CHAT_LIST_EVENTS = (Object.keys(DOMAIN_EVENTS) as DomainEventType[]).filter(
  (type) => !NOT_IN_THE_CHAT_LIST.includes(type),
);

/** The key of one page: who may see what (all, or one agent's own), then the query. */
export function chatListKey(
  onlyFor: number | undefined,
  query: { page: number; per_page: number; search?: string },
): string {
  return `${onlyFor === undefined ? '*' : onlyFor}|${query.page}|${query.per_page}|${query.search ?? ''}`;
}

const caches = new WeakMap<Outbox, Set<AnswerCache>>();

/**
 * Drops the pages of every cache of this outbox's app(s) when a chat-list event is handled. The outbox's
 * subscribers are declared once per outbox; each app built on it adds its cache (and removes it on close).
 */
export function invalidateChatListOn(outbox: Outbox, cache: AnswerCache): () => void {
  let set = caches.get(outbox);
  if (!set) {
    const all = new Set<AnswerCache>();
    set = all;
    caches.set(outbox, all);
    outbox.subscribe(
      ...CHAT_LIST_EVENTS.map((type) =>
        onMany(type, `clients.chat-list-cache.${type}`, async (events) => {
          const companies = [...new Set(events.map((e) => e.companyId))];
          await Promise.all([...all].map((c) => c.invalidate(companies)));
        }),
      ),
    );
  }
  set.add(cache);
  return () => set.delete(cache);
}
