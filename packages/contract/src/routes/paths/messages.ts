import type { Endpoints, TypedEndpoints } from '../route';
import type { messagesRoutes } from '../messages.routes';

export const messagesPaths = {
  history: { method: 'GET', path: '/admin/client/:id/messages' },
  get: { method: 'GET', path: '/admin/messages/:id' },
  markAsRead: { method: 'PATCH', path: '/admin/messages/:clientId/mark-as-read' },
  send: { method: 'POST', path: '/admin/message' },
  /** A scheduled message (status 5): changed, or cancelled (deleted), before it goes out. */
  updateScheduled: { method: 'PUT', path: '/admin/messages/:id' },
  cancelScheduled: { method: 'DELETE', path: '/admin/messages/:id' },
  /** A customer's media that failed to download, tried again now. */
  retryMedia: { method: 'POST', path: '/admin/messages/:id/media/retry' },
  /** A message's media file (not JSON: the file itself, with its type). */
  file: { method: 'GET', path: '/admin/files/:id' },
} as const satisfies Endpoints;

/** The web's messages calls: these paths at run time, typed by their declarations (types only). */
export const messagesApi: TypedEndpoints<typeof messagesRoutes> = messagesPaths;
