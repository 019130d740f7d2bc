import type { Page } from '@playwright/test';
import { E2E_PASSWORD } from './users';

/**
 * Talking to the e2e server's API from a spec: seeding data, and an admin with a company of its own
 * (so parallel specs and workers never see each other's rows), signed into a page without the form.
 */

/** The API of the server the run started. */
export const apiBase = () => `http://127.0.0.1:${process.env.E2E_PORT}/api/v1`;

/** A signed-in account, as POST /auth/login answers. */
export interface Session {
  token: string;
  user: { name: string; roles: { name: string }[] };
}

let signIns = 0;
/**
 * Each sign-in made from a spec comes "from" an address of its own (the e2e server trusts one proxy hop,
 * see global-setup.ts): the server limits sign-ins per address, and a run makes more of them than one
 * person would from one address. Sign-ins through the browser's form still come from 127.0.0.1.
 */
function signInAddress(): Record<string, string> {
  signIns++;
  return { 'X-Forwarded-For': `10.${process.pid % 250}.${(signIns >> 8) & 255}.${signIns & 255}` };
}

/** One API call with JSON in and out (Spanish messages unless `headers` says otherwise); never throws on a status. */
export async function apiRaw<T>(
  method: string,
  url: string,
  body?: unknown,
  token?: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; data: T }> {
  const response = await fetch(`${apiBase()}${url}`, {
    method,
    headers: {
      Accept: 'application/json',
      'Accept-Language': 'es',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(url === '/auth/login' ? signInAddress() : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, data: (await response.json().catch(() => null)) as T };
}

/** One API call that must succeed: its answer, or an error naming the call and what the server said. */
export async function api<T>(method: string, url: string, body?: unknown, token?: string): Promise<T> {
  const { status, data } = await apiRaw<T>(method, url, body, token);
  if (status < 200 || status >= 300) throw new Error(`${method} ${url} → ${status} ${JSON.stringify(data)}`);
  return data;
}

/**
 * Creates an admin with a company of its own through the super admin the global setup signed in, and
 * signs it in through the API. `key` starts its e-mail address; `name` and `company` are shown in the app.
 */
export async function createCompanyAdmin(who: { key: string; name: string; company: string }): Promise<{
  admin: Session;
  tag: string;
}> {
  const sessions = JSON.parse(process.env.E2E_SESSIONS ?? '{}') as Record<string, Session>;
  const superToken = sessions.super_admin?.token;
  if (!superToken) throw new Error('E2E_SESSIONS has no super_admin: did the global setup run?');
  const roles = await api<{ data: { id: number; name: string }[] }>(
    'GET',
    '/super-admin/roles',
    undefined,
    superToken,
  );
  const adminRole = roles.data.find((role) => role.name === 'admin');
  if (!adminRole) throw new Error('no admin role');
  const tag = `${process.pid}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const email = `${who.key}.${tag}@e2e.hablabot.test`;
  await api(
    'POST',
    '/super-admin/create-user',
    {
      name: who.name,
      email,
      password: E2E_PASSWORD,
      roles: [adminRole.id],
      company_name: `${who.company} ${tag}`,
    },
    superToken,
  );
  return { admin: await api<Session>('POST', '/auth/login', { email, password: E2E_PASSWORD }), tag };
}

/**
 * One company admin per worker, made on first use: one sign-in per worker keeps a run under the
 * server's sign-in rate limit.
 */
export function adminPerWorker(who: { key: string; name: string; company: string }): () => Promise<Session> {
  let admin: Promise<Session> | null = null;
  return () => {
    admin ??= createCompanyAdmin(who).then((made) => made.admin);
    return admin;
  };
}

/** Opens the app in `page` as `session`, in `language`, the way the web app keeps a sign-in. */
export async function openSession(page: Page, session: Session, language?: 'es' | 'en'): Promise<void> {
  // A static file of the same origin: sessionStorage is per origin and per tab.
  await page.goto('/favicon.svg');
  await page.evaluate(
    ({ token, user, language }) => {
      sessionStorage.setItem('token', token);
      sessionStorage.setItem('user', JSON.stringify(user));
      sessionStorage.setItem('rol', user.roles[0]?.name ?? '');
      if (language) localStorage.setItem('language', language);
    },
    { token: session.token, user: session.user, language },
  );
}
