import type { AccountRequest, SuccessResponse } from '@hablabot/contract';
import { authApi } from '@hablabot/contract/api';
import { useCallback, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { call, callResponse } from '../../lib/api-client';
import { clearSession } from '../../lib/session';

// The signed-in user's own calls (the account dialog and the user menu). They live apart from api.ts,
// which the sign-in route loads before it paints, so that route's JavaScript carries none of them.

/** An answer read leniently: a missing message falls back to the screen's own text. */
export type MessageResponse = Partial<SuccessResponse>;

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
