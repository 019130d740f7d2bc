import { test as base, expect, type Page } from '@playwright/test';
import { openSession } from './api';
import { E2E_PASSWORD, E2E_USERS, type E2ERole } from './users';

interface LoginBody {
  token: string;
  user: { name: string; roles: { name: string }[] };
}

function sharedSessions(): Record<string, LoginBody> {
  const raw = process.env.E2E_SESSIONS;
  if (!raw) throw new Error('E2E_SESSIONS is missing: did the global setup run?');
  return JSON.parse(raw) as Record<string, LoginBody>;
}

/** Signs in through the API (faster and steadier than the form) and writes the session keys the web app reads. */
export async function signInAs(page: Page, who: E2ERole, options: { language?: 'es' | 'en' } = {}) {
  let session = sharedSessions()[who];
  if (!session) {
    const response = await page.request.post('/api/v1/auth/login', {
      data: { email: E2E_USERS[who].email, password: E2E_PASSWORD },
    });
    expect(response.status(), `API sign-in of ${who}`).toBe(200);
    session = (await response.json()) as LoginBody;
  }
  await openSession(page, session, options.language);
  return session;
}

/** Fills and sends the sign-in form the way a person does. */
export async function signInThroughForm(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByPlaceholder('Enter email address').fill(email);
  await page.getByPlaceholder('Enter password').fill(password);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
}

export const test = base;
export { expect };
