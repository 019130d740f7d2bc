import type { Endpoints, TypedEndpoints } from '../route';
import type { adminHomeRoutes } from '../bots.routes';

export const adminHomePaths = {
  summary: { method: 'GET', path: '/admin/home-summary' },
} as const satisfies Endpoints;

/** The web's adminHome calls: these paths at run time, typed by their declarations (types only). */
export const adminHomeApi: TypedEndpoints<typeof adminHomeRoutes> = adminHomePaths;
