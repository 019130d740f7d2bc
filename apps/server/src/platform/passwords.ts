import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

// scrypt with N=2^15, r=8, p=1 (OWASP's minimum is N=2^17 with r=8 p=1 or equivalent memory-cost
// trade-offs; 2^15 costs ~150 ms of one thread-pool thread per verify on our 2-vCPU machines). Parameters are stored with each hash so they
// can be raised later without breaking old hashes.
const N = 2 ** 15;
const R = 8;
const P = 1;
const KEYLEN = 32;
const MAXMEM = 64 * 1024 * 1024;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEYLEN, { N: n, r, p, maxmem: MAXMEM }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

/**
 * How many scrypt runs may use the thread pool at once. Each run holds one of libuv's four threads
 * (which file access and DNS share) for ~150 ms; without a cap a registration flood queued hundreds of
 * them and a sign-in waited 8–18 s behind. Extra runs wait here, sign-ins before everything else.
 */
export const HASHING_CONCURRENCY = 2;

type Priority = 'sign-in' | 'other';
const queues: Record<Priority, (() => void)[]> = { 'sign-in': [], other: [] };
const stats = { running: 0, peakRunning: 0, verified: 0, hashed: 0 };

async function slot<T>(priority: Priority, work: () => Promise<T>): Promise<T> {
  if (stats.running >= HASHING_CONCURRENCY) {
    await new Promise<void>((resolve) => queues[priority].push(resolve));
  } else {
    stats.running++;
  }
  stats.peakRunning = Math.max(stats.peakRunning, stats.running);
  try {
    return await work();
  } finally {
    // Hand the slot straight to the next waiter (sign-ins first), or give it back.
    const next = queues['sign-in'].shift() ?? queues.other.shift();
    if (next) next();
    else stats.running--;
  }
}

/** Counters for tests and benchmarks: runs in flight, the most ever in flight, and totals. */
export function hashingStats() {
  return {
    ...stats,
    queued: queues['sign-in'].length + queues.other.length,
  };
}

/** Resets the peak (tests measure one burst at a time). */
export function resetHashingPeak(): void {
  stats.peakRunning = stats.running;
}

/** Hashes a new password (registration, user forms, the first super admin): waits behind sign-ins. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await slot('other', () => derive(password, salt, N, R, P));
  stats.hashed++;
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** Checks a password against its stored hash; sign-ins go first in the hashing queue. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, n, r, p, salt, hash] = parts;
  const expected = Buffer.from(hash, 'base64');
  const actual = await slot('sign-in', () =>
    derive(password, Buffer.from(salt, 'base64'), Number(n), Number(r), Number(p)),
  );
  stats.verified++;
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A hash of nothing in particular, so unknown emails cost as much time as wrong passwords. */
export const DUMMY_HASH = await hashPassword(randomBytes(12).toString('hex'));
