import type { Endpoints, TypedEndpoints } from '../route';
import type { mediaRoutes } from '../media.routes';

export const mediaPaths = {
  upload: { method: 'POST', path: '/admin/media/upload' },
  /** The same upload at its older address, kept for callers that still use it. */
  uploadLegacy: { method: 'POST', path: '/media/upload' },
  list: { method: 'GET', path: '/admin/media/user' },
  remove: { method: 'DELETE', path: '/admin/media/:id' },
} as const satisfies Endpoints;

/** The web's media calls: these paths at run time, typed by their declarations (types only). */
export const mediaApi: TypedEndpoints<typeof mediaRoutes> = mediaPaths;
