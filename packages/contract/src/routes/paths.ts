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
