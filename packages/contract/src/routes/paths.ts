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
