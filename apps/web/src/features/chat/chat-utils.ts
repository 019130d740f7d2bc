import type { Message } from '@hablabot/contract';
import { dateFormat } from '../../lib/i18n';

/** How long after the customer's last message free text may still be sent. */
export const CHAT_WINDOW_MS = 24 * 60 * 60 * 1000;
/** How long a conversation with unread messages stays open before they are marked read. */
export const MARK_READ_DELAY_MS = 5000;

function sameDay(a: Date, b: Date): boolean {
  return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
}

/**
 * The list's time label of a last message: the time when it is from today, `yesterday` (the word, in the
 * UI language) for yesterday, otherwise the date. Empty when there is no date.
 */
export function timeLabel(iso: string | null, now: Date, language: string, yesterday: string): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  if (sameDay(date, now)) return dateFormat(language, { hour: '2-digit', minute: '2-digit' }).format(date);
  const before = new Date(now);
  before.setDate(now.getDate() - 1);
  if (sameDay(date, before)) return yesterday;
  return dateFormat(language, { day: '2-digit', month: '2-digit', year: 'numeric' }).format(date);
}

/** The time of a bubble (hours and minutes). */
export function bubbleTime(iso: string, language: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return dateFormat(language, { hour: '2-digit', minute: '2-digit' }).format(date);
}

export type ChatWindow =
  | { state: 'none' }
  | { state: 'closed' }
  | { state: 'open'; hours: number; minutes: number; seconds: number };

/** Whether free text may be sent, and for how long: 24 hours from the customer's last message. */
export function chatWindow(
  messages: readonly Pick<Message, 'sender_type' | 'created_at'>[],
  now: number,
): ChatWindow {
  let last = Number.NEGATIVE_INFINITY;
  for (const message of messages) {
    if (message.sender_type !== 'client') continue;
    const at = Date.parse(message.created_at);
    if (!Number.isNaN(at) && at > last) last = at;
  }
  if (last === Number.NEGATIVE_INFINITY) return { state: 'none' };
  const left = last + CHAT_WINDOW_MS - now;
  if (left <= 0) return { state: 'closed' };
  const total = Math.floor(left / 1000);
  return {
    state: 'open',
    hours: Math.floor(total / 3600),
    minutes: Math.floor((total % 3600) / 60),
    seconds: total % 60,
  };
}

/**
 * Where the 'unread' divider goes: the index of the first customer message not read yet, or -1. Messages
 * are in display order (oldest first).
 */
export function unreadDividerIndex(messages: readonly Pick<Message, 'sender_type' | 'status'>[]): number {
  return messages.findIndex((message) => message.sender_type === 'client' && message.status !== 2);
}

/** A scheduled message's status (status 5): waiting for its time, nothing sent yet. */
const SCHEDULED = 5;

type Mergeable = Pick<Message, 'id' | 'created_at'> & Partial<Pick<Message, 'status' | 'scheduled_at'>>;

/** When a message sorts: a scheduled one by the time it goes out, any other by when it was written. */
function sortTime(message: Mergeable): number {
  return Date.parse(
    message.status === SCHEDULED && message.scheduled_at ? message.scheduled_at : message.created_at,
  );
}

/**
 * One conversation from every source (loaded pages, the scheduled list, live events, messages being
 * sent): each id once — the latest copy wins, except that a status never goes back from read to an
 * earlier step — sorted oldest first. Messages still scheduled go last, below every sent and received
 * one, by the time they go out: once sent, a scheduled message comes back with a new id and its own
 * date, in its place among the others.
 */
export function mergeMessages<T extends Mergeable>(...sources: readonly (readonly T[])[]): T[] {
  const byId = new Map<number, T>();
  for (const source of sources) for (const message of source) byId.set(message.id, message);
  return [...byId.values()].sort((a, b) => {
    const scheduled = Number(a.status === SCHEDULED) - Number(b.status === SCHEDULED);
    if (scheduled !== 0) return scheduled;
    const at = sortTime(a) - sortTime(b);
    if (at !== 0 && !Number.isNaN(at)) return at;
    // Messages still being sent have negative ids: they go after the stored ones of the same moment.
    if (a.id < 0 !== b.id < 0) return a.id < 0 ? 1 : -1;
    return Math.abs(a.id) - Math.abs(b.id);
  });
}

/** The numbered placeholders of a template's text ({{1}}, {{2}} …), each once, in number order. */
export function templatePlaceholders(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(/\{\{\s*(\d{1,3})\s*\}\}/g)) found.add(String(Number(match[1])));
  return [...found].sort((a, b) => Number(a) - Number(b));
}

/** The template's text with each placeholder replaced by its value (left as it is while empty). */
export function fillTemplate(text: string, values: Record<string, string>): string {
  return text.replace(/\{\{\s*(\d{1,3})\s*\}\}/g, (whole, n: string) => {
    const value = values[String(Number(n))];
    return value ? value : whole;
  });
}

/** Types a customer's file may keep in the page: the chat's players, images and the PDF preview. */
const SHOWABLE = /^(image\/(jpeg|png|webp|gif)|video\/(mp4|3gpp)|audio\/[a-z0-9.+-]+|application\/pdf)(;|$)/i;

/**
 * A customer's file as the page may hold it: a type the chat shows stays; anything else (a page, a
 * script, an SVG a customer sent as a "document") becomes an opaque download, so even opening its object
 * address in a tab can never render it inside the app's origin.
 */
export function safeMediaBlob(blob: Blob): Blob {
  return SHOWABLE.test(blob.type) ? blob : new Blob([blob], { type: 'application/octet-stream' });
}
