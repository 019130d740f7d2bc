import type { Endpoints, TypedEndpoints } from '../route';
import type { templatesRoutes } from '../messages.routes';

export const templatesPaths = {
  list: { method: 'GET', path: '/templates' },
  sync: { method: 'GET', path: '/templates/sync' },
  send: { method: 'POST', path: '/admin/messages/send-template-message' },
  create: { method: 'POST', path: '/templates' },
  remove: { method: 'DELETE', path: '/templates/:id' },
} as const satisfies Endpoints;

/** The web's templates calls: these paths at run time, typed by their declarations (types only). */
export const templatesApi: TypedEndpoints<typeof templatesRoutes> = templatesPaths;
