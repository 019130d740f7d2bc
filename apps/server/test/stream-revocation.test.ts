// An open event stream is authorised when it opens; these check that it ends as soon as its token stops
// granting the company's events — signed out, other sessions signed out from 'Mi cuenta', the user
// deleted, demoted or moved to another company, the token expired — and that nothing written after the
// change reaches it. Also: how many streams one user may hold open. (Across instances with Redis:
// multi-instance.test.ts.)
import type { ServerEvent } from '@hablabot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateToken, hashToken } from '../src/platform/tokens';
import { createTestContext, type TestContext } from './context';
import { createUser, type TestUser } from './factories';
import { openStream } from './sse';

const message = (content: string): ServerEvent => ({
  type: 'client.unread',
  data: { client_id: 1, unread_messages_count: 1, last_message_content: content, last_message_date: null },
});

describe('event streams end when their access is taken away', () => {
  let ctx: TestContext;
  let base: string;
  let superAdmin: TestUser;

  beforeAll(async () => {
    // Checks on a timer every 60 s only: what ends a stream within the test is the change itself.
    ctx = await createTestContext({ eventsHeartbeatMs: 60_000, streamAccess: { recheckMs: 60_000 } });
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    superAdmin = await createUser(ctx, { role: 'super_admin' });
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const companyOf = (u: TestUser) => u.user.company_id as number;
  const contents = (stream: Awaited<ReturnType<typeof openStream>>) =>
    stream
      .events()
      .filter((e) => e.event === 'client.unread')
      .map((e) => JSON.parse(e.data!).last_message_content as string);

  /** A second sign-in of the same user (another browser). */
  async function anotherSession(user: TestUser): Promise<TestUser> {
    const token = generateToken();
    await ctx.container.identity.createToken(user.user.id, hashToken(token), 60 * 60 * 1000);
    return { ...user, token, headers: { authorization: `Bearer ${token}` } };
  }

  /** Opens a stream, checks it is live with one event, and returns it. */
  async function liveStream(user: TestUser) {
    const stream = await openStream(base, user);
    expect(stream.res.status).toBe(200);
    await expect.poll(() => ctx.container.events.listenerCount(companyOf(user))).toBeGreaterThan(0);
    await ctx.container.events.publish(companyOf(user), message('before'));
    await expect.poll(() => contents(stream)).toContain('before');
    return stream;
  }

  /** The change was made: the stream ends within 2 s, and an event published right after never arrives. */
  async function expectEnded(stream: Awaited<ReturnType<typeof openStream>>, companyId: number) {
    await ctx.container.events.publish(companyId, message('after'));
    await expect.poll(() => stream.ended(), { timeout: 2000 }).toBe(true);
    expect(contents(stream)).not.toContain('after');
  }

  it('ends on sign-out', async () => {
    const admin = await createUser(ctx);
    const stream = await liveStream(admin);
    const out = await ctx.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: admin.headers });
    expect(out.statusCode).toBe(200);
    await expectEnded(stream, companyOf(admin));
  });

  it("ends the other sessions' streams when 'Mi cuenta' signs them out, and keeps this one", async () => {
    const admin = await createUser(ctx, { password: 'Una-clave-larga-2026' });
    const other = await anotherSession(admin);
    const mine = await liveStream(admin);
    const theirs = await liveStream(other);
    const res = await ctx.app.inject({
      method: 'PUT',
      url: '/api/v1/account',
      headers: admin.headers,
      payload: {
        name: admin.user.name,
        language: 'es',
        current_password: 'Una-clave-larga-2026',
        password: 'Otra-clave-distinta-2027',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    await expectEnded(theirs, companyOf(admin));
    // This session's stream stays open and, once its check has passed, gets the events.
    await ctx.container.events.publish(companyOf(admin), message('still here'));
    await expect.poll(() => contents(mine)).toContain('still here');
    expect(mine.ended()).toBe(false);
    mine.close();
  });

  it('ends when the super admin deletes the user', async () => {
    const admin = await createUser(ctx);
    const stream = await liveStream(admin);
    const res = await ctx.app.inject({
      method: 'DELETE',
      url: '/api/v1/super-admin/delete-user',
      headers: superAdmin.headers,
      payload: { ids: [admin.user.id] },
    });
    expect(res.statusCode, res.body).toBe(200);
    await expectEnded(stream, companyOf(admin));
  });

  async function updateUser(user: TestUser, change: { roles?: string; company_id?: number }) {
    const role = (await ctx.container.identity.findRoleByName((change.roles ?? 'admin') as 'admin'))!;
    const res = await ctx.app.inject({
      method: 'PUT',
      url: `/api/v1/super-admin/update-user/${user.user.id}`,
      headers: superAdmin.headers,
      payload: {
        name: user.user.name,
        email: user.user.email,
        roles: [role.id],
        company_id: change.company_id ?? user.user.company_id,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
  }

  it('ends when the user is demoted from admin', async () => {
    const admin = await createUser(ctx);
    const stream = await liveStream(admin);
    await updateUser(admin, { roles: 'client' });
    await expectEnded(stream, companyOf(admin));
  });

  it("ends when the user is moved to another company, and the old company's events stop", async () => {
    const admin = await createUser(ctx);
    const elsewhere = await createUser(ctx);
    const stream = await liveStream(admin);
    await updateUser(admin, { company_id: companyOf(elsewhere) });
    await expectEnded(stream, companyOf(admin));
    // A new stream reads the new company's events only.
    const again = await openStream(base, admin);
    expect(again.res.status).toBe(200);
    await expect.poll(() => ctx.container.events.listenerCount(companyOf(elsewhere))).toBeGreaterThan(0);
    await ctx.container.events.publish(companyOf(admin), message('old company'));
    await ctx.container.events.publish(companyOf(elsewhere), message('new company'));
    await expect.poll(() => contents(again)).toContain('new company');
    expect(contents(again)).not.toContain('old company');
    again.close();
  });

  it('ends when the token expires', async () => {
    const admin = await createUser(ctx);
    const token = generateToken();
    await ctx.container.identity.createToken(admin.user.id, hashToken(token), 1500);
    const short = { ...admin, token, headers: { authorization: `Bearer ${token}` } };
    const stream = await liveStream(short);
    await expect.poll(() => stream.ended(), { timeout: 4000 }).toBe(true);
  });

  it('holds back an event published while the check runs, and drops it when the check fails', async () => {
    const admin = await createUser(ctx);
    const stream = await liveStream(admin);
    await ctx.container.db.deleteFrom('access_tokens').where('user_id', '=', admin.user.id).execute();
    // The change is announced and the event published in the same turn: the check is still running.
    const forgotten = ctx.container.infra.authCache.forgetUsers([admin.user.id]);
    await ctx.container.events.publish(companyOf(admin), message('during the check'));
    await forgotten;
    await expect.poll(() => stream.ended(), { timeout: 2000 }).toBe(true);
    expect(contents(stream)).not.toContain('during the check');
  });

  it("leaves other users' streams of the same company alone", async () => {
    const admin = await createUser(ctx);
    const colleague = await createUser(ctx, { companyId: companyOf(admin) });
    const stays = await liveStream(colleague);
    const goes = await liveStream(admin);
    await ctx.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: admin.headers });
    await expectEnded(goes, companyOf(admin));
    await ctx.container.events.publish(companyOf(admin), message('for the colleague'));
    await expect.poll(() => contents(stays)).toContain('for the colleague');
    expect(stays.ended()).toBe(false);
    stays.close();
  });
});

describe('streams per user, and the periodic check', () => {
  let ctx: TestContext;
  let base: string;

  beforeAll(async () => {
    ctx = await createTestContext({
      eventsHeartbeatMs: 60_000,
      streamAccess: { maxPerUser: 3, recheckMs: 250 },
    });
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('refuses one more than the cap with 429 and Retry-After, and accepts again once one closes', async () => {
    const admin = await createUser(ctx);
    const colleague = await createUser(ctx, { companyId: admin.user.company_id as number });
    const streams = [];
    for (let i = 0; i < 3; i++) {
      const stream = await openStream(base, admin);
      expect(stream.res.status).toBe(200);
      streams.push(stream);
    }
    const refused = await fetch(`${base}/api/v1/admin/events`, { headers: admin.headers });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await refused.json()) as { message: string }).message).toMatch(/pestañas/);
    // Another user of the company is not counted against this one.
    const theirs = await openStream(base, colleague);
    expect(theirs.res.status).toBe(200);
    theirs.close();

    streams[0].close();
    await streams[0].reading;
    await expect.poll(async () => (await openStream(base, admin)).res.status).toBe(200);
    for (const stream of streams) stream.close();
  });

  it("ends a stream whose token was deleted behind the application's back, at the next periodic check", async () => {
    const admin = await createUser(ctx);
    const stream = await openStream(base, admin);
    expect(stream.res.status).toBe(200);
    // Straight in the database: no sign-out, nothing tells the auth cache.
    await ctx.container.db.deleteFrom('access_tokens').where('user_id', '=', admin.user.id).execute();
    await expect.poll(() => stream.ended(), { timeout: 2000 }).toBe(true);
  });
});
