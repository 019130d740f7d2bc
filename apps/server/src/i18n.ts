import { authTexts } from './modules/auth/auth.i18n';
import { botsTexts } from './modules/bots/bots.i18n';
import { businessHoursTexts } from './modules/business-hours/business-hours.i18n';
import { clientsTexts } from './modules/clients/clients.i18n';
import { conversationsTexts } from './modules/conversations/conversations.i18n';
import { mediaTexts } from './modules/media/media.i18n';
import { massMessagesTexts } from './modules/mass-messages/mass-messages.i18n';
import { messagingTexts } from './modules/messaging/messaging.i18n';
import { scheduledMessagesTexts } from './modules/messaging/scheduled-messages.i18n';
import { whatsappErrorsTexts } from './modules/messaging/whatsapp-errors.i18n';
import { wordpressTexts } from './modules/wordpress-api/wordpress.i18n';
import { settingsTexts } from './modules/settings/settings.i18n';
import { superAdminTexts } from './modules/super-admin/super-admin.i18n';
import { templatesTexts } from './modules/templates/templates.i18n';
import { teamTexts } from './modules/team/team.i18n';
import { registerTexts } from './platform/locale';
import { platformTexts } from './platform/platform.i18n';

/**
 * Every text catalogue of the server (`*.i18n.ts`), one per module plus the platform's. A new module adds
 * its catalogue here and nowhere else; keys are namespaced by module and never defined twice.
 */
export const SERVER_TEXTS = [
  platformTexts,
  authTexts,
  superAdminTexts,
  clientsTexts,
  settingsTexts,
  wordpressTexts,
  mediaTexts,
  botsTexts,
  messagingTexts,
  scheduledMessagesTexts,
  whatsappErrorsTexts,
  templatesTexts,
  massMessagesTexts,
  teamTexts,
  conversationsTexts,
  businessHoursTexts,
] as const;

type Catalogue = (typeof SERVER_TEXTS)[number];
/** Every key of every catalogue (for autocompletion; `translate` accepts any string). */
export type TextKey = Catalogue extends infer C ? (C extends { es: infer E } ? keyof E : never) : never;

/**
 * Loads every catalogue into the locale, once per process, at start-up: `createContainer` calls it, so
 * the HTTP app and a process that loads no routes (a worker) answer the same texts in es and en.
 * Calling it again changes nothing.
 */
export function registerServerTexts(): void {
  for (const catalogue of SERVER_TEXTS) registerTexts(catalogue);
}
