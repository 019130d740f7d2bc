import type { Endpoints, TypedEndpoints } from '../route';
import type { segmentsRoutes } from '../clients.routes';

export const segmentsPaths = {
  list: { method: 'GET', path: '/admin/segment' },
  create: { method: 'POST', path: '/admin/segment' },
  update: { method: 'PUT', path: '/admin/segment/:id' },
  remove: { method: 'DELETE', path: '/admin/segment/:id' },
} as const satisfies Endpoints;

/** The web's segments calls: these paths at run time, typed by their declarations (types only). */
export const segmentsApi: TypedEndpoints<typeof segmentsRoutes> = segmentsPaths;
