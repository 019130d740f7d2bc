// Sign-in and registration under abuse: parallel guesses, lock-outs, floods, big anonymous bodies. Runs on
// the memory store, and on Redis when REDIS_URL is set (the test context picks the store).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApi, createTestApi } from '../../../test/http';
import {
  HASHING_CONCURRENCY,
  hashPassword,
  hashingStats,
  resetHashingPeak,
  verifyPassword,
} from '../../platform/passwords';
import { addressKey, slowDownMs } from './auth.service';

const store = process.env.REDIS_URL ? 'redis' : 'memory';
let api: TestApi;

beforeAll(async () => {
  api = await createTestApi({
    loginLimits: { perIp: 1000, perEmail: 5, perEmailSlowAfter: 1000, windowMs: 60_000 },
    registerLimits: { perIp: 3, overall: 5, windowMs: 60_000 },
  });
});
afterAll(async () => {
  await api.close();
});

const login = (email: string, password: string, ip = '203.0.113.1') =>
  api.post('/auth/login', { email, password }, { from: ip });

const statuses = (list: { statusCode: number }[]) => {
  const out: Record<number, number> = {};
  for (const r of list) out[r.statusCode] = (out[r.statusCode] ?? 0) + 1;
  return out;
};

describe(`sign-in under parallel guessing (${store} store)`, () => {
  it('29 parallel wrong guesses at one email: only the allowed 5 are checked, the rest get 429', async () => {
    const victim = await api.user({ role: 'client' });
    const before = hashingStats().verified;
    const answers = await Promise.all(
      Array.from({ length: 29 }, (_, i) => login(victim.user.email, `wrong-guess-${i}`)),
    );
    expect(statuses(answers)).toEqual({ 401: 5, 429: 24 });
    expect(hashingStats().verified - before).toBe(5);
    for (const r of answers.filter((a) => a.statusCode === 429))
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('one password check per email at a time: parallel right answers wait their turn and all succeed', async () => {
    const u = await api.user({ role: 'client' });
    const answers = await Promise.all(Array.from({ length: 4 }, () => login(u.user.email, u.password)));
    expect(statuses(answers)).toEqual({ 200: 4 });
  });

  it('nobody can lock anyone out: after an address is limited, the right password from another address signs in', async () => {
    const owner = await api.user({ role: 'super_admin' });
    for (let i = 0; i < 5; i++)
      expect((await login(owner.user.email, `attacker-${i}`, '198.51.100.7')).statusCode).toBe(401);
    expect((await login(owner.user.email, owner.password, '198.51.100.7')).statusCode).toBe(429);
    const fromHome = await login(owner.user.email, owner.password, '192.0.2.44');
    expect(fromHome.statusCode).toBe(200);
    expect(fromHome.json().token).toBeTruthy();
    // The attacker's address stays limited for this email; a success elsewhere does not lift it.
    expect((await login(owner.user.email, 'attacker-x', '198.51.100.7')).statusCode).toBe(429);
  });

  it('a success clears the failures of that email from that address', async () => {
    const u = await api.user({ role: 'client' });
    for (let i = 0; i < 4; i++) expect((await login(u.user.email, `bad-${i}`)).statusCode).toBe(401);
    expect((await login(u.user.email, u.password)).statusCode).toBe(200);
    for (let i = 0; i < 5; i++) expect((await login(u.user.email, `bad-again-${i}`)).statusCode).toBe(401);
    expect((await login(u.user.email, 'bad-again-6')).statusCode).toBe(429);
  });

  it('many addresses at one email slow down instead of locking: fresh addresses still get in', async () => {
    const slow = await createTestApi({
      loginLimits: { perIp: 1000, perEmail: 5, perEmailSlowAfter: 3, windowMs: 60_000 },
    });
    try {
      const u = await slow.user({ role: 'client' });
      const send = (password: string, ip: string) =>
        slow.post('/auth/login', { email: u.user.email, password }, { from: ip });
      for (const ip of ['10.0.0.1', '10.0.0.2', '10.0.0.3'])
        expect((await send('wrong-guess', ip)).statusCode).toBe(401);
      // Past the ceiling: an address that already failed waits (first retry takes the slot, the next waits).
      expect((await send('wrong-guess', '10.0.0.1')).statusCode).toBe(401);
      const waited = await send('wrong-guess', '10.0.0.2');
      expect(waited.statusCode).toBe(429);
      expect(Number(waited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      // The owner, from an address that never failed, is not delayed.
      expect((await send(u.password, '10.9.9.9')).statusCode).toBe(200);
    } finally {
      await slow.close();
    }
  });

  it('keeps IPv6 limits per /64 network and IPv4-mapped addresses as IPv4', () => {
    expect(addressKey('203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002:0:0:0:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('a:b:c:d:e:f:g:h:i::j')).toBe('a:b:c:d:e:f:g:h:i::j');
    expect(addressKey('x'.repeat(500))).toHaveLength(64);
  });

  it('one IPv6 /64 is one address for the (email, address) limit', async () => {
    const u = await api.user({ role: 'client' });
    for (let i = 0; i < 5; i++)
      expect((await login(u.user.email, `bad-${i}`, `2001:db8:5:6::${i + 1}`)).statusCode).toBe(401);
    expect((await login(u.user.email, u.password, '2001:db8:5:6::99')).statusCode).toBe(429);
    expect((await login(u.user.email, u.password, '2001:db8:5:7::1')).statusCode).toBe(200);
  });

  it('the delay grows with the failures and stops at a minute', () => {
    expect(slowDownMs(20, 20)).toBe(0);
    expect(slowDownMs(21, 20)).toBe(1000);
    expect(slowDownMs(31, 20)).toBe(2000);
    expect(slowDownMs(41, 20)).toBe(4000);
    expect(slowDownMs(10_000, 20)).toBe(60_000);
  });
});

describe(`registration under a flood (${store} store)`, () => {
  it('is limited per address and overall, before any password is hashed', async () => {
    const send = (i: number, ip: string) =>
      api.post(
        '/auth/register',
        { name: `Flood ${i}`, email: `flood-${i}@example.test`, password: `flood-pass-${i}x` },
        { from: ip },
      );
    const hashedBefore = hashingStats().hashed;
    const fromOne = await Promise.all(Array.from({ length: 20 }, (_, i) => send(i, '203.0.113.50')));
    expect(statuses(fromOne)).toEqual({ 201: 3, 429: 17 });
    const limited = fromOne.find((r) => r.statusCode === 429)!;
    expect(limited.json().message).toMatch(
      /^Demasiados registros en poco tiempo\. Inténtalo de nuevo en \d+ segundos?\.$/,
    );
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Overall: 5 in the window whatever the address.
    const fromMany = await Promise.all(
      Array.from({ length: 6 }, (_, i) => send(100 + i, `203.0.113.${60 + i}`)),
    );
    expect(statuses(fromMany)).toEqual({ 201: 2, 429: 4 });
    expect(hashingStats().hashed - hashedBefore).toBe(5);
    const created = await api.container.db
      .selectFrom('users')
      .select('email')
      .where('email', 'like', 'flood-%')
      .execute();
    expect(created).toHaveLength(5);
  });

  it('public auth routes refuse bodies over 16 KB with 413 before reading them', async () => {
    for (const url of ['/api/v1/auth/login', '/api/v1/auth/register', '/api/v1/language/set']) {
      const res = await api.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ email: 'a@b.test', password: 'x'.repeat(20 * 1024) }),
      });
      expect(res.statusCode, url).toBe(413);
      expect(res.json()).toEqual({ message: 'La solicitud es demasiado grande.' });
    }
  });
});

describe('password hashing', () => {
  it(`runs at most ${HASHING_CONCURRENCY} hashes at once, and a sign-in overtakes queued registrations`, async () => {
    resetHashingPeak();
    const stored = await hashPassword('someone-s-password');
    const done: string[] = [];
    const hashes = Array.from({ length: 10 }, (_, i) =>
      hashPassword(`password-number-${i}`).then(() => done.push(`hash${i}`)),
    );
    const signIn = verifyPassword('someone-s-password', stored).then((ok) => {
      done.push('sign-in');
      return ok;
    });
    expect(hashingStats().queued).toBeGreaterThan(0);
    await Promise.all([...hashes, signIn]);
    expect(await signIn).toBe(true);
    expect(hashingStats().peakRunning).toBe(HASHING_CONCURRENCY);
    // Before the sign-in finish only the hashes already running when it arrived, and those that took
    // the other slots while it ran; without the priority it would finish last (index 10).
    expect(done.indexOf('sign-in')).toBeLessThanOrEqual(2 * HASHING_CONCURRENCY - 1);
  });
});
