import type { authRoutes } from './auth.routes';
import type { adminHomeRoutes, botsRoutes } from './bots.routes';
import type { clientsRoutes, segmentsRoutes } from './clients.routes';
import {
  adminHomePaths,
  authPaths,
  botsPaths,
  clientsPaths,
  massMessagesPaths,
  mediaPaths,
  messagesPaths,
  templatesPaths,
  segmentsPaths,
  settingsPaths,
  superAdminPaths,
} from './paths';
import type { TypedEndpoints } from './route';
import type { massMessagesRoutes } from './mass-messages.routes';
import type { mediaRoutes } from './media.routes';
import type { messagesRoutes, templatesRoutes } from './messages.routes';
import type { settingsRoutes } from './settings.routes';
import type { superAdminRoutes } from './super-admin.routes';

// The web's view of the contract: each area's method and path (plain strings at run time) typed by its
// declaration (types only: no schema reaches the web's bundles through these). One export per area, so a
// screen's bundle carries only the paths it calls.

export const clientsApi: TypedEndpoints<typeof clientsRoutes> = clientsPaths;
export const segmentsApi: TypedEndpoints<typeof segmentsRoutes> = segmentsPaths;
export const settingsApi: TypedEndpoints<typeof settingsRoutes> = settingsPaths;
export const adminHomeApi: TypedEndpoints<typeof adminHomeRoutes> = adminHomePaths;
export const botsApi: TypedEndpoints<typeof botsRoutes> = botsPaths;
export const authApi: TypedEndpoints<typeof authRoutes> = authPaths;
export const superAdminApi: TypedEndpoints<typeof superAdminRoutes> = superAdminPaths;
export const massMessagesApi: TypedEndpoints<typeof massMessagesRoutes> = massMessagesPaths;
export const mediaApi: TypedEndpoints<typeof mediaRoutes> = mediaPaths;
export const messagesApi: TypedEndpoints<typeof messagesRoutes> = messagesPaths;
export const templatesApi: TypedEndpoints<typeof templatesRoutes> = templatesPaths;
