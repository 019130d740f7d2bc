import type { Endpoints, TypedEndpoints } from '../route';
import type {
  conversationsRoutes,
  inboxSettingsRoutes,
  quickRepliesRoutes,
  teamRoutes,
} from '../inbox.routes';

export const teamPaths = {
  list: { method: 'GET', path: '/admin/team' },
  create: { method: 'POST', path: '/admin/team' },
  update: { method: 'PUT', path: '/admin/team/:id' },
  remove: { method: 'DELETE', path: '/admin/team/:id' },
} as const satisfies Endpoints;

export const inboxSettingsPaths = {
  get: { method: 'GET', path: '/admin/inbox-settings' },
  save: { method: 'PUT', path: '/admin/inbox-settings' },
} as const satisfies Endpoints;

export const conversationsPaths = {
  list: { method: 'GET', path: '/admin/conversations' },
  assign: { method: 'POST', path: '/admin/conversations/:id/assign' },
  resolve: { method: 'POST', path: '/admin/conversations/:id/resolve' },
  reopen: { method: 'POST', path: '/admin/conversations/:id/reopen' },
  addNote: { method: 'POST', path: '/admin/conversations/:id/notes' },
} as const satisfies Endpoints;

export const quickRepliesPaths = {
  list: { method: 'GET', path: '/admin/quick-replies' },
  create: { method: 'POST', path: '/admin/quick-replies' },
  update: { method: 'PUT', path: '/admin/quick-replies/:id' },
  remove: { method: 'DELETE', path: '/admin/quick-replies/:id' },
} as const satisfies Endpoints;

/** The web's team inbox calls: these paths at run time, typed by their declarations (types only). */
export const teamApi: TypedEndpoints<typeof teamRoutes> = teamPaths;
export const inboxSettingsApi: TypedEndpoints<typeof inboxSettingsRoutes> = inboxSettingsPaths;
export const conversationsApi: TypedEndpoints<typeof conversationsRoutes> = conversationsPaths;
export const quickRepliesApi: TypedEndpoints<typeof quickRepliesRoutes> = quickRepliesPaths;
