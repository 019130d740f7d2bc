import type { Endpoints, TypedEndpoints } from '../route';
import type { settingsRoutes } from '../settings.routes';

export const settingsPaths = {
  get: { method: 'GET', path: '/admin/setting' },
  save: { method: 'POST', path: '/admin/setting' },
  generate: { method: 'POST', path: '/admin/setting/generate' },
  testWhatsApp: { method: 'POST', path: '/admin/setting/test/whatsapp' },
  testOpenAi: { method: 'POST', path: '/admin/setting/test/openai' },
} as const satisfies Endpoints;

/** The web's settings calls: these paths at run time, typed by their declarations (types only). */
export const settingsApi: TypedEndpoints<typeof settingsRoutes> = settingsPaths;
