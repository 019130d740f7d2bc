import { useCallback, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { api, apiRequest } from '../../lib/api-client';
import { clearSession, type SessionUser } from '../../lib/session';

export interface LoginRequest {
  email: string;
  password: string;
}

export interface LoginResponse {
  success: boolean;
  message?: string;
  token?: string;
  user?: SessionUser;
  language?: string;
}

export interface RegisterRequest {
  name: string;
  email: string;
  password: string;
}

export interface MessageResponse {
  success?: boolean;
  message?: string;
}

/** Laravel-style CSRF cookie; SPEC.md section 4 asks for it before every sign-in. */
export function fetchCsrfCookie(): Promise<unknown> {
  return api.get('/sanctum/csrf-cookie', { auth: false });
}

export function login(body: LoginRequest): Promise<LoginResponse> {
  return api.post<LoginResponse>('/auth/login', body, { auth: false });
}

export function register(body: RegisterRequest): Promise<MessageResponse> {
  return api.post<MessageResponse>('/auth/register', body, { auth: false });
}

/**
 * Logout per SPEC.md section 4: only a 200 with success clears the session and goes to `/`;
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
      const response = await apiRequest<MessageResponse>('/auth/logout', { method: 'POST' });
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
