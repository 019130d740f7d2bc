import type { InjectOptions } from 'fastify';
import { expect } from 'vitest';
import type { TestContext } from './context';
import type { createCast } from './factories';

type Cast = Awaited<ReturnType<typeof createCast>>;
export type Who = 'anonymous' | 'client' | 'admin' | 'otherAdmin' | 'superAdmin';

/**
 * Asserts the status each kind of caller gets from one route. `request` may be a function of the caller
 * so a route can be aimed at the first admin's resource while another company's admin calls it.
 */
export async function expectRoleMatrix(
  ctx: TestContext,
  cast: Cast,
  request: InjectOptions | (() => InjectOptions | Promise<InjectOptions>),
  expected: Partial<Record<Who, number>>,
): Promise<void> {
  const actual: Partial<Record<Who, number>> = {};
  for (const who of Object.keys(expected) as Who[]) {
    const base = typeof request === 'function' ? await request() : request;
    const headers = { ...(base.headers ?? {}), ...(who === 'anonymous' ? {} : cast[who].headers) };
    const res = await ctx.app.inject({ ...base, headers });
    actual[who] = res.statusCode;
  }
  expect(actual, `${typeof request === 'function' ? 'route' : `${request.method} ${request.url}`}`).toEqual(
    expected,
  );
}

/** The usual matrix of a super-admin route: nobody else gets in. */
export const SUPER_ADMIN_ONLY = { anonymous: 401, client: 403, admin: 403, otherAdmin: 403 } as const;
/** The usual matrix of a company-admin route, for the caller's own resources. */
export const ADMIN_ONLY = { anonymous: 401, client: 403, superAdmin: 403 } as const;
