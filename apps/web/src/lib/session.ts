import {
  type BuiltinRoleName,
  isBuiltinRoleName,
  ROLE_LANDINGS,
  type RoleSummary,
  type SessionUser as ContractSessionUser,
} from '@hablabot/contract';
import { useSyncExternalStore } from 'react';

/** The three built-in roles; anything else has no area. */
export type RoleName = BuiltinRoleName;

/** A role as the session keeps it (the sign-in answer's; older stored sessions may lack a field). */
export type SessionRole = Pick<RoleSummary, 'id' | 'name'> & Partial<Omit<RoleSummary, 'id' | 'name'>>;

/**
 * The signed-in user as the sign-in answer gave it. Read back from session storage, a field may be
 * missing (a session stored by an older build), so only the id and email are certain.
 */
export type SessionUser = Pick<ContractSessionUser, 'id' | 'email'> &
  Partial<Omit<ContractSessionUser, 'id' | 'email' | 'name' | 'roles'>> & {
    name?: string | null;
    roles?: SessionRole[];
  };

export interface Session {
  token: string;
  user: SessionUser | null;
  rol: string | null;
}

// The session lives in session storage under the keys token, user and rol.
export const SESSION_KEYS = { token: 'token', user: 'user', rol: 'rol' } as const;

const listeners = new Set<() => void>();
let cached: { raw: string; session: Session | null } | null = null;

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null;
  }
}

function parseUser(raw: string | null): SessionUser | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as unknown;
    return value && typeof value === 'object' ? (value as SessionUser) : null;
  } catch {
    return null;
  }
}

/** The stored session, or null when there is no token. Stable between changes (safe for useSyncExternalStore). */
export function getSession(): Session | null {
  const store = storage();
  const token = store?.getItem(SESSION_KEYS.token) ?? null;
  const userRaw = store?.getItem(SESSION_KEYS.user) ?? null;
  const rol = store?.getItem(SESSION_KEYS.rol) ?? null;
  const raw = `${token}\u0000${userRaw}\u0000${rol}`;
  if (cached && cached.raw === raw) return cached.session;
  const session = token ? { token, user: parseUser(userRaw), rol } : null;
  cached = { raw, session };
  return session;
}

export function getToken(): string | null {
  return getSession()?.token ?? null;
}

function emit(): void {
  for (const listener of listeners) listener();
}

export function setSession(session: Session): void {
  const store = storage();
  if (!store) return;
  store.setItem(SESSION_KEYS.token, session.token);
  store.setItem(SESSION_KEYS.user, JSON.stringify(session.user));
  if (session.rol) store.setItem(SESSION_KEYS.rol, session.rol);
  else store.removeItem(SESSION_KEYS.rol);
  emit();
}

export function clearSession(): void {
  const store = storage();
  if (!store) return;
  store.removeItem(SESSION_KEYS.token);
  store.removeItem(SESSION_KEYS.user);
  store.removeItem(SESSION_KEYS.rol);
  emit();
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSession(): Session | null {
  return useSyncExternalStore(subscribeSession, getSession, () => null);
}

/** Where a role lands after sign-in; null for a role with no area. */
export function roleLanding(rol: string | null | undefined): string | null {
  return isBuiltinRoleName(rol) ? ROLE_LANDINGS[rol] : null;
}

/**
 * Whether the session is an agent's: a person of a company's team who only answers chats (the admin
 * layout shows them 'Chats' and 'Mi cuenta'). The server's rule: the agent role without the admin role;
 * a stored session without its roles falls back to the role it signed in with.
 */
export function isAgentSession(session: Session | null): boolean {
  if (!session) return false;
  const names = session.user?.roles?.map((role) => role.name);
  if (!names || names.length === 0) return session.rol === 'agent';
  return names.includes('agent') && !names.includes('admin');
}

/** Initials of a name for the avatar; '?' when there is no name. */
export function initials(name: string | null | undefined): string {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '?';
  const first = words[0][0] ?? '';
  const last = words.length > 1 ? (words[words.length - 1][0] ?? '') : '';
  return (first + last).toUpperCase() || '?';
}
