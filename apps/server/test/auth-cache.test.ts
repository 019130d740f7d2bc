// The signed-in user cache (platform/auth-cache.ts): it does serve requests from memory, and everything
// that changes what a token grants is seen by the very next request — in this process and, with Redis,
// in the others.
import type { FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app';
import { createContainer } from '../src/container';
import { type TokenOwner, createAuthCache } from '../src/platform/auth-cache';
import { generateToken, hashToken } from '../src/platform/tokens';
import { type TestApi, type TestUser, createTestApi } from './http';

let api: TestApi;
let superAdmin: TestUser;
let roleIds: Record<string, number>;

beforeAll(async () => {
  api = await createTestApi();
  superAdmin = await api.user({ role: 'super_admin' });
  roleIds = Object.fromEntries((await api.container.identity.listRoles()).map((r) => [r.name, r.id]));
});
afterAll(async () => {
  await api.close();
});

/** The signed-in user as a guarded route sees it. */
const whoIs = (token: string) =>
  api.container.guards.authenticate({ headers: { authorization: `Bearer ${token}` } } as FastifyRequest);

/** A signed-in admin whose token is already in the cache. */
async function warmAdmin(): Promise<TestUser> {
  const admin = await api.user({ role: 'admin' });
  expect((await api.get('/admin/segment', { as: admin })).statusCode).toBe(200);
  return admin;
}

describe('the cache serves signed-in requests', () => {
  it('a token revoked behind the application’s back still works until the entry runs out', async () => {
    const short = await createTestApi({ authCacheTtlMs: 300 });
    try {
      const admin = await short.user({ role: 'admin' });
      expect((await short.get('/admin/segment', { as: admin })).statusCode).toBe(200);
      await short.container.db.deleteFrom('access_tokens').where('user_id', '=', admin.user.id).execute();
      // Served from memory: proof that the cache is in the path (and that the tests below can fail).
      expect((await short.get('/admin/segment', { as: admin })).statusCode).toBe(200);
      // 350 ms later on the clock: the entry has run out.
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + 350);
      expect((await short.get('/admin/segment', { as: admin })).statusCode).toBe(401);
    } finally {
      vi.useRealTimers();
      await short.close();
    }
  });

  it('an entry never outlives its token', async () => {
    const admin = await api.user({ role: 'admin' });
    const token = generateToken();
    await api.container.identity.createToken(admin.user.id, hashToken(token), 300);
    expect((await api.get('/admin/segment', { as: token })).statusCode).toBe(200);
    // 350 ms later on the clock: the token has expired, and the cache's entry with it.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 350);
      expect((await api.get('/admin/segment', { as: token })).statusCode).toBe(401);
    } finally {
      vi.useRealTimers();
    }
  });

  it('entries cannot be changed by the request that reads them', async () => {
    const admin = await warmAdmin();
    const auth = await whoIs(admin.token);
    expect(Object.isFrozen(auth.user)).toBe(true);
    expect(() => {
      (auth.user as { company_id: number | null }).company_id = 1;
    }).toThrow(TypeError);
    expect(() => (auth.user.roles as unknown[]).push({ name: 'super_admin' })).toThrow(TypeError);
  });
});

describe('whatever changes what a token grants is seen by the next request', () => {
  it('sign-out', async () => {
    const admin = await warmAdmin();
    expect((await api.post('/auth/logout', undefined, { as: admin })).statusCode).toBe(200);
    expect((await api.get('/admin/segment', { as: admin })).statusCode).toBe(401);
  });

  it('a new password set by the super admin signs the user out', async () => {
    const admin = await warmAdmin();
    const res = await api.updateUser(
      admin,
      { roles: [roleIds.admin], password: 'brand-new-pass-1' },
      { as: superAdmin },
    );
    expect(res.statusCode).toBe(200);
    expect((await api.get('/admin/segment', { as: admin })).statusCode).toBe(401);
  });

  it('losing the admin role answers 403 at once', async () => {
    const admin = await warmAdmin();
    const res = await api.updateUser(admin, { roles: [roleIds.client] }, { as: superAdmin });
    expect(res.statusCode).toBe(200);
    expect((await api.get('/admin/segment', { as: admin })).statusCode).toBe(403);
  });

  it('a move to another company shows that company’s data at once', async () => {
    const admin = await warmAdmin();
    const other = await api.user({ role: 'admin' });
    await api.post('/admin/segment', { name: 'Only theirs', color: '#123456', rules: 'x' }, { as: other });
    const res = await api.updateUser(
      admin,
      { roles: [roleIds.admin], company_id: other.user.company_id },
      { as: superAdmin },
    );
    expect(res.statusCode).toBe(200);
    const list = await api.get('/admin/segment', { as: admin });
    expect(list.json().segments.map((s: { name: string }) => s.name)).toEqual(['Only theirs']);
  });

  it('a deleted user is refused', async () => {
    const admin = await warmAdmin();
    const res = await api.delete('/super-admin/delete-user', { ids: [admin.user.id] }, { as: superAdmin });
    expect(res.statusCode).toBe(200);
    expect((await api.get('/admin/segment', { as: admin })).statusCode).toBe(401);
  });

  it('a renamed or deleted role, and a new language, show in the signed-in user at once', async () => {
    const admin = await warmAdmin();
    const created = await api.post(
      '/super-admin/roles',
      { name: 'Reviewer', color: '#336699' },
      { as: superAdmin },
    );
    const roleId = created.json().data.id as number;
    await api.updateUser(admin, { roles: [roleIds.admin, roleId] }, { as: superAdmin });
    expect((await whoIs(admin.token)).user.roles.map((r) => r.name)).toEqual(['admin', 'Reviewer']);

    await api.put(`/super-admin/roles/${roleId}`, { name: 'Auditor', color: '#336699' }, { as: superAdmin });
    expect((await whoIs(admin.token)).user.roles.map((r) => r.name)).toEqual(['admin', 'Auditor']);

    await api.delete(`/super-admin/roles/${roleId}`, undefined, { as: superAdmin });
    expect((await whoIs(admin.token)).user.roles.map((r) => r.name)).toEqual(['admin']);

    await api.post('/language/set', { language: 'en' }, { as: admin });
    expect((await whoIs(admin.token)).user.language).toBe('en');
  });
});

const owner = (userId: number): TokenOwner => ({
  tokenId: 1,
  expiresAt: Date.now() + 60_000,
  user: {
    id: userId,
    name: 'U',
    email: 'u@example.test',
    password_hash: 'x',
    company_id: null,
    company_name: null,
    language: 'es',
    stream_seen_at: null,
    created_at: '',
    updated_at: '',
    roles: [],
  },
});

describe('the cache on its own', () => {
  it('keeps no result of a look-up that an invalidation overtook', async () => {
    const cache = createAuthCache();
    let loads = 0;
    let release!: () => void;
    const slow = () =>
      new Promise<TokenOwner>((resolve) => {
        loads++;
        release = () => resolve(owner(7));
      });
    const first = cache.lookup('h', slow);
    await cache.forgetUsers([7]); // the change commits while the old row is on its way
    release();
    await first;
    await cache.lookup('h', async () => {
      loads++;
      return owner(7);
    });
    expect(loads).toBe(2);
    await cache.lookup('h', async () => {
      loads++;
      return owner(7);
    });
    expect(loads).toBe(2);
    await cache.close();
  });

  it('forgets only the users it is told about, or everyone', async () => {
    const cache = createAuthCache();
    await cache.lookup('a', async () => owner(1));
    await cache.lookup('b', async () => owner(2));
    await cache.forgetUsers([1]);
    expect(cache.size).toBe(1);
    await cache.forgetAll();
    expect(cache.size).toBe(0);
    await cache.close();
  });

  it('holds at most maxEntries, dropping the oldest', async () => {
    const cache = createAuthCache({ maxEntries: 3 });
    for (const h of ['a', 'b', 'c', 'd']) await cache.lookup(h, async () => owner(1));
    expect(cache.size).toBe(3);
    let loaded = false;
    await cache.lookup('a', async () => {
      loaded = true;
      return owner(1);
    });
    expect(loaded).toBe(true);
    await cache.close();
  });
});

describe.runIf(process.env.REDIS_URL)('several processes (Redis)', () => {
  it('a sign-out in one process is refused by another within moments', async () => {
    // A second server on the same database with a cache of its own, hearing the same channel.
    const redis = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: 2 });
    const channel = api.container.infra.authCache.channel;
    const otherCache = createAuthCache({ redis, channel });
    expect(await otherCache.ready()).toBe(true);
    const other = await buildApp({
      container: createContainer({ ...api.container.infra, authCache: otherCache }),
    });
    try {
      const admin = await api.user({ role: 'admin' });
      const headers = { authorization: `Bearer ${admin.token}` };
      const list = () => other.inject({ method: 'GET', url: '/api/v1/admin/segment', headers });
      expect((await list()).statusCode).toBe(200);
      expect(otherCache.size).toBe(1);
      expect((await api.post('/auth/logout', undefined, { as: admin })).statusCode).toBe(200);
      await expect.poll(async () => (await list()).statusCode, { timeout: 2000, interval: 20 }).toBe(401);
    } finally {
      await other.close();
      await otherCache.close();
      redis.disconnect();
    }
  });

  it('serves nothing from memory while its subscription is down, and starts empty after it', async () => {
    const redis = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: 2 });
    const cache = createAuthCache({ redis, channel: `${api.container.infra.authCache.channel}:solo` });
    expect(await cache.ready()).toBe(true);
    let loads = 0;
    const load = async () => {
      loads++;
      return owner(1);
    };
    await cache.lookup('h', load);
    await cache.lookup('h', load);
    await cache.lookup('g', load);
    expect(loads).toBe(2);
    // Redis drops the subscriber (as on a restart or a network cut): until it is back, nothing from memory.
    const clients = (await redis.client('LIST')) as string;
    const id = clients
      .split('\n')
      .find((l) => l.includes(`name=${cache.connectionName}`))
      ?.match(/id=(\d+)/)?.[1];
    expect(id).toBeTruthy();
    await redis.client('KILL', 'ID', id!);
    await expect.poll(() => cache.serving, { interval: 1 }).toBe(false);
    await cache.lookup('h', load);
    expect(loads).toBe(3);
    // Back: whatever was published meanwhile is lost, so nothing from before is trusted.
    await expect.poll(() => cache.serving, { timeout: 5000 }).toBe(true);
    expect(cache.size).toBe(0);
    await cache.lookup('g', load);
    await cache.lookup('g', load);
    expect(loads).toBe(4);
    await cache.close();
    redis.disconnect();
  });
});
