// The Content-Security-Policy lets the chat's PDF preview show (an iframe of a blob: URL the page made
// from the downloaded file, which the policy's default-src 'self' used to block) and nothing wider: frames
// may show blob: documents only, plug-ins stay off and no one may frame the app.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext } from '../../test/context';
import { HELMET_OPTIONS, securityHeaders } from './security-headers';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});

afterAll(async () => {
  await ctx?.close();
});

/** A Content-Security-Policy as directive → sources. */
function directives(policy: string): Record<string, string[]> {
  return Object.fromEntries(
    policy
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name, sources]),
  );
}

describe('the Content-Security-Policy', () => {
  it('frames blob: documents (the chat’s PDF preview) and nothing else', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/v1/health' });
    const csp = directives(String(res.headers['content-security-policy']));
    expect(csp['frame-src']).toEqual(['blob:']);
    expect(csp['default-src']).toEqual(["'self'"]);
    expect(csp['object-src']).toEqual(["'none'"]);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    expect(csp['script-src']).toEqual(["'self'"]);
    expect(securityHeaders(HELMET_OPTIONS)['content-security-policy']).toBe(
      res.headers['content-security-policy'],
    );
  });
});
