// Sign-in and registration abuse over real parallel HTTP against a listening server with the production
// limits: (1) 29 parallel wrong guesses at one email — how many password checks ran; (2) 200 parallel
// registrations from one address — how many were accepted, and how long a real sign-in took meanwhile.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../apps/server/src/app';
import { createContainer } from '../apps/server/src/container';
import { openInfrastructure } from '../apps/server/src/infrastructure';
import * as passwords from '../apps/server/src/platform/passwords';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hablabot-abuse-'));
const infra = await openInfrastructure({
  dataDir,
  databaseUrl: process.env.DATABASE_URL,
  redisUrl: process.env.REDIS_URL,
  appKey: randomBytes(32).toString('base64'),
});
const container = createContainer(infra);
// Requests name their client address in X-Forwarded-For (trusted from loopback only), so one machine can
// play an attacker, the account's owner and a bystander.
const app = await buildApp({ container, trustProxy: ['loopback'] });
const url = await app.listen({ port: 0, host: '127.0.0.1' });

/** Password checks (verifications) run so far, when the hashing module counts them. */
const checks = (): number | undefined =>
  (passwords as { hashingStats?: () => { verified: number } }).hashingStats?.().verified;

const byStatus = (list: Response[]) => {
  const out: Record<number, number> = {};
  for (const r of list) out[r.status] = (out[r.status] ?? 0) + 1;
  return out;
};

const post = (route: string, body: unknown, from = '203.0.113.1') =>
  fetch(`${url}/api/v1${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
    body: JSON.stringify(body),
  });

try {
  const { identity } = container;
  const role = await identity.findRoleByName('super_admin');
  const password = 'bench-password-long';
  await identity.createUser({
    name: 'Victim',
    email: 'victim@hablabot.local',
    passwordHash: await passwords.hashPassword(password),
    roleIds: [role!.id],
  });
  await identity.createUser({
    name: 'Bystander',
    email: 'bystander@hablabot.local',
    passwordHash: await passwords.hashPassword(password),
    roleIds: [role!.id],
  });

  const stamp = Date.now().toString(36);
  const created = async (tag: string) =>
    Number(
      (
        await container.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('email', 'like', `${tag}-${stamp}-%`)
          .executeTakeFirstOrThrow()
      ).n,
    );

  /** 200 parallel registrations (`from(i)` picks each one's address) with a real sign-in meanwhile. */
  async function flood(tag: string, from: (i: number) => string) {
    const t0 = performance.now();
    const all = Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        post(
          '/auth/register',
          { name: `Flood ${i}`, email: `${tag}-${stamp}-${i}@example.test`, password: `flood-password-${i}` },
          from(i),
        ),
      ),
    );
    await new Promise((r) => setTimeout(r, 50));
    const s0 = performance.now();
    const signIn = await post('/auth/login', { email: 'bystander@hablabot.local', password }, '192.0.2.10');
    const signInMs = performance.now() - s0;
    const answers = await all;
    const floodMs = performance.now() - t0;
    return { answers, floodMs, signIn, signInMs, accounts: await created(tag) };
  }

  const one = await flood('one', () => '203.0.113.5');
  console.log(
    `200 parallel registrations from one address: answers ${JSON.stringify(byStatus(one.answers))} in ${one.floodMs.toFixed(0)} ms, ` +
      `${one.accounts} accounts created; a real sign-in meanwhile: ${one.signIn.status} in ${one.signInMs.toFixed(0)} ms`,
  );
  const many = await flood('many', (i) => `198.18.${i >> 8}.${i & 255}`);
  console.log(
    `200 parallel registrations from 200 addresses: answers ${JSON.stringify(byStatus(many.answers))} in ${many.floodMs.toFixed(0)} ms, ` +
      `${many.accounts} accounts created; a real sign-in meanwhile: ${many.signIn.status} in ${many.signInMs.toFixed(0)} ms`,
  );

  const before = checks();
  const t0 = performance.now();
  const guesses = await Promise.all(
    Array.from({ length: 29 }, (_, i) =>
      post('/auth/login', { email: 'victim@hablabot.local', password: `wrong-guess-${i}` }, '198.51.100.7'),
    ),
  );
  const guessMs = performance.now() - t0;
  const after = checks();
  console.log(
    `29 parallel wrong guesses at one email from one address: answers ${JSON.stringify(byStatus(guesses))} in ${guessMs.toFixed(0)} ms; ` +
      `password checks run: ${before === undefined || after === undefined ? `${byStatus(guesses)[401] ?? 0} (401 answers)` : after - before}`,
  );
  const own = await post('/auth/login', { email: 'victim@hablabot.local', password }, '198.51.100.7');
  const home = await post('/auth/login', { email: 'victim@hablabot.local', password }, '192.0.2.44');
  console.log(
    `then the right password: from the guessing address ${own.status}, from the owner's own address ${home.status}`,
  );

  // 200 parallel guesses at another email, each from a new address (a spoofed X-Forwarded-For).
  await identity.createUser({
    name: 'Target',
    email: 'target@hablabot.local',
    passwordHash: await passwords.hashPassword(password),
    roleIds: [role!.id],
  });
  const before2 = checks();
  const t2 = performance.now();
  const spread = await Promise.all(
    Array.from({ length: 200 }, (_, i) =>
      post(
        '/auth/login',
        { email: 'target@hablabot.local', password: `guess-${i}` },
        `198.19.${i >> 8}.${i & 255}`,
      ),
    ),
  );
  const after2 = checks();
  console.log(
    `200 parallel guesses at one email, each from a new address: answers ${JSON.stringify(byStatus(spread))} in ${(performance.now() - t2).toFixed(0)} ms; ` +
      `password checks run: ${before2 === undefined || after2 === undefined ? `${byStatus(spread)[401] ?? 0} (401 answers)` : after2 - before2}`,
  );
  const owner = await post('/auth/login', { email: 'target@hablabot.local', password }, '192.0.2.45');
  console.log(`then the owner from their own address: ${owner.status}`);

  // 10 anonymous 9 MB bodies at the sign-in route, with a health check meanwhile.
  const big = JSON.stringify({ email: 'a@b.test', password: 'x'.repeat(9 * 1024 * 1024) });
  const t1 = performance.now();
  const bodies = Promise.all(
    Array.from({ length: 10 }, () =>
      fetch(`${url}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: big,
      }).catch(() => ({ status: 0 }) as Response),
    ),
  );
  await new Promise((r) => setTimeout(r, 20));
  const h0 = performance.now();
  await (await fetch(`${url}/api/v1/health`)).arrayBuffer();
  const healthMs = performance.now() - h0;
  const bigAnswers = await bodies;
  console.log(
    `10 parallel anonymous 9 MB sign-in bodies: answers ${JSON.stringify(byStatus(bigAnswers))} in ${(performance.now() - t1).toFixed(0)} ms; /health meanwhile ${healthMs.toFixed(0)} ms`,
  );
} finally {
  await app.close();
  await infra.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
