import type { Clock } from '../../platform/clock';

/** How long WhatsApp keeps a customer's media after the message: its id gives nothing after that. */
export const MEDIA_KEPT_MS = 7 * 24 * 60 * 60 * 1000;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * The waits between the tries of a download that failed for now (5xx, timeout, expired URL, network):
 * quick at first for a passing hiccup, then further apart for an outage; the last wait repeats until
 * WhatsApp stops keeping the media (about 20 tries in the 7 days).
 */
export const MEDIA_RETRY_WAITS_MS = [
  30_000,
  2 * MINUTE,
  10 * MINUTE,
  30 * MINUTE,
  HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
];

/** How a customer's media is tried again (tests shorten the waits and move the clock themselves). */
export interface MediaRetryOptions {
  /** The time the 7 days are judged on (the wall clock by default). */
  clock?: Pick<Clock, 'now'>;
  /** The waits between tries, in order; the last one repeats (MEDIA_RETRY_WAITS_MS by default). */
  waitsMs?: number[];
  /** How long after the message WhatsApp keeps its media (7 days). */
  keptMs?: number;
  /** How long asking WhatsApp for the media's URL may take (15 s by default). */
  retrieveTimeoutMs?: number;
  /** How long the download of the bytes may take (120 s by default). */
  downloadTimeoutMs?: number;
}

/**
 * When to try again after try number `attempts` (1 = the first) failed for now at `now`: the next wait
 * of the schedule, but never later than the moment WhatsApp stops keeping the media (the message's time
 * plus `keptMs`), which gets the last try. Null when that moment has come: this try was the last.
 */
export function nextMediaTry(input: {
  attempts: number;
  now: number;
  sentAt: number;
  waitsMs: number[];
  keptMs: number;
}): number | null {
  const until = input.sentAt + input.keptMs;
  if (!(input.now < until)) return null;
  const waits = input.waitsMs.length ? input.waitsMs : MEDIA_RETRY_WAITS_MS;
  const wait = waits[Math.min(Math.max(0, input.attempts - 1), waits.length - 1)];
  return Math.min(input.now + wait, until);
}
