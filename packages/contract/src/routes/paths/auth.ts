import type { Endpoints, TypedEndpoints } from '../route';
import type { authRoutes } from '../auth.routes';

export const authPaths = {
  login: { method: 'POST', path: '/auth/login' },
  register: { method: 'POST', path: '/auth/register' },
  logout: { method: 'POST', path: '/auth/logout' },
  account: { method: 'PUT', path: '/account' },
  setLanguage: { method: 'POST', path: '/language/set' },
} as const satisfies Endpoints;

/** The web's auth calls: these paths at run time, typed by their declarations (types only). */
export const authApi: TypedEndpoints<typeof authRoutes> = authPaths;
