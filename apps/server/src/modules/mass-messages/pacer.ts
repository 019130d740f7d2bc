import type { Clock } from '../../platform/clock';

/** The window in which at most `rate` requests may start: one second and a little margin. */
export const WINDOW_MS = 1015;
/** How long without a rate-limit answer before the pace climbs again, and between two climbs. */
export const CALM_MS = 5000;
/** The longest stop after rate-limit answers. */
export const MAX_RATE_LIMIT_STOP_MS = 30_000;

/** What the pacer allows now: `room` requests may start, or none for `waitMs`. */
export type PaceAnswer = { room: number } | { room: 0; waitMs: number };

/**
 * The pace of one run of a mass message, a pure function of its clock: it never sleeps and never reads the
 * time any other way, so a test moves the clock and reads what the pacer allows.
 *
 * At most `rate` requests start in any window of a little over a second, in evenly spaced slots within it.
 * A run that stalled (a busy process) catches up a few slots at most, never a burst. A rate-limit answer
 * (130429) stops the run for a while (`rateLimitBackoffMs`, doubling while they continue, at most 30 s) and
 * lowers the pace by a fifth; the pace climbs back by a tenth every 5 s without one, up to the ceiling —
 * the run's share of the number's pace, which changes when the company's other sends start or end.
 */
export function createPacer(options: { ceiling: number; rateLimitBackoffMs: number; clock: Clock }) {
  const { clock, rateLimitBackoffMs } = options;
  let ceiling = Math.max(1, options.ceiling);
  let rate = ceiling;
  /** Start times of the requests of the last window, oldest first. */
  const recent: number[] = [];
  let slotBase = clock.now();
  let slotCount = 0;
  let stoppedUntil = 0;
  let rateLimitStreak = 0;
  let lastRateLimit = 0;
  let lastRaise = clock.now();

  const setRate = (next: number) => {
    rate = Math.max(1, Math.min(ceiling, Math.round(next)));
    slotBase = clock.now();
    slotCount = 0;
  };

  return {
    /** Requests a second allowed now. */
    get rate() {
      return rate;
    },
    get ceiling() {
      return ceiling;
    },

    /**
     * The run's share of the number's pace changed. Fewer sends share the number now: back to the full
     * share, unless WhatsApp said slow down lately (the climb after a rate limit takes over); more: down
     * to the new share at once.
     */
    setCeiling(share: number) {
      const next = Math.max(1, share);
      if (next === ceiling) return;
      ceiling = next;
      const now = clock.now();
      setRate(lastRateLimit && now - lastRateLimit <= CALM_MS ? Math.min(rate, ceiling) : ceiling);
    },

    /**
     * How many requests may start now, given `free` more may be out at once; when none, how long until
     * the next may (at least 5 ms, so a caller never spins).
     */
    next(free: number): PaceAnswer {
      const now = clock.now();
      if (lastRateLimit && now - lastRateLimit > CALM_MS && now - lastRaise > CALM_MS && rate < ceiling) {
        lastRaise = now;
        setRate(rate * 1.1);
      }
      if (now < stoppedUntil) return { room: 0, waitMs: stoppedUntil - now };
      while (recent.length && recent[0] <= now - WINDOW_MS) recent.shift();
      const behind = ((now - slotBase) * rate) / 1000 - slotCount;
      const catchUp = Math.max(2, Math.ceil(rate / 8));
      if (behind > catchUp) slotBase += ((behind - catchUp) * 1000) / rate;
      const bySlots = Math.floor(((now - slotBase) * rate) / 1000) + 1 - slotCount;
      const byWindow = rate - recent.length;
      const room = Math.min(bySlots, byWindow, free);
      if (room > 0) return { room };
      const nextSlot = slotBase + (slotCount * 1000) / rate;
      const windowFree = recent.length >= rate ? recent[0] + WINDOW_MS : now;
      return { room: 0, waitMs: Math.max(5, Math.max(nextSlot, windowFree) - now) };
    },

    /** A request takes its slot and starts now. */
    started() {
      slotCount++;
      recent.push(clock.now());
    },

    /**
     * The first request of a run starts alone, outside the slots: the pace starts from its answer (see
     * `answeredAlone`), so the connection's set-up never squeezes the next ones together.
     */
    startedAlone() {
      recent.push(clock.now());
    },

    /** The lone first request was answered: the first slot is one step from now. */
    answeredAlone() {
      slotBase = clock.now() + 1000 / rate;
      slotCount = 0;
    },

    /** WhatsApp answered 130429. One stop per burst of refusals: those already out answer the same. */
    rateLimited() {
      const at = clock.now();
      if (at > stoppedUntil) {
        rateLimitStreak = at - lastRateLimit < CALM_MS ? rateLimitStreak + 1 : 1;
        stoppedUntil = at + Math.min(MAX_RATE_LIMIT_STOP_MS, rateLimitBackoffMs * 2 ** (rateLimitStreak - 1));
        setRate(rate * 0.8);
        slotBase = stoppedUntil;
        recent.length = 0;
      }
      lastRateLimit = at;
      lastRaise = at;
    },
  };
}

export type Pacer = ReturnType<typeof createPacer>;
