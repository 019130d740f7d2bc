import type {
  LanguageSetRequest,
  LoginAnswer,
  LoginRequest,
  RegisterRequest,
  RegisterResponse,
} from '@hablabot/contract';
import { authApi } from '@hablabot/contract/api';
import { api, call } from '../../lib/api-client';

// The calls of the public pages (sign-in, registration, the language switcher): the sign-in route loads
// this module before it paints. The signed-in user's calls (account, logout) are in account-api.ts.

export type { LoginAnswer, LoginRequest, RegisterRequest };

/** Laravel-style CSRF cookie, asked for before every sign-in. */
export function fetchCsrfCookie(): Promise<unknown> {
  return api('/sanctum/csrf-cookie', { auth: false });
}

export function login(body: LoginRequest): Promise<LoginAnswer | null> {
  return call(authApi.login, { body }, { auth: false });
}

export function register(body: RegisterRequest): Promise<Partial<RegisterResponse> | null> {
  return call(authApi.register, { body }, { auth: false });
}

/** POST /language/set: the UI language, stored for the signed-in user (only for this browser otherwise). */
export function setLanguage(body: LanguageSetRequest, language: string) {
  return call(authApi.setLanguage, { body }, { language });
}
