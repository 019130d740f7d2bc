/**
 * What keeps the webhook's cost per delivery bounded whoever sends it: a summary logged once per window
 * instead of one line per delivery, and a long delivery's work cut into turns of the event loop
 * (platform/turns.ts, every WEBHOOK_TURN_MS).
 */

/** How long the webhook works on one delivery before letting other requests run. */
export const WEBHOOK_TURN_MS = 10;

/**
 * Counts an event that anyone can cause as often as they like (a delivery for a number no company has)
 * and says when to log it: the first time, then at most once per window, with how many happened since the
 * last line and a few examples. The count of the last window is told with the next event after it.
 */
export function createLogWindow(options: { windowMs: number; examples?: number; now?: () => number }) {
  const now = options.now ?? Date.now;
  const keep = options.examples ?? 5;
  let loggedAt: number | null = null;
  let count = 0;
  let examples = new Set<string>();
  return {
    /** Notes one event; a summary to log when the window is over (or it is the first), else null. */
    note(example: string): { count: number; examples: string[] } | null {
      count++;
      if (examples.size < keep) examples.add(example);
      const at = now();
      if (loggedAt !== null && at - loggedAt < options.windowMs) return null;
      const summary = { count, examples: [...examples] };
      loggedAt = at;
      count = 0;
      examples = new Set();
      return summary;
    },
  };
}
