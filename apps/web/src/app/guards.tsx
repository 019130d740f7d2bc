import { type BuiltinRoleName, ROLE_LANDINGS } from '@hablabot/contract';
import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { clearSession, isAgentSession, roleLanding, useSession } from '../lib/session';

/** What /login keeps in the history state: the page a signed-out visitor asked for. */
export type LoginState = { from?: string; notice?: string };

/**
 * No token → /login, remembering the page asked for (path, query and hash) in the history state, so the
 * sign-in can return there. It never travels in the URL: nobody can craft a link that sends a user
 * elsewhere after signing in.
 */
export function RequireAuth() {
  const session = useSession();
  const location = useLocation();
  if (session) return <Outlet />;
  const from = `${location.pathname}${location.search}${location.hash}`;
  return <Navigate to="/login" replace state={{ from } satisfies LoginState} />;
}

/**
 * Where a user goes after signing in: the page they asked for when it lies in their role's area,
 * otherwise the role's landing.
 */
export function afterSignIn(rol: string | null, from: unknown): string {
  const landing = roleLanding(rol) ?? '/';
  if (typeof from !== 'string' || landing === '/') return landing;
  // Only a path of this app (one leading slash, no scheme or host) inside the area counts.
  if (!from.startsWith('/') || from.startsWith('//') || from.includes('\\')) return landing;
  const inArea = from === landing || /^[/?#]/.test(from.slice(landing.length));
  return from.startsWith(landing) && inArea ? from : landing;
}

/** Each role's area sends any other role to /. The admin area also lets agents in (see AdminOnly). */
export function RequireRole({ allow }: { allow: BuiltinRoleName | readonly BuiltinRoleName[] }) {
  const session = useSession();
  const allowed = typeof allow === 'string' ? [allow] : allow;
  const rol = session?.rol;
  return rol && (allowed as readonly string[]).includes(rol) ? <Outlet /> : <Navigate to="/" replace />;
}

/** Where an agent goes from any admin screen that is not theirs: the chats. */
export const AGENT_HOME = ROLE_LANDINGS.agent;

/**
 * The admin screens an agent may not open ('Inicio', 'Bots', 'Clientes', 'Equipo'…): an agent only
 * answers chats, so any of them sends the agent to /admin/chat (the server answers 403 to them anyway).
 */
export function AdminOnly() {
  const session = useSession();
  return isAgentSession(session) ? <Navigate to={AGENT_HOME} replace /> : <Outlet />;
}

/**
 * Login and register redirect to / when a token exists — or, right after signing in from a deep link,
 * to the page asked for (whichever of this guard and the sign-in's own navigation runs first).
 */
export function GuestOnly() {
  const session = useSession();
  const from = (useLocation().state as LoginState | null)?.from;
  if (!session) return <Outlet />;
  return <Navigate to={from ? afterSignIn(session.rol, from) : '/'} replace />;
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
