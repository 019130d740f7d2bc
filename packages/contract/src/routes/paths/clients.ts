import type { Endpoints, TypedEndpoints } from '../route';
import type { clientsRoutes } from '../clients.routes';

export const clientsPaths = {
  list: { method: 'GET', path: '/admin/client' },
  messagesSummary: { method: 'GET', path: '/admin/client/messages-summary' },
  get: { method: 'GET', path: '/admin/client/:id' },
  create: { method: 'POST', path: '/admin/client' },
  update: { method: 'PUT', path: '/admin/client/:id' },
  remove: { method: 'DELETE', path: '/admin/client' },
  toggleBotMode: { method: 'POST', path: '/admin/client/:id/toggle-bot-mode' },
  import: { method: 'POST', path: '/import/clients' },
} as const satisfies Endpoints;

/** The web's clients calls: these paths at run time, typed by their declarations (types only). */
export const clientsApi: TypedEndpoints<typeof clientsRoutes> = clientsPaths;
