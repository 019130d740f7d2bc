import type { Endpoints } from './route';

// Every route of /api/v1 by area: method and path (Fastify's syntax, `:name` for a path parameter).
// No zod here: the web imports these strings alone, area by area, so its bundles stay as light as before.
// What each route takes and answers is declared beside, in <area>.routes.ts.

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

export const segmentsPaths = {
  list: { method: 'GET', path: '/admin/segment' },
  create: { method: 'POST', path: '/admin/segment' },
  update: { method: 'PUT', path: '/admin/segment/:id' },
  remove: { method: 'DELETE', path: '/admin/segment/:id' },
} as const satisfies Endpoints;

export const settingsPaths = {
  get: { method: 'GET', path: '/admin/setting' },
  save: { method: 'POST', path: '/admin/setting' },
  generate: { method: 'POST', path: '/admin/setting/generate' },
  testWhatsApp: { method: 'POST', path: '/admin/setting/test/whatsapp' },
  testOpenAi: { method: 'POST', path: '/admin/setting/test/openai' },
} as const satisfies Endpoints;

export const adminHomePaths = {
  summary: { method: 'GET', path: '/admin/home-summary' },
} as const satisfies Endpoints;

export const botsPaths = {
  list: { method: 'GET', path: '/admin/bot' },
  create: { method: 'POST', path: '/admin/bot' },
  update: { method: 'PUT', path: '/admin/bot/:id' },
  remove: { method: 'DELETE', path: '/admin/bot/:id' },
  toggleState: { method: 'POST', path: '/admin/bot/:id/toggle-bot-state' },
  test: { method: 'POST', path: '/admin/bot/:id/test' },
  listInstructions: { method: 'GET', path: '/admin/instructions/:botId' },
  createInstruction: { method: 'POST', path: '/admin/instruction' },
  updateInstruction: { method: 'PUT', path: '/admin/instruction/:id' },
  removeInstructions: { method: 'DELETE', path: '/admin/instruction' },
} as const satisfies Endpoints;

export const authPaths = {
  login: { method: 'POST', path: '/auth/login' },
  register: { method: 'POST', path: '/auth/register' },
  logout: { method: 'POST', path: '/auth/logout' },
  account: { method: 'PUT', path: '/account' },
  setLanguage: { method: 'POST', path: '/language/set' },
} as const satisfies Endpoints;

export const superAdminPaths = {
  users: { method: 'GET', path: '/super-admin/users' },
  companies: { method: 'GET', path: '/super-admin/companies' },
  companiesOverview: { method: 'GET', path: '/super-admin/companies/overview' },
  createCompany: { method: 'POST', path: '/super-admin/companies' },
  renameCompany: { method: 'PUT', path: '/super-admin/companies/:id' },
  overview: { method: 'GET', path: '/super-admin/overview' },
  analytics: { method: 'GET', path: '/super-admin/analytics' },
  createUser: { method: 'POST', path: '/super-admin/create-user' },
  updateUser: { method: 'PUT', path: '/super-admin/update-user/:id' },
  deleteUsers: { method: 'DELETE', path: '/super-admin/delete-user' },
  roles: { method: 'GET', path: '/super-admin/roles' },
  createRole: { method: 'POST', path: '/super-admin/roles' },
  updateRole: { method: 'PUT', path: '/super-admin/roles/:id' },
  deleteRole: { method: 'DELETE', path: '/super-admin/roles/:id' },
} as const satisfies Endpoints;

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
  get: { method: 'GET', path: '/admin/messages-massive/:id' },
  recipients: { method: 'GET', path: '/admin/messages-massive/:id/recipients' },
  exportRecipients: { method: 'GET', path: '/admin/messages-massive/:id/recipients/export' },
  pause: { method: 'POST', path: '/admin/messages-massive/:id/pause' },
  resume: { method: 'POST', path: '/admin/messages-massive/:id/resume' },
  cancel: { method: 'POST', path: '/admin/messages-massive/:id/cancel' },
  resend: { method: 'POST', path: '/admin/messages-massive/:id/resend' },
} as const satisfies Endpoints;

export const mediaPaths = {
  upload: { method: 'POST', path: '/admin/media/upload' },
  /** The same upload at its older address, kept for callers that still use it. */
  uploadLegacy: { method: 'POST', path: '/media/upload' },
  list: { method: 'GET', path: '/admin/media/user' },
  remove: { method: 'DELETE', path: '/admin/media/:id' },
} as const satisfies Endpoints;

export const messagesPaths = {
  history: { method: 'GET', path: '/admin/client/:id/messages' },
  get: { method: 'GET', path: '/admin/messages/:id' },
  markAsRead: { method: 'PATCH', path: '/admin/messages/:clientId/mark-as-read' },
  send: { method: 'POST', path: '/admin/message' },
  /** A message's media file (not JSON: the file itself, with its type). */
  file: { method: 'GET', path: '/admin/files/:id' },
} as const satisfies Endpoints;

export const templatesPaths = {
  list: { method: 'GET', path: '/templates' },
  sync: { method: 'GET', path: '/templates/sync' },
  send: { method: 'POST', path: '/admin/messages/send-template-message' },
} as const satisfies Endpoints;

/**
 * The live events (server-sent events). Not a JSON call: the web reads the stream with fetch
 * (lib/event-stream.ts) and the server registers it by hand (platform/events); the path is the contract's.
 */
export const streamPaths = {
  events: { method: 'GET', path: '/admin/events' },
} as const satisfies Endpoints;

/** The WordPress inbound API (a WordPress site's plugin calls it with the company's key and secret). */
export const wordpressPaths = {
  ping: { method: 'GET', path: '/integrations/wordpress/ping' },
  upsertClient: { method: 'POST', path: '/integrations/wordpress/clients' },
} as const satisfies Endpoints;
