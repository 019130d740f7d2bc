import { describe, expect, it } from 'vitest';
import { MEDIA_KEPT_MS, MEDIA_RETRY_WAITS_MS, nextMediaTry } from './media-retry';

const SENT = Date.parse('2026-11-20T10:00:00.000Z');
const next = (attempts: number, now: number) =>
  nextMediaTry({ attempts, now, sentAt: SENT, waitsMs: MEDIA_RETRY_WAITS_MS, keptMs: MEDIA_KEPT_MS });

describe('the media retry schedule', () => {
  it('waits longer after each try, the last wait repeating', () => {
    expect(next(1, SENT)).toBe(SENT + 30_000);
    expect(next(2, SENT)).toBe(SENT + 2 * 60_000);
    expect(next(8, SENT)).toBe(SENT + 12 * 60 * 60_000);
    expect(next(30, SENT)).toBe(SENT + 12 * 60 * 60_000);
  });

  it('gives the last try at the moment WhatsApp stops keeping the media, and none after', () => {
    const until = SENT + MEDIA_KEPT_MS;
    expect(next(15, until - 60_000)).toBe(until);
    expect(next(16, until)).toBeNull();
    expect(next(1, until + 1)).toBeNull();
  });

  it('makes about 20 tries in the 7 days when every one fails', () => {
    let now = SENT;
    let tries = 1;
    for (let at = next(tries, now); at !== null; at = next(tries, now)) {
      now = at;
      tries++;
    }
    expect(now).toBe(SENT + MEDIA_KEPT_MS);
    expect(tries).toBeGreaterThanOrEqual(18);
    expect(tries).toBeLessThanOrEqual(22);
  });
});
