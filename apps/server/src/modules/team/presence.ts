/**
 * Presence: a team member is online while one of their live streams is open (the chat screen). An open
 * stream writes `users.stream_seen_at` when it opens and then every PRESENCE_REFRESH_MS, on whichever
 * instance holds it; a member is online when that time is at most ONLINE_WINDOW_MS old. Closing the last
 * stream clears it, so a member who closes the tab goes offline at once, and one whose instance died goes
 * offline within the window.
 */
export const PRESENCE_REFRESH_MS = 20_000;
export const ONLINE_WINDOW_MS = 60_000;

/** The earliest `stream_seen_at` that still counts as online at `now` (ms since the epoch). */
export function onlineSince(now: number): string {
  return new Date(now - ONLINE_WINDOW_MS).toISOString();
}

export function isOnline(streamSeenAt: string | null, now: number): boolean {
  return streamSeenAt !== null && streamSeenAt >= onlineSince(now);
}
