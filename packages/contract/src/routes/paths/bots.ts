import type { Endpoints, TypedEndpoints } from '../route';
import type { botsRoutes } from '../bots.routes';

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

/** The web's bots calls: these paths at run time, typed by their declarations (types only). */
export const botsApi: TypedEndpoints<typeof botsRoutes> = botsPaths;
