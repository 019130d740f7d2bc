// One way for server tests to build the app and call it: a fresh database (temp SQLite, or a PostgreSQL
// schema of its own with TEST_DATABASE_URL), users made directly or signed in through the real route,
// and get/post/put/delete that add the API prefix, the caller's bearer token and the language.
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { type TestContext, createTestContext } from './context';
import { type TestUser, createCast, createUser } from './factories';

export type { TestUser } from './factories';
/** One of each role, plus an admin of a second company (`api.cast()`). */
export type Cast = Awaited<ReturnType<typeof createCast>>;

type Method = NonNullable<InjectOptions['method']>;

export interface CallOptions {
  /** Who calls: a user from the factories, a bare token, or nobody (anonymous). */
  as?: Pick<TestUser, 'token'> | string;
  /** Accept-Language. */
  lang?: string;
  headers?: Record<string, string>;
  /** Sent as the client's address (rate limits are kept per address). */
  from?: string;
}

export interface TestApi extends TestContext {
  /**
   * Calls a route. A path under /api/v1 may be written without the prefix (`/admin/segment`); a path
   * that starts with `/api/` or is outside the API (`/sanctum/csrf-cookie`, with `root`) is sent as is.
   */
  call(
    method: Method,
    path: string,
    body?: unknown,
    options?: CallOptions & { root?: boolean },
  ): Promise<LightMyRequestResponse>;
  get(path: string, options?: CallOptions): Promise<LightMyRequestResponse>;
  post(path: string, body?: unknown, options?: CallOptions): Promise<LightMyRequestResponse>;
  put(path: string, body?: unknown, options?: CallOptions): Promise<LightMyRequestResponse>;
  delete(path: string, body?: unknown, options?: CallOptions): Promise<LightMyRequestResponse>;
  /** A user with one role and a token (admins get a company of their own unless one is given). */
  user(options?: Parameters<typeof createUser>[1]): Promise<TestUser>;
  /** One of each role, plus an admin of a second company. */
  cast(): ReturnType<typeof createCast>;
  /** PUT /super-admin/update-user/:id: the user's own name and email unless `changes` gives others. */
  updateUser(
    target: TestUser,
    changes: { roles: number[] } & Record<string, unknown>,
    options?: CallOptions,
  ): Promise<LightMyRequestResponse>;
  /** Signs in through POST /auth/login; the answer's token, or an error with the status. */
  signIn(email: string, password: string, options?: CallOptions): Promise<string>;
}

export function headersFor(options: CallOptions = {}): Record<string, string> {
  const token = typeof options.as === 'string' ? options.as : options.as?.token;
  return {
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...(options.lang ? { 'accept-language': options.lang } : {}),
    ...options.headers,
  };
}

/** The app on a fresh database (see createTestContext for the options), with the helpers above. */
export async function createTestApi(options?: Parameters<typeof createTestContext>[0]): Promise<TestApi> {
  const ctx = await createTestContext(options);
  const call: TestApi['call'] = (method, path, body, callOptions = {}) =>
    ctx.app.inject({
      method,
      url: callOptions.root || path.startsWith('/api/') ? path : `/api/v1${path}`,
      headers: headersFor(callOptions),
      ...(body === undefined ? {} : { payload: body as InjectOptions['payload'] }),
      ...(callOptions.from ? { remoteAddress: callOptions.from } : {}),
    });
  return {
    ...ctx,
    call,
    get: (path, o) => call('GET', path, undefined, o),
    post: (path, body, o) => call('POST', path, body, o),
    put: (path, body, o) => call('PUT', path, body, o),
    delete: (path, body, o) => call('DELETE', path, body, o),
    user: (o) => createUser(ctx, o),
    cast: () => createCast(ctx),
    updateUser: (target, changes, o) =>
      call(
        'PUT',
        `/super-admin/update-user/${target.user.id}`,
        { name: target.user.name, email: target.user.email, ...changes },
        o,
      ),
    async signIn(email, password, o) {
      const res = await call('POST', '/auth/login', { email, password }, o);
      if (res.statusCode !== 200) throw new Error(`sign-in answered ${res.statusCode}: ${res.body}`);
      return res.json().token as string;
    },
  };
}

/**
 * The set-up most module tests share: the app on a fresh database, one of each role (`cast`), the ids
 * of the two companies, and `as(who, method, path, body, lang)` to call as one of the cast.
 */
export async function createCastApi(options?: Parameters<typeof createTestContext>[0]) {
  const api = await createTestApi(options);
  const cast = await api.cast();
  const companyId = (who: TestUser) => {
    if (who.user.company_id === null) throw new Error(`${who.user.email} has no company`);
    return who.user.company_id;
  };
  return {
    api,
    cast,
    companyA: companyId(cast.admin),
    companyB: companyId(cast.otherAdmin),
    as: (who: keyof Cast, method: Method, path: string, body?: unknown, lang?: string) =>
      api.call(method, path, body, { as: cast[who], lang }),
  };
}

export type CastApi = Awaited<ReturnType<typeof createCastApi>>;
