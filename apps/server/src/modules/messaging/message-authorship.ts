import {
  type MessageAuthor,
  type MessageAuthorType,
  type MessageQuote,
  type MessageSender,
  type MessageStatusEntry,
  type MessageStatusName,
  MESSAGE_AUTHOR_TYPES,
} from '@hablabot/contract';
import type { MessageRow } from '../../db/schema';
import type { Executor } from '../../db/transactions';

/** Who wrote a message as it is stored: the type, and the user or the mass message it names. */
export interface AuthorRef {
  type: MessageAuthorType;
  userId?: number | null;
  massMessageId?: number | null;
}

/** The author a message of this sender has when the caller names none: an agent not known by id. */
export function defaultAuthor(sender: MessageSender): AuthorRef {
  if (sender === 'client') return { type: 'customer' };
  if (sender === 'bot') return { type: 'bot' };
  return { type: 'user' };
}

type AuthorColumns = Pick<MessageRow, 'author_kind' | 'author_user_id' | 'author_mass_message_id'>;

/** What a page of messages needs beyond its rows: names of users and sends, and the quoted messages. */
export interface MessageExtras {
  users: Map<number, string>;
  sends: Map<number, string>;
  quotes: Map<number, { id: number; content: string } & AuthorColumns>;
}

const typeOf = (stored: string): MessageAuthorType =>
  (MESSAGE_AUTHOR_TYPES as readonly string[]).includes(stored) ? (stored as MessageAuthorType) : 'system';

/**
 * The author as the API gives it. A user's or a send's name is read from its row at the time, so a renamed
 * user shows the new name; a deleted one leaves the type alone (id and name gone). The type is stored in
 * the column `author_kind`.
 */
export function authorOf(row: AuthorColumns, extras: MessageExtras | null): MessageAuthor {
  const type = typeOf(row.author_kind);
  if (type === 'user') {
    if (row.author_user_id === null) return { type, name: null };
    return { type, id: row.author_user_id, name: extras?.users.get(row.author_user_id) ?? null };
  }
  if (type === 'campaign') {
    if (row.author_mass_message_id === null) return { type, name: null };
    return {
      type,
      id: row.author_mass_message_id,
      name: extras?.sends.get(row.author_mass_message_id) ?? null,
    };
  }
  return { type };
}

/** The quoted message in short: null when the row quotes none or the quoted one is gone. */
export function quoteOf(
  row: Pick<MessageRow, 'reply_to_id'>,
  extras: MessageExtras | null,
): MessageQuote | null {
  if (row.reply_to_id === null) return null;
  const quoted = extras?.quotes.get(row.reply_to_id);
  if (!quoted) return null;
  return { id: quoted.id, content: quoted.content, author: authorOf(quoted, extras) };
}

/**
 * Reads, for these rows of one company, the quoted messages and then the names of the users and sends
 * they (and their quotes) name: one query per kind of thing needed, none when no row needs it (a page of
 * a customer and the bot costs nothing more). Each query reads by primary key only and the company is
 * checked on the rows read: naming the company in the SQL lets SQLite's planner walk the company's index
 * (a million messages) instead of fetching the few ids.
 */
export async function loadExtras(
  db: Executor,
  companyId: number,
  rows: MessageRow[],
): Promise<MessageExtras> {
  const extras: MessageExtras = { users: new Map(), sends: new Map(), quotes: new Map() };
  const quoteIds = [...new Set(rows.flatMap((r) => (r.reply_to_id === null ? [] : [r.reply_to_id])))];
  if (quoteIds.length) {
    const quoted = await db
      .selectFrom('messages')
      .select(['id', 'company_id', 'content', 'author_kind', 'author_user_id', 'author_mass_message_id'])
      .where('id', 'in', quoteIds)
      .execute();
    for (const q of quoted) if (q.company_id === companyId) extras.quotes.set(q.id, q);
  }
  const authored: AuthorColumns[] = [...rows, ...extras.quotes.values()];
  const userIds = new Set<number>();
  const sendIds = new Set<number>();
  for (const a of authored) {
    if (a.author_kind === 'user' && a.author_user_id !== null) userIds.add(a.author_user_id);
    if (a.author_kind === 'campaign' && a.author_mass_message_id !== null)
      sendIds.add(a.author_mass_message_id);
  }
  const [users, sends] = await Promise.all([
    userIds.size
      ? db
          .selectFrom('users')
          .select(['id', 'name', 'company_id'])
          .where('id', 'in', [...userIds])
          .execute()
      : [],
    sendIds.size
      ? db
          .selectFrom('mass_messages')
          .select(['id', 'name', 'company_id'])
          .where('id', 'in', [...sendIds])
          .execute()
      : [],
  ]);
  for (const u of users) if (u.company_id === companyId) extras.users.set(u.id, u.name);
  for (const s of sends) if (s.company_id === companyId) extras.sends.set(s.id, s.name);
  return extras;
}

/** A status to add to a message's history. */
export interface StatusEntry {
  status: MessageStatusName;
  at: string;
  errorCode?: number | null;
  errorTitle?: string | null;
}

/** Adds one step to the message's status history. */
export async function recordStatus(db: Executor, messageId: number, entry: StatusEntry): Promise<void> {
  const failed = entry.status === 'failed';
  await db
    .insertInto('message_statuses')
    .values({
      message_id: messageId,
      status: entry.status,
      at: entry.at,
      error_code: failed ? (entry.errorCode ?? null) : null,
      error_title: failed ? (entry.errorTitle?.slice(0, 500) ?? null) : null,
    })
    .execute();
}

/** Every status of a message (already known to be the company's), oldest first. */
export async function statusHistory(db: Executor, messageId: number): Promise<MessageStatusEntry[]> {
  const rows = await db
    .selectFrom('message_statuses')
    .select(['status', 'at', 'error_code', 'error_title'])
    .where('message_id', '=', messageId)
    .orderBy('message_id')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    status: r.status as MessageStatusName,
    at: new Date(r.at).toISOString(),
    error_code: r.error_code,
    error_title: r.error_title,
  }));
}
