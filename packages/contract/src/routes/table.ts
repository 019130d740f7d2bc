// The server's side of the route contract: every declaration (schemas included), by area. Reached
// through '@hablabot/contract/routes' only, so the web (which imports the package's index, sometimes
// whole) never carries the declarations: it gets the paths and their types (`<area>Api`).
import { authRoutes } from './auth.routes';
import { adminHomeRoutes, botsRoutes } from './bots.routes';
import { businessHoursRoutes } from './business-hours.routes';
import { clientsRoutes, segmentsRoutes } from './clients.routes';
import { massMessagesRoutes } from './mass-messages.routes';
import { conversationsRoutes, inboxSettingsRoutes, quickRepliesRoutes, teamRoutes } from './inbox.routes';
import { mediaRoutes } from './media.routes';
import { messagesRoutes, templatesRoutes } from './messages.routes';
import { settingsRoutes } from './settings.routes';
import { superAdminRoutes } from './super-admin.routes';
import { wordpressRoutes } from './wordpress.routes';

/** Every declared route of /api/v1, by area: what the server registers (apps/server/test/route-contract.test.ts). */
export const routes = {
  adminHome: adminHomeRoutes,
  auth: authRoutes,
  bots: botsRoutes,
  businessHours: businessHoursRoutes,
  clients: clientsRoutes,
  conversations: conversationsRoutes,
  inboxSettings: inboxSettingsRoutes,
  massMessages: massMessagesRoutes,
  media: mediaRoutes,
  messages: messagesRoutes,
  quickReplies: quickRepliesRoutes,
  segments: segmentsRoutes,
  settings: settingsRoutes,
  superAdmin: superAdminRoutes,
  team: teamRoutes,
  templates: templatesRoutes,
  wordpress: wordpressRoutes,
};
