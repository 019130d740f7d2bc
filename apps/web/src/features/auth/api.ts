import type {
  AccountRequest,
  LanguageSetRequest,
  LoginAnswer,
  LoginRequest,
  RegisterRequest,
  RegisterResponse,
  SuccessResponse,
} from '@hablabot/contract';
import { authApi } from '@hablabot/contract/api';
import { useCallback, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { api, call, callResponse } from '../../lib/api-client';
import { clearSession } from '../../lib/session';

export type { LoginAnswer, LoginRequest, RegisterRequest };

/** An answer read leniently: a missing message falls back to the screen's own text. */
export type MessageResponse = Partial<SuccessResponse>;

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

/** PUT /account: the signed-in user's name, email, language or password. */
export function updateAccount(body: AccountRequest, language?: string) {
  return call(authApi.account, { body }, { language });
}

/**
 * Logout: only a 200 with success clears the session and goes to `/`;
 * anything else is logged and the user stays signed in.
 */
export function useLogout() {
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  const busy = useRef(false);

  const logout = useCallback(async () => {
    if (busy.current) return;
    busy.current = true;
    setPending(true);
    try {
      const response: { status: number; data: MessageResponse | null } = await callResponse(authApi.logout);
      if (response.status === 200 && response.data?.success === true) {
        clearSession();
        navigate('/', { replace: true });
      } else {
        console.error('Logout was not confirmed by the server', response.status, response.data);
      }
    } catch (error) {
      console.error('Logout failed', error);
    } finally {
      busy.current = false;
      setPending(false);
    }
  }, [navigate]);

  return { logout, pending };
}
