// The pacer on a fake clock: where each request of a run may start, to the millisecond, without sleeping.
import { describe, expect, it } from 'vitest';
import { type FakeClock, createFakeClock } from '../../../test/fake-clock';
import { massPaceFor } from '@hablabot/contract';
import { type Pacer, WINDOW_MS, createPacer } from './pacer';

/**
 * Runs the pacer as the sender does, for `n` requests: the first alone, answered at once, then as many as
 * it allows, the clock moved on by each wait it asks for. The clock's time at each start.
 */
function drive(pacer: Pacer, clock: FakeClock, n: number, free = 1000): number[] {
  const starts: number[] = [];
  pacer.startedAlone();
  starts.push(clock.now());
  pacer.answeredAlone();
  while (starts.length < n) {
    const answer = pacer.next(free);
    if ('waitMs' in answer) {
      expect(answer.waitMs).toBeGreaterThanOrEqual(5);
      clock.advance(answer.waitMs);
      continue;
    }
    for (let i = 0; i < answer.room && starts.length < n; i++) {
      pacer.started();
      starts.push(clock.now());
    }
  }
  return starts;
}

/** The most requests that started in any window of `WINDOW_MS`. */
function busiestWindow(starts: number[]): number {
  let most = 0;
  for (let i = 0; i < starts.length; i++) {
    let j = i;
    while (j < starts.length && starts[j] < starts[i] + WINDOW_MS) j++;
    most = Math.max(most, j - i);
  }
  return most;
}

describe('the mass send pacer', () => {
  it('spaces N requests at 80/s evenly: the last starts (N-1)/80 s after the first', () => {
    const clock = createFakeClock();
    const pacer = createPacer({ ceiling: 80, rateLimitBackoffMs: 1000, clock });
    const starts = drive(pacer, clock, 160);
    const t0 = starts[0];
    // The first is alone; the next ones one slot (12.5 ms) apart, from one slot after its answer.
    expect(starts.slice(0, 4).map((t) => t - t0)).toEqual([0, 12.5, 25, 37.5]);
    expect((starts[159] - t0) / 1000).toBeCloseTo(159 / 80, 1);
    expect(busiestWindow(starts)).toBeLessThanOrEqual(80);
  });

  it('holds 500/s over ten seconds, never more than 500 in a window', () => {
    const clock = createFakeClock();
    const pacer = createPacer({ ceiling: 500, rateLimitBackoffMs: 1000, clock });
    const starts = drive(pacer, clock, 5000);
    const reached = (starts.length - 1) / ((starts.at(-1)! - starts[0]) / 1000);
    // The window is a little over a second (1015 ms): the pace reached is 500 × 1000/1015 at best.
    expect(reached).toBeGreaterThan((500 * 1000) / WINDOW_MS - 1);
    expect(reached).toBeLessThanOrEqual(500.5);
    expect(busiestWindow(starts)).toBeLessThanOrEqual(500);
  });

  it('lets no more out at once than are free', () => {
    const clock = createFakeClock();
    const pacer = createPacer({ ceiling: 500, rateLimitBackoffMs: 1000, clock });
    pacer.answeredAlone();
    clock.advance(1000);
    expect(pacer.next(3)).toEqual({ room: 3 });
    expect(pacer.next(0)).toMatchObject({ room: 0 });
  });

  it('after a stall, catches up a few slots at most, never a burst', () => {
    const clock = createFakeClock();
    const pacer = createPacer({ ceiling: 80, rateLimitBackoffMs: 1000, clock });
    drive(pacer, clock, 10);
    clock.advance(3000); // a busy process: 240 slots went by
    const answer = pacer.next(1000);
    // Slots behind are forgotten beyond ceil(80 / 8) = 10.
    expect(answer).toEqual({ room: 11 });
  });

  it('stops on 130429, slows by a fifth, doubles the stop while they continue, and climbs back when calm', () => {
    const clock = createFakeClock();
    const pacer = createPacer({ ceiling: 100, rateLimitBackoffMs: 200, clock });
    drive(pacer, clock, 20);
    pacer.rateLimited();
    expect(pacer.rate).toBe(80);
    expect(pacer.next(1000)).toEqual({ room: 0, waitMs: 200 });
    // Answers of the same burst (already out) make no second stop.
    clock.advance(50);
    pacer.rateLimited();
    expect(pacer.rate).toBe(80);
    expect(pacer.next(1000)).toEqual({ room: 0, waitMs: 150 });
    // Another after the stop, within 5 s: twice as long, and a fifth slower again.
    clock.advance(300);
    pacer.rateLimited();
    expect(pacer.rate).toBe(64);
    expect(pacer.next(1000)).toEqual({ room: 0, waitMs: 400 });
    // 5 s without one: a tenth faster every 5 s, up to the ceiling.
    const rates: number[] = [];
    for (let i = 0; i < 6; i++) {
      clock.advance(5001);
      pacer.next(1000);
      rates.push(pacer.rate);
    }
    expect(rates).toEqual([70, 77, 85, 94, 100, 100]);
  });

  it('takes its share when the company’s other sends start, and the whole again when they end', () => {
    const clock = createFakeClock();
    const pacer = createPacer({ ceiling: 60, rateLimitBackoffMs: 1000, clock });
    pacer.setCeiling(30);
    expect(pacer.rate).toBe(30);
    pacer.setCeiling(60);
    expect(pacer.rate).toBe(60);
    // Right after a rate limit, a larger share waits for the climb.
    pacer.rateLimited();
    pacer.setCeiling(30);
    expect(pacer.rate).toBe(30);
    pacer.setCeiling(60);
    expect(pacer.rate).toBe(30);
  });

  it("keeps to the number's throughput: 80/s by default, 1,000/s for a HIGH number, never above the company's setting", () => {
    expect(massPaceFor(null, null)).toBe(80);
    expect(massPaceFor('STANDARD', null)).toBe(80);
    expect(massPaceFor('STANDARD', 500)).toBe(80);
    expect(massPaceFor('HIGH', null)).toBe(1000);
    expect(massPaceFor('HIGH', 300)).toBe(300);
    expect(massPaceFor('high', 5000)).toBe(1000);
    expect(massPaceFor('STANDARD', 20)).toBe(20);
    // A run of a HIGH number's send: 2,000 requests in about two seconds, never 1,001 in a window.
    const clock = createFakeClock();
    const pacer = createPacer({ ceiling: massPaceFor('HIGH', null), rateLimitBackoffMs: 1000, clock });
    const starts = drive(pacer, clock, 2000);
    expect((starts[1999] - starts[0]) / 1000).toBeCloseTo(1999 / 1000, 1);
    expect(busiestWindow(starts)).toBeLessThanOrEqual(1000);
    expect(busiestWindow(starts)).toBeGreaterThanOrEqual(990);
  });
});
