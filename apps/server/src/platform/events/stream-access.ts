import type { AuthCache } from '../auth-cache';
import { type AuthContext, type Guards, isMemberOf } from '../auth';

/**
 * Who may go on reading an open event stream. A stream is authorised once, when it opens, but it can
 * stay open for hours; what its token grants can change meanwhile. So every open stream is registered
 * here, and:
 *
 * - whenever what a user's tokens grant may have changed — signing out, 'Mi cuenta' signing the other
 *   sessions out, a new password, other roles or another company, a deleted user (each of those tells
 *   the auth cache, in this process or, with Redis, in any other) — that user's streams are checked
 *   again against the database; 'all' (a role renamed or deleted, a Redis subscription that came back
 *   and may have missed messages) checks every stream;
 * - every `recheckMs` all streams are checked again anyway (a token that expired, a change made behind
 *   the application's back);
 * - a stream whose token no longer signs in a member of the stream's company (an admin or an agent) is
 *   ended; one that passes goes on with what the token grants now (an agent made admin sees everything,
 *   an admin made agent only what agents may see: see `Audience` in events.ts).
 *
 * While a check runs, the stream's events wait, and they are written only if the check passes: nothing
 * reaches a reader after the change that took their access away was committed. A check that fails for
 * another reason (the database is unreachable) ends the stream too; the browser reconnects, and the
 * reconnection is authorised afresh.
 *
 * A user may hold at most `maxPerUser` streams open in one process (a browser tab holds one); one more
 * is refused with 429 and the browser tries again later, with a growing wait. Closing the oldest
 * instead would make eleven tabs take turns closing each other.
 */

export interface StreamAccessOptions {
  authCache: Pick<AuthCache, 'onForget'>;
  guards: Pick<Guards, 'recheck'>;
  /** Open streams one user may hold in this process. */
  maxPerUser?: number;
  /** How often every open stream is checked again, in ms. */
  recheckMs?: number;
}

export interface StreamGrant {
  /** Runs `write` now, or after the check under way has passed; never once access was taken away. */
  deliver(write: () => void): void;
  /** The stream ended: forget it. */
  release(): void;
  /** Access was taken away (`end` was called, or would have been had it been ready). */
  readonly revoked: boolean;
  /** What the stream's token grants, as of its last check. */
  readonly auth: AuthContext;
}

export const MAX_STREAMS_PER_USER = 10;
export const STREAM_RECHECK_MS = 30_000;

interface OpenStream {
  auth: AuthContext;
  companyId: number;
  end: () => void;
  /** A check is under way; events wait in `waiting`. */
  checking: boolean;
  /** Another change was heard during the check: check once more when it ends. */
  again: boolean;
  waiting: (() => void)[];
  released: boolean;
  /** Access was taken away: nothing more is written, whatever `end` does. */
  revoked: boolean;
}

export function createStreamAccess(options: StreamAccessOptions) {
  const maxPerUser = options.maxPerUser ?? MAX_STREAMS_PER_USER;
  const recheckMs = options.recheckMs ?? STREAM_RECHECK_MS;
  const byUser = new Map<number, Set<OpenStream>>();
  let revoked = 0;

  function revoke(stream: OpenStream) {
    if (stream.released || stream.revoked) return;
    stream.revoked = true;
    stream.waiting = [];
    revoked++;
    stream.end();
  }

  function check(stream: OpenStream) {
    if (stream.released || stream.revoked) return;
    if (stream.checking) {
      stream.again = true;
      return;
    }
    stream.checking = true;
    stream.again = false;
    options.guards.recheck(stream.auth.tokenHash).then(
      (now) => {
        stream.checking = false;
        if (!now || now.user.id !== stream.auth.user.id || !isMemberOf(now, stream.companyId)) {
          revoke(stream);
          return;
        }
        stream.auth = now;
        if (stream.again) {
          check(stream);
          return;
        }
        for (const write of stream.waiting.splice(0)) {
          if (stream.released || stream.revoked) break;
          write();
        }
      },
      () => {
        stream.checking = false;
        revoke(stream);
      },
    );
  }

  function checkUsers(users: number[] | 'all') {
    if (users === 'all') {
      for (const streams of byUser.values()) for (const stream of streams) check(stream);
      return;
    }
    for (const id of users) for (const stream of byUser.get(id) ?? []) check(stream);
  }

  const stopListening = options.authCache.onForget(checkUsers);
  const timer = setInterval(() => checkUsers('all'), recheckMs);
  timer.unref();

  return {
    /**
     * Registers a stream of `auth`'s user reading `companyId`; `end` closes it when access is taken
     * away. Undefined when the user already holds `maxPerUser` streams here.
     */
    open(auth: AuthContext, companyId: number, end: () => void): StreamGrant | undefined {
      const userId = auth.user.id;
      const streams = byUser.get(userId) ?? new Set<OpenStream>();
      if (streams.size >= maxPerUser) return undefined;
      const stream: OpenStream = {
        auth,
        companyId,
        end,
        checking: false,
        again: false,
        waiting: [],
        released: false,
        revoked: false,
      };
      streams.add(stream);
      byUser.set(userId, streams);
      // The token's own end; past the longest timer Node keeps, the periodic check finds it.
      const untilExpiry = auth.expiresAt - Date.now();
      const expiry =
        untilExpiry < 2 ** 31 - 1 ? setTimeout(() => revoke(stream), Math.max(0, untilExpiry)) : undefined;
      expiry?.unref();
      return {
        deliver(write) {
          if (stream.released || stream.revoked) return;
          if (stream.checking) stream.waiting.push(write);
          else write();
        },
        get revoked() {
          return stream.revoked;
        },
        get auth() {
          return stream.auth;
        },
        release() {
          if (stream.released) return;
          stream.released = true;
          stream.waiting = [];
          clearTimeout(expiry);
          streams.delete(stream);
          if (streams.size === 0 && byUser.get(userId) === streams) byUser.delete(userId);
        },
      };
    },

    /** Streams open in this process for a user. */
    openFor(userId: number): number {
      return byUser.get(userId)?.size ?? 0;
    },

    /** Streams ended because their access was taken away, since start. */
    get revoked() {
      return revoked;
    },

    close() {
      clearInterval(timer);
      stopListening();
    },
  };
}

export type StreamAccess = ReturnType<typeof createStreamAccess>;
