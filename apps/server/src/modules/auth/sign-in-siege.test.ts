// The owner of an account under a guessing siege still signs in. The clock is faked
// (Date only): the attacker's 5 requests a second and the owner's waits are clock steps, not sleeps.
// Runs on the memory store, and on Redis when REDIS_URL is set.
import { describe, expect, it } from 'vitest';
import { appOnFakeDate } from '../../../test/fake-date';
import { createTestApi } from '../../../test/http';
import { hashingStats } from '../../platform/passwords';

const store = process.env.REDIS_URL ? 'redis' : 'memory';
const clock = appOnFakeDate(); // the default sign-in limits
const step = (ms: number) => clock.step(ms);

describe(`sign-in under a siege (${store} store)`, () => {
  it('110 failures from 22 addresses, then 5 guesses a second from new addresses: the owner gets in, the attacker stays throttled', async () => {
    const victim = await clock.api.user({ role: 'admin' });
    const email = victim.user.email;
    const send = (password: string, from: string) =>
      clock.api.post('/auth/login', { email, password }, { from });
    // The owner signed in from home before.
    expect((await send(victim.password, '192.0.2.10')).statusCode).toBe(200);

    for (let a = 0; a < 22; a++)
      for (let i = 0; i < 5; i++) {
        await send(`guess-${a}-${i}`, `198.51.100.${a + 1}`);
        step(200);
      }

    // The attacker: 5 guesses a second, each from an address never seen before.
    let n = 0;
    let attackerChecks = 0;
    const attack = async (seconds: number) => {
      for (let i = 0; i < seconds * 5; i++) {
        n += 1;
        const before = hashingStats().verified;
        const res = await send(`attack-${n}`, `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`);
        attackerChecks += hashingStats().verified - before;
        expect([401, 429]).toContain(res.statusCode);
        step(200);
      }
    };

    await attack(5);
    // From home, at once.
    expect((await send(victim.password, '192.0.2.10')).statusCode).toBe(200);

    // From addresses never used before, every 3 s for 75 s: each gets in after at most one Retry-After
    // of at most 10 s, while the attacker keeps going.
    for (let v = 0; v < 25; v++) {
      const from = `203.0.113.${v + 1}`;
      const first = await send(victim.password, from);
      if (first.statusCode !== 200) {
        expect(first.statusCode).toBe(429);
        const wait = Number(first.headers['retry-after']);
        expect(wait).toBeGreaterThan(0);
        expect(wait).toBeLessThanOrEqual(10);
        await attack(wait);
        expect((await send(victim.password, from)).statusCode).toBe(200);
      }
      await attack(3);
    }

    // The owner's sign-ins did not lift the attacker's throttle: at most one check per minute of
    // siege (the delay is 60 s by now), never one per request.
    const minutes = (n / 5 / 60) | 0;
    expect(attackerChecks).toBeLessThanOrEqual(minutes + 1);
  }, 120_000);

  it('past five times the threshold a fresh address waits once, on its own; after a failure it shares the slow turn', async () => {
    const small = await createTestApi({
      loginLimits: { perIp: 1000, perEmail: 5, perEmailSlowAfter: 2, windowMs: 60_000 },
    });
    try {
      const u = await small.user({ role: 'client' });
      const send = (password: string, from: string) =>
        small.post('/auth/login', { email: u.user.email, password }, { from });
      // 10 failures (5 × 2) from 10 fresh addresses: none waits.
      for (let i = 0; i < 10; i++) expect((await send('wrong-guess', `10.1.0.${i}`)).statusCode).toBe(401);
      // Now a fresh address waits 5 s, counted from its first try, and is not checked meanwhile.
      const checked = hashingStats().verified;
      const first = await send('wrong-guess', '10.1.1.1');
      expect(first.statusCode).toBe(429);
      expect(first.headers['retry-after']).toBe('5');
      expect(first.json().message).toBe(
        'Demasiados intentos de inicio de sesión. Inténtalo de nuevo en 5 segundos.',
      );
      step(2000);
      const early = await send('wrong-guess', '10.1.1.1');
      expect(early.headers['retry-after']).toBe('3');
      expect(hashingStats().verified).toBe(checked);
      step(3000);
      expect((await send('wrong-guess', '10.1.1.1')).statusCode).toBe(401);
      // Checked once, that address now shares the email's growing delay with the others that failed.
      expect((await send('wrong-guess', '10.1.1.1')).statusCode).toBe(401);
      expect((await send('wrong-guess', '10.1.0.3')).statusCode).toBe(429);
      // The owner, from a new address, waits once too, then signs in; from there again at once.
      const owner = await small.post(
        '/auth/login',
        { email: u.user.email, password: u.password },
        { from: '10.1.1.2', lang: 'en' },
      );
      expect(owner.json().message).toBe('Too many sign-in attempts. Try again in 5 seconds.');
      step(5000);
      expect((await send(u.password, '10.1.1.2')).statusCode).toBe(200);
      expect((await send(u.password, '10.1.1.2')).statusCode).toBe(200);
      // The owner's success did not lift the delay: two failed addresses in a row do not both get a turn.
      const next = [await send('wrong-guess', '10.1.0.4'), await send('wrong-guess', '10.1.0.5')];
      expect(next.map((r) => r.statusCode)).toContain(429);
    } finally {
      await small.close();
    }
  });
});
