import type { Endpoints, TypedEndpoints } from '../route';
import type { massMessagesRoutes } from '../mass-messages.routes';

export const massMessagesPaths = {
  lists: { method: 'GET', path: '/admin/list-clients' },
  createList: { method: 'POST', path: '/admin/list-clients' },
  updateList: { method: 'PUT', path: '/admin/list-clients/:id' },
  removeList: { method: 'DELETE', path: '/admin/list-clients/:id' },
  listMembers: { method: 'GET', path: '/admin/list-clients/:id/clients' },
  create: { method: 'POST', path: '/admin/messages-massive' },
  history: { method: 'GET', path: '/admin/mass-message-history' },
  preview: { method: 'POST', path: '/admin/messages-massive/preview' },
  settings: { method: 'GET', path: '/admin/mass-message-settings' },
  saveSettings: { method: 'PUT', path: '/admin/mass-message-settings' },
  limits: { method: 'GET', path: '/admin/mass-message-limits' },
  get: { method: 'GET', path: '/admin/messages-massive/:id' },
  recipients: { method: 'GET', path: '/admin/messages-massive/:id/recipients' },
  exportRecipients: { method: 'GET', path: '/admin/messages-massive/:id/recipients/export' },
  pause: { method: 'POST', path: '/admin/messages-massive/:id/pause' },
  resume: { method: 'POST', path: '/admin/messages-massive/:id/resume' },
  cancel: { method: 'POST', path: '/admin/messages-massive/:id/cancel' },
  resend: { method: 'POST', path: '/admin/messages-massive/:id/resend' },
} as const satisfies Endpoints;

/** The web's massMessages calls: these paths at run time, typed by their declarations (types only). */
export const massMessagesApi: TypedEndpoints<typeof massMessagesRoutes> = massMessagesPaths;
