import type { Clock } from '../src/platform/clock';

export interface FakeClock extends Clock {
  /** Moves the clock on by `ms`: sleeps and timers due by then fire, in time order. */
  advance(ms: number): void;
  /** Sleeps and timers waiting on the clock. */
  readonly waiting: number;
}

/**
 * A clock that moves only when told. With `autoAdvance`, a sleep moves it on by its length at once (and
 * resolves on the next turn of the event loop, so real I/O — the database — still runs between steps):
 * code that paces itself runs through minutes of its time in a moment, each wait exact.
 */
export function createFakeClock(options: { start?: number; autoAdvance?: boolean } = {}): FakeClock {
  let now = options.start ?? Date.parse('2026-11-27T09:00:00.000Z');
  let seq = 0;
  const timers = new Map<number, { due: number; fn: () => void; every?: number }>();

  function fire() {
    for (;;) {
      let next: [number, { due: number; fn: () => void; every?: number }] | undefined;
      for (const entry of timers)
        if (entry[1].due <= now && (!next || entry[1].due < next[1].due)) next = entry;
      if (!next) return;
      const [id, timer] = next;
      if (timer.every) timer.due += timer.every;
      else timers.delete(id);
      timer.fn();
    }
  }

  const schedule = (ms: number, fn: () => void, every?: number) => {
    const id = ++seq;
    timers.set(id, { due: now + Math.max(0, ms), fn, every });
    return () => void timers.delete(id);
  };

  return {
    now: () => now,
    sleep(ms) {
      if (options.autoAdvance) {
        now += Math.max(0, ms);
        fire();
        return new Promise((resolve) => setImmediate(resolve));
      }
      return new Promise((resolve) => schedule(ms, () => resolve()));
    },
    after: (ms, fn) => schedule(ms, fn),
    every: (ms, fn) => schedule(ms, fn, Math.max(1, ms)),
    advance(ms) {
      now += ms;
      fire();
    },
    get waiting() {
      return timers.size;
    },
  };
}
