import type { Endpoints, TypedEndpoints } from '../route';
import type { businessHoursRoutes } from '../business-hours.routes';

export const businessHoursPaths = {
  get: { method: 'GET', path: '/admin/business-hours' },
  save: { method: 'PUT', path: '/admin/business-hours' },
} as const satisfies Endpoints;

/** The web's business hours calls: these paths at run time, typed by their declarations (types only). */
export const businessHoursApi: TypedEndpoints<typeof businessHoursRoutes> = businessHoursPaths;
