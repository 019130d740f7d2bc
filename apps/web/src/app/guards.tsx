import type { BuiltinRoleName } from '@hablabot/contract';
import { useEffect } from 'react';
import { Navigate, Outlet } from 'react-router';
import { clearSession, roleLanding, useSession } from '../lib/session';

/** No token → /login. */
export function RequireAuth() {
  const session = useSession();
  return session ? <Outlet /> : <Navigate to="/login" replace />;
}

/** Each role's area sends any other role to /. */
export function RequireRole({ allow }: { allow: BuiltinRoleName }) {
  const session = useSession();
  return session?.rol === allow ? <Outlet /> : <Navigate to="/" replace />;
}

/** Login and register redirect to / when a token exists. */
export function GuestOnly() {
  const session = useSession();
  return session ? <Navigate to="/" replace /> : <Outlet />;
}

/**
 * The `/` index: signed-in users go to their role's landing, everyone else to /login. A session
 * whose role has no area is dropped, so nobody loops between / and /login.
 */
export function IndexRedirect() {
  const session = useSession();
  const landing = roleLanding(session?.rol);
  useEffect(() => {
    if (session && !landing) clearSession();
  }, [session, landing]);
  if (session && !landing) return null;
  return <Navigate to={landing ?? '/login'} replace />;
}
