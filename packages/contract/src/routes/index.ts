import { clientsRoutes, segmentsRoutes } from './clients.routes';
import { settingsRoutes } from './settings.routes';

export * from './route';
export * from './paths';
export * from './endpoints';

/** Every declared route of /api/v1, by area: what the server registers (see routes.test.ts). */
export const routes = {
  clients: clientsRoutes,
  segments: segmentsRoutes,
  settings: settingsRoutes,
};
