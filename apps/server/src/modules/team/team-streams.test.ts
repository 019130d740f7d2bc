// A member's open live stream follows the team's changes at once: deleting the member ends it, and so does
// a new password (which signs them out everywhere), without waiting for the streams' periodic check.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext } from '../../../test/context';
import { type TestUser, createUser } from '../../../test/factories';
import { openStream } from '../../../test/sse';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

let ctx: TestContext;
let base: string;
let admin: TestUser;

beforeAll(async () => {
  // Streams are checked on a timer every 60 s only, and the auth cache trusts a token for 10 minutes:
  // what ends a stream within the test is the team's change telling the cache.
  ctx = await createTestContext({
    eventsHeartbeatMs: 60_000,
    streamAccess: { recheckMs: 60_000 },
    authCacheTtlMs: 10 * 60_000,
  });
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  admin = await createUser(ctx, { role: 'admin' });
});
afterAll(async () => {
  await ctx?.close();
});

async function call(method: 'PUT' | 'DELETE', path: string, body?: object) {
  const res = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: { ...admin.headers, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return res.status;
}

/** An agent of the admin's company with an open stream. */
async function agentWithStream() {
  const agent = await createUser(ctx, { role: 'agent', companyId: admin.user.company_id! });
  const stream = await openStream(base, agent);
  expect(stream.res.status).toBe(200);
  await expect.poll(() => ctx.container.events.listenerCount(admin.user.company_id!)).toBeGreaterThan(0);
  return { agent, stream };
}

describe(`team changes and open streams (${engine})`, () => {
  it('deleting a member ends their open stream', async () => {
    const { agent, stream } = await agentWithStream();
    expect(stream.ended()).toBe(false);
    expect(await call('DELETE', `/admin/team/${agent.user.id}`)).toBe(200);
    await expect.poll(() => stream.ended(), { timeout: 2000 }).toBe(true);
  });

  it('a new password ends the member’s open stream', async () => {
    const { agent, stream } = await agentWithStream();
    const fields = {
      name: agent.user.name,
      email: agent.user.email,
      role: 'agent',
      password: 'blue-river-9931',
    };
    expect(await call('PUT', `/admin/team/${agent.user.id}`, fields)).toBe(200);
    await expect.poll(() => stream.ended(), { timeout: 2000 }).toBe(true);
  });
});
