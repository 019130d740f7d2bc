import type { clientsRoutes, segmentsRoutes } from './clients.routes';
import { clientsPaths, segmentsPaths, settingsPaths } from './paths';
import type { TypedEndpoints } from './route';
import type { settingsRoutes } from './settings.routes';

// The web's view of the contract: each area's method and path (plain strings at run time) typed by its
// declaration (types only: no schema reaches the web's bundles through these). One export per area, so a
// screen's bundle carries only the paths it calls.

export const clientsApi: TypedEndpoints<typeof clientsRoutes> = clientsPaths;
export const segmentsApi: TypedEndpoints<typeof segmentsRoutes> = segmentsPaths;
export const settingsApi: TypedEndpoints<typeof settingsRoutes> = settingsPaths;
