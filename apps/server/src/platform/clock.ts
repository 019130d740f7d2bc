/**
 * The time as code that waits or paces sees it: the wall clock in production, a clock the test moves in
 * tests, so a wait is a step of the clock rather than a nap and "nothing happened meanwhile" can be
 * asserted without sleeping.
 */
export interface Clock {
  /** Milliseconds since the epoch, as `Date.now()`. */
  now(): number;
  /** Resolves once `ms` passed on this clock. */
  sleep(ms: number): Promise<void>;
  /** Calls `fn` once after `ms` on this clock, never holding the process open; returns the cancel. */
  after(ms: number, fn: () => void): () => void;
  /** Calls `fn` every `ms` on this clock, never holding the process open; returns the stop. */
  every(ms: number, fn: () => void): () => void;
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms))),
  after(ms, fn) {
    const timer = setTimeout(fn, Math.max(0, ms));
    timer.unref?.();
    return () => clearTimeout(timer);
  },
  every(ms, fn) {
    const timer = setInterval(fn, ms);
    timer.unref?.();
    return () => clearInterval(timer);
  },
};

/** The clock's time as the database keeps it (ISO 8601, UTC), `ms` from now. */
export const isoAt = (clock: Clock, ms = 0) => new Date(clock.now() + ms).toISOString();
