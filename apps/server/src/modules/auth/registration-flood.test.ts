// A flood of sign-ups from many addresses uses up the overall registration limit, yet a new
// address still registers within a minute. The clock is faked (Date only). Runs on the memory store, and
// on Redis when REDIS_URL is set.
import { describe, expect, it } from 'vitest';
import { appOnFakeDate } from '../../../test/fake-date';

const store = process.env.REDIS_URL ? 'redis' : 'memory';
const clock = appOnFakeDate(); // the default registration limits
const step = (ms: number) => clock.step(ms);
let n = 0;
const register = (from: string, lang?: string) => {
  n += 1;
  return clock.api.post(
    '/auth/register',
    { name: `Sign-up ${n}`, email: `sign-up-${n}@example.test`, password: `a-good-pass-${n}x` },
    { from, lang },
  );
};

/** 5 sign-ups from each of `addresses` new addresses, in parallel; the statuses counted. */
async function flood(tag: number, addresses: number) {
  const answers = await Promise.all(
    Array.from({ length: addresses * 5 }, (_, i) => register(`10.${tag}.${i % addresses}.1`)),
  );
  const out: Record<number, number> = {};
  for (const r of answers) out[r.statusCode] = (out[r.statusCode] ?? 0) + 1;
  return out;
}

describe(`registration under a flood from many addresses (${store} store)`, () => {
  it('a new address registers after one Retry-After of at most a minute; the flood stays limited', async () => {
    const first = await flood(1, 20);
    expect(first[201]).toBe(10);
    expect(first[429]).toBe(90);

    const refused = await register('192.0.2.77', 'en');
    expect(refused.statusCode).toBe(429);
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect(refused.json().message).toBe(
      `Too many registrations in a short time. Try again in ${wait} seconds.`,
    );

    // The flood goes on from more new addresses; the newcomer comes back once, after the wait.
    step(wait * 1000);
    const second = await flood(2, 20);
    expect(second[201] ?? 0).toBeLessThanOrEqual(10);
    const back = await register('192.0.2.77');
    expect(back.statusCode).toBe(201);

    // A flooding address that waited gets one turn of its own, not five.
    const waiting = ['10.3.0.1', '10.3.0.2', '10.3.0.3', '10.3.0.4', '10.3.0.5'];
    for (const from of waiting) expect((await register(from)).statusCode).toBe(429);
    step(60_000);
    await flood(4, 20); // the minute's overall limit is used up again
    const turns: number[] = [];
    for (const from of waiting) for (let i = 0; i < 3; i++) turns.push((await register(from)).statusCode);
    expect(turns.filter((s) => s === 201)).toHaveLength(5);
    expect(turns.filter((s) => s === 429)).toHaveLength(10);
  }, 60_000);
});
