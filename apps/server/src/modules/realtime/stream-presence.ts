import type { Executor } from '../../db/transactions';
import { type Clock, realClock } from '../../platform/clock';
import { PRESENCE_REFRESH_MS } from '../team/presence';

export interface PresenceLog {
  error(obj: object, msg?: string): void;
}

/**
 * Writes the presence of the team members whose live stream is open in this process (the rule is in
 * modules/team/presence.ts): `users.stream_seen_at` = now when a member's first stream here opens, then
 * every PRESENCE_REFRESH_MS for everyone present here (one statement), and null when their last stream
 * here closes. Writes happen one after another, in the order they were asked for, so a stream that opens
 * and closes at once never leaves a member online.
 */
export function createStreamPresence(deps: {
  db: Executor;
  clock?: Clock;
  refreshMs?: number;
  log?: PresenceLog;
}) {
  const { db } = deps;
  const clock = deps.clock ?? realClock;
  const refreshMs = deps.refreshMs ?? PRESENCE_REFRESH_MS;
  /** Open streams per user, in this process. */
  const open = new Map<number, number>();
  let queue: Promise<void> = Promise.resolve();
  let stopRefresh: (() => void) | undefined;

  function write(userIds: number[], seenAt: string | null) {
    if (userIds.length === 0) return queue;
    queue = queue.then(() =>
      db
        .updateTable('users')
        .set({ stream_seen_at: seenAt })
        .where('id', 'in', userIds)
        .execute()
        .then(
          () => {},
          (err) => deps.log?.error({ err, userIds }, 'presence could not be written'),
        ),
    );
    return queue;
  }

  const nowIso = () => new Date(clock.now()).toISOString();

  function refresh() {
    void write([...open.keys()], nowIso());
  }

  return {
    /** A stream of `userId` opened; the result is called once when it closes. */
    enter(userId: number): () => void {
      const count = open.get(userId) ?? 0;
      open.set(userId, count + 1);
      if (count === 0) void write([userId], nowIso());
      stopRefresh ??= clock.every(refreshMs, refresh);
      let left = false;
      return () => {
        if (left) return;
        left = true;
        const remaining = (open.get(userId) ?? 1) - 1;
        if (remaining > 0) {
          open.set(userId, remaining);
          return;
        }
        open.delete(userId);
        void write([userId], null);
        if (open.size === 0) {
          stopRefresh?.();
          stopRefresh = undefined;
        }
      };
    },

    /** Resolves once every write asked for so far is done (tests; shutting down). */
    settled(): Promise<void> {
      return queue;
    },

    /** Members with a stream open in this process. */
    present(): number[] {
      return [...open.keys()];
    },
  };
}

export type StreamPresence = ReturnType<typeof createStreamPresence>;
